package call

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/pion/webrtc/v4"

	"tenfour/internal/media"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/realtime"
)

// RegisterSocket adds the voice requests to the hub (docs/voice.md lists them).
func (s *Service) RegisterSocket(h *realtime.Hub) {
	h.Watch(s.watchDirectory) // cached accounts age with every directory event
	h.Handle("rtc.config", s.with(func(ctx context.Context, cl *client, _ json.RawMessage) (any, error) {
		return map[string]any{"iceServers": s.media.ICEServers(cl.acct.ID)}, nil
	}))
	h.Handle("rtc.offer", s.with(s.rtcOffer))
	h.Handle("rtc.candidate", s.with(s.rtcCandidate))
	h.Handle("rtc.close", s.with(func(ctx context.Context, cl *client, _ json.RawMessage) (any, error) {
		s.closePeer(cl)
		return struct{}{}, nil
	}))
	h.Handle("floor.request", s.with(func(ctx context.Context, cl *client, raw json.RawMessage) (any, error) {
		var req FloorRequest
		if err := decode(raw, &req); err != nil {
			return nil, err
		}
		return s.RequestFloor(ctx, cl, req)
	}))
	h.Handle("floor.release", s.with(func(ctx context.Context, cl *client, raw json.RawMessage) (any, error) {
		var req struct {
			CallID string `json:"callId"`
		}
		if err := decode(raw, &req); err != nil {
			return nil, err
		}
		return struct{}{}, s.ReleaseFloor(cl, req.CallID)
	}))
	h.Handle("call.invite", s.with(func(ctx context.Context, cl *client, raw json.RawMessage) (any, error) {
		var req Invite
		if err := decode(raw, &req); err != nil {
			return nil, err
		}
		return s.Invite(ctx, cl, req)
	}))
	h.Handle("call.status", s.with(func(ctx context.Context, cl *client, raw json.RawMessage) (any, error) {
		var req StatusReq
		if err := decode(raw, &req); err != nil {
			return nil, err
		}
		return struct{}{}, s.Respond(cl, req)
	}))
	verb := func(fn func(*client, string) error) realtime.Handler {
		return s.with(func(ctx context.Context, cl *client, raw json.RawMessage) (any, error) {
			var req struct {
				CallID string `json:"callId"`
			}
			if err := decode(raw, &req); err != nil {
				return nil, err
			}
			if req.CallID == "" {
				return nil, httpx.BadParam("callId", "required")
			}
			return struct{}{}, fn(cl, req.CallID)
		})
	}
	h.Handle("call.ack", verb(s.Ack))
	h.Handle("call.cancel", verb(s.Cancel))
	h.Handle("call.bye", verb(s.Bye))
	h.Handle("call.byeMyself", verb(s.ByeMyself)) // the spec's bye_myself (socket types have no underscore)
	h.Handle("call.list", s.with(func(ctx context.Context, cl *client, _ json.RawMessage) (any, error) {
		return map[string]any{"calls": s.Calls(cl.acct.Customer, cl.acct.ID, cl.console)}, nil
	}))
	h.Handle("monitor.start", s.with(func(ctx context.Context, cl *client, raw json.RawMessage) (any, error) {
		var req MonitorReq
		if err := decode(raw, &req); err != nil {
			return nil, err
		}
		return s.StartMonitor(ctx, cl, req)
	}))
	h.Handle("monitor.stop", s.with(func(ctx context.Context, cl *client, raw json.RawMessage) (any, error) {
		var req MonitorReq
		if err := decode(raw, &req); err != nil {
			return nil, err
		}
		return s.StopMonitor(cl, req)
	}))
	h.Handle("monitor.list", s.with(func(ctx context.Context, cl *client, _ json.RawMessage) (any, error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.monitorStateLocked(cl.acct.ID), nil
	}))
	h.Handle("voice.focus", s.with(func(ctx context.Context, cl *client, raw json.RawMessage) (any, error) {
		var req struct {
			CallID string `json:"callId"`
		}
		if err := decode(raw, &req); err != nil {
			return nil, err
		}
		return struct{}{}, s.Focus(cl, req.CallID)
	}))
	h.Handle("voice.priority", s.with(func(ctx context.Context, cl *client, raw json.RawMessage) (any, error) {
		var req struct {
			Mode string `json:"mode"`
		}
		if err := decode(raw, &req); err != nil {
			return nil, err
		}
		return struct{}{}, s.SetPlayback(cl, req.Mode)
	}))
}

// with resolves the connection's voice client before running a handler.
func (s *Service) with(fn func(ctx context.Context, cl *client, raw json.RawMessage) (any, error)) realtime.Handler {
	return func(ctx context.Context, c *realtime.Conn, raw json.RawMessage) (any, error) {
		cl, err := s.ensureClient(ctx, c)
		if err != nil {
			return nil, err
		}
		return fn(ctx, cl, raw)
	}
}

func decode(raw json.RawMessage, v any) error {
	if len(raw) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return httpx.BadParam(te.Field, "wrong type")
		}
		return httpx.BadParam("data", "malformed")
	}
	return nil
}

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
	p, err := s.media.NewPeer(media.Owner{Account: cl.acct.ID, Customer: cl.acct.Customer, Console: cl.console},
		func(p *media.Peer, _ bool) { go s.peerChanged(cl, p) })
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if cl.gone {
		s.mu.Unlock()
		p.Close()
		return nil, realtime.ErrNotOnline
	}
	cl.peer = p
	s.mu.Unlock()
	return p, nil
}

// peerChanged reacts to a PeerConnection becoming ready or not: tell the client, re-route.
func (s *Service) peerChanged(cl *client, p *media.Peer) {
	_ = s.locked(func(f *fx) error {
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

func (s *Service) rtcOffer(ctx context.Context, cl *client, raw json.RawMessage) (any, error) {
	var req struct {
		SDP string `json:"sdp"`
	}
	if err := decode(raw, &req); err != nil {
		return nil, err
	}
	if req.SDP == "" {
		return nil, httpx.BadParam("sdp", "required")
	}
	p, err := s.peerFor(cl)
	if err != nil {
		return nil, err
	}
	answer, err := p.HandleOffer(req.SDP)
	if err != nil {
		return nil, httpx.BadParam("sdp", err.Error())
	}
	return map[string]string{"type": "answer", "sdp": answer}, nil
}

func (s *Service) rtcCandidate(ctx context.Context, cl *client, raw json.RawMessage) (any, error) {
	var c webrtc.ICECandidateInit
	if err := decode(raw, &c); err != nil {
		return nil, err
	}
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
	_ = s.locked(func(f *fx) error {
		p, cl.peer = cl.peer, nil
		for _, c := range s.customerCalls(cl.acct.Customer) {
			if was, next := c.floor.Drop(cl); was {
				s.endBurstLocked(f, c, "released", false)
				s.afterReleaseLocked(f, c, next)
			}
		}
		for _, a := range s.ambient {
			if a.target == cl {
				s.stopAmbientLocked(f, a)
			}
		}
		s.recomputeLocked(cl.acct.Customer)
		return nil
	})
	if p != nil {
		p.Close()
	}
}
