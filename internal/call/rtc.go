package call

// WebRTC signalling: each voice client's PeerConnection (offer, candidates, close) and its state.

import (
	"context"

	"github.com/pion/webrtc/v4"

	"tenfour/internal/media"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/realtime"
)

// peerFor returns the client's PeerConnection, creating it on first use.
func (s *Service) peerFor(cl *client) (*media.Peer, error) {
	cl.peerMu.Lock()
	defer cl.peerMu.Unlock()
	s.mu.Lock()
	p, gone := cl.peer, cl.gone
	s.mu.Unlock()
	if gone {
		return nil, realtime.ErrNotOnline
	}
	if p != nil {
		return p, nil
	}
	p, err := s.media.NewPeer(ownerOf(cl), func(p *media.Peer, _ bool) { go s.peerChanged(cl, p) })
	if err != nil {
		return nil, err
	}
	if err := s.keepPeer(cl, p); err != nil {
		return nil, err
	}
	return p, nil
}

// ownerOf is the media owner of a client's peer.
func ownerOf(cl *client) media.Owner {
	return media.Owner{Account: cl.acct.ID, Customer: cl.acct.Customer, Console: cl.console}
}

// keepPeer makes p the client's peer, unless the client has gone: p is then closed. The caller holds cl.peerMu.
func (s *Service) keepPeer(cl *client, p *media.Peer) error {
	s.mu.Lock()
	gone := cl.gone
	if !gone {
		cl.peer = p
	}
	s.mu.Unlock()
	if gone {
		p.Close()
		return realtime.ErrNotOnline
	}
	return nil
}

// peerChanged reacts to a PeerConnection becoming ready or not: tell the client, re-route.
func (s *Service) peerChanged(cl *client, p *media.Peer) {
	_ = s.locked(func(later *afterUnlock) error {
		if cl.peer != p || cl.gone {
			return nil
		}
		state := "disconnected"
		if p.Ready() {
			state = "connected"
		}
		_ = cl.conn.Send("rtc.state", map[string]string{"state": state})
		s.recomputeLocked(cl.acct.Customer)
		return nil
	})
}

// rtcOfferReq is `rtc.offer`.
type rtcOfferReq struct {
	SDP string `json:"sdp"`
}

// rtcOffer answers a client's SDP offer, creating its PeerConnection on first use (or anew when the offer comes
// from another connection of the client).
func (s *Service) rtcOffer(_ context.Context, cl *client, req rtcOfferReq) (any, error) {
	if req.SDP == "" {
		return nil, httpx.BadParam("sdp", "required")
	}
	p, err := s.peerFor(cl)
	if err != nil {
		return nil, err
	}
	if p.OtherConnection(req.SDP) {
		// The client's new RTCPeerConnection, offered without an rtc.close first (a console reconnecting its
		// voice does not wait a round trip for it): it replaces the old one at once.
		s.closePeer(cl)
		if p, err = s.peerFor(cl); err != nil {
			return nil, err
		}
	}
	answer, err := p.HandleOffer(req.SDP)
	if err != nil {
		return nil, httpx.BadParam("sdp", err.Error())
	}
	return map[string]string{"type": "answer", "sdp": answer}, nil
}

// rtcCandidate adds a client's trickled ICE candidate.
func (s *Service) rtcCandidate(_ context.Context, cl *client, c webrtc.ICECandidateInit) (any, error) {
	p, err := s.peerFor(cl)
	if err != nil {
		return nil, err
	}
	if err := p.AddCandidate(c); err != nil {
		return nil, httpx.BadParam("candidate", err.Error())
	}
	return struct{}{}, nil
}

// closePeer ends a client's PeerConnection (it may offer again later).
func (s *Service) closePeer(cl *client) {
	cl.peerMu.Lock()
	defer cl.peerMu.Unlock()
	var p *media.Peer
	_ = s.locked(func(later *afterUnlock) error {
		p, cl.peer = cl.peer, nil
		for _, c := range s.customerCalls(cl.acct.Customer) {
			if was, next := c.floor.Drop(cl); was {
				s.endBurstLocked(later, c, "released", false)
				s.afterReleaseLocked(later, c, next)
			}
		}
		for _, a := range s.ambient {
			if a.target == cl {
				s.stopAmbientLocked(later, a)
			}
		}
		s.recomputeLocked(cl.acct.Customer)
		return nil
	})
	if p != nil {
		p.Close()
	}
}

// UpstreamPackets counts the packets the server received and handled from an account's connections (its
// microphone), forwarded or not; for diagnostics and tests.
func (s *Service) UpstreamPackets(msID string) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	var n uint64
	for cl := range s.byAcct[msID] {
		if cl.peer != nil {
			n += cl.peer.UpstreamPackets()
		}
	}
	return n
}
