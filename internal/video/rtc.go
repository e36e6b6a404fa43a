package video

// The sessions' PeerConnections: each side offers its own (video.offer) once the codec is fixed, trickles its
// candidates (video.candidate), and is told video.rtc {callId, state} when the server can carry its media.

import (
	"errors"
	"log/slog"
	"time"

	"github.com/pion/webrtc/v4"

	"tenfour/internal/media"
	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/realtime"
)

// OfferReq is `video.offer`.
type OfferReq struct {
	CallID flex.String `json:"callId"`
	SDP    string      `json:"sdp"`
}

// CandidateReq is `video.candidate`: an RTCIceCandidateInit with the session's callId.
type CandidateReq struct {
	CallID flex.String `json:"callId"`
	webrtc.ICECandidateInit
}

// sideLocked is the side of a session a connection may offer for (503 unknown session, 107 not a side, 409
// before the codec is fixed).
func (s *Service) sideLocked(c *realtime.Conn, id string) (*session, *party, error) {
	ss, err := s.callLocked(c, id)
	if err != nil {
		return nil, nil, err
	}
	p := ss.partyOf(c)
	if p == nil {
		return nil, nil, ErrPermission
	}
	if ss.codec == "" {
		return nil, nil, ErrState
	}
	return ss, p, nil
}

// Offer answers a side's SDP offer with a PeerConnection in the session's codec (a later offer replaces the
// side's connection: a reconnect).
func (s *Service) Offer(c *realtime.Conn, req OfferReq) (map[string]string, error) {
	if req.SDP == "" {
		return nil, httpx.BadParam("sdp", "required")
	}
	s.mu.Lock()
	if ss := s.sessions[string(req.CallID)]; ss != nil && ss.fixed != nil && ss.partyOf(c) == ss.callee {
		// the monitored terminal offers right after agreeing: its answer may not be handled yet
		fixed := ss.fixed
		s.mu.Unlock()
		select {
		case <-fixed:
		case <-time.After(s.hub.AckTimeout()):
		}
		s.mu.Lock()
	}
	ss, p, err := s.sideLocked(c, string(req.CallID))
	var codec media.VideoCodec
	var early []webrtc.ICECandidateInit
	if err == nil {
		codec, early = ss.codec, p.early
		p.early = nil
	}
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	offered, err := media.OfferedVideoCodecs(req.SDP)
	if err != nil {
		return nil, httpx.BadParam("sdp", err.Error())
	}
	if _, ok := media.PickVideoCodec(offered, []media.VideoCodec{codec}); !ok {
		return nil, ErrCodec
	}
	pr := c.Principal()
	peer, answer, err := s.media.NewVideoPeer(media.Owner{Account: pr.AccountID, Customer: pr.CustomerID,
		Console: c.Kind() == realtime.Console}, codec, req.SDP, early, ss.kind == KindMonitor && p != ss.callee,
		func(vp *media.VideoPeer, ready bool) {
			go s.peerChanged(ss, p, vp)
		})
	if errors.Is(err, media.ErrNoVideo) || errors.Is(err, media.ErrBadOffer) {
		return nil, httpx.BadParam("sdp", err.Error())
	}
	if err != nil { // the media server's own failure (500 serverErr)
		slog.Error("video: peer", "call", ss.id, "err", err)
		return nil, ErrServer
	}
	var old *media.VideoPeer
	err = s.locked(func(later *afterUnlock) error {
		if ss.ended || ss.partyOf(c) != p {
			return ErrNoSession
		}
		old, p.peer = p.peer, peer
		s.linkLocked(ss, p)
		if ss.recording != nil && ss.recording.term == p { // a reconnect: the recording goes on from the new feeds
			ss.recording.rec.Follow(peer.Video, peer.Audio)
		}
		if ss.kind == KindMonitor && p == ss.callee {
			peer.Video.OnFirstPacket(func() { go s.monitorFlowing(ss, peer) })
		}
		return nil
	})
	if old != nil {
		old.Close()
	}
	if err != nil {
		peer.Close()
		return nil, err
	}
	return map[string]string{"type": "answer", "sdp": answer}, nil
}

// linkLocked attaches a side's new connection to the others: a call's parties both ways, a monitoring's
// terminal to every viewer.
func (s *Service) linkLocked(ss *session, p *party) {
	if ss.kind == KindCall {
		other := ss.callee
		if p == ss.callee {
			other = ss.caller
		}
		if other != nil && other.peer != nil {
			media.Link(p.peer, other.peer)
			media.Link(other.peer, p.peer)
		}
		return
	}
	if p == ss.callee {
		for _, v := range ss.viewers {
			if v.peer != nil {
				media.Link(p.peer, v.peer)
			}
		}
		return
	}
	s.linkViewerLocked(ss, p)
}

func (s *Service) linkViewerLocked(ss *session, v *party) {
	if v.peer != nil && ss.callee.peer != nil {
		media.Link(ss.callee.peer, v.peer)
	}
}

// Candidate adds a side's trickled candidate (kept until its offer when it comes first).
func (s *Service) Candidate(c *realtime.Conn, req CandidateReq) error {
	s.mu.Lock()
	ss, p, err := s.sideLocked(c, string(req.CallID))
	var peer *media.VideoPeer
	if err == nil {
		if peer = p.peer; peer == nil && len(p.early) < 64 {
			p.early = append(p.early, req.ICECandidateInit)
		}
	}
	s.mu.Unlock()
	_ = ss
	if err != nil || peer == nil {
		return err
	}
	if err := peer.AddCandidate(req.ICECandidateInit); err != nil {
		return httpx.BadParam("candidate", err.Error())
	}
	return nil
}

// peerChanged tells the side (video.rtc) and connects the call when both sides are up; a side's connection
// that failed while the call was connected ends it (502).
func (s *Service) peerChanged(ss *session, p *party, vp *media.VideoPeer) {
	_ = s.locked(func(later *afterUnlock) error {
		if ss.ended || p.peer != vp {
			return nil
		}
		state := "disconnected"
		if vp.Ready() {
			state = "connected"
		}
		if p.conn != nil {
			_ = p.conn.Send("video.rtc", map[string]string{"callId": ss.id, "state": state})
		}
		if !vp.Ready() {
			p.peer = nil
			later.Then(vp.Close)
			if ss.kind == KindCall && (ss.state == StateConnected || ss.state == StateMedia) {
				s.endLocked(later, ss, StNoStream, p.ID)
			} else if ss.kind == KindMonitor && p == ss.callee {
				s.endLocked(later, ss, StNoStream, p.ID)
			}
			return nil
		}
		if ss.kind == KindCall {
			s.maybeConnectedLocked(later, ss)
		}
		return nil
	})
}

// monitorFlowing: the monitored terminal's first video packet arrived (202).
func (s *Service) monitorFlowing(ss *session, vp *media.VideoPeer) {
	_ = s.locked(func(later *afterUnlock) error {
		if ss.ended || ss.callee.peer != vp || ss.state == StateConnected {
			return nil
		}
		if ss.timer != nil {
			ss.timer.Stop()
		}
		ss.state, ss.status, ss.connected = StateConnected, StConnected, s.opts.Now()
		s.startRecordingLocked(ss)
		s.publishLocked(ss)
		return nil
	})
}
