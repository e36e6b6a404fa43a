package call

import (
	"context"

	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/realtime"
)

// callRef is the payload of the requests that name one call.
type callRef struct {
	CallID flex.String `json:"callId"`
}

// Verbs lists the voice requests (docs/voice.md): WebRTC signalling, the floor, calls, monitoring and playback.
func (s *Service) Verbs() []realtime.Verb {
	return []realtime.Verb{
		verb(s, "rtc.config", realtime.Anyone, func(ctx context.Context, cl *client, _ any) (any, error) {
			return map[string]any{"iceServers": s.media.ICEServers(cl.acct.ID)}, nil
		}),
		verb(s, "rtc.offer", realtime.Anyone, s.rtcOffer),
		verb(s, "rtc.candidate", realtime.Anyone, s.rtcCandidate),
		verb(s, "rtc.local", realtime.TerminalOnly, s.rtcLocal), // an in-process party's media (local.go): a SIP account's session
		verb(s, "rtc.close", realtime.Anyone, func(ctx context.Context, cl *client, _ any) (any, error) {
			s.closePeer(cl)
			return struct{}{}, nil
		}),
		verb(s, "floor.request", realtime.Anyone, func(ctx context.Context, cl *client, req FloorRequest) (any, error) {
			if l := s.legFor(cl, string(req.CallID), req.GID == ""); l != nil { // a call of another node (leg.go)
				return s.forward(ctx, l, LegOp{Acct: cl.acct.ID, Op: "floor.request", Queue: req.Queue})
			}
			return s.RequestFloor(ctx, cl, req)
		}),
		verb(s, "floor.release", realtime.Anyone, func(ctx context.Context, cl *client, req callRef) (any, error) {
			if l := s.legFor(cl, string(req.CallID), true); l != nil {
				return s.forward(ctx, l, LegOp{Acct: cl.acct.ID, Op: "floor.release"})
			}
			return struct{}{}, s.ReleaseFloor(cl, string(req.CallID), realtime.Arrival(ctx))
		}),
		verb(s, "call.invite", realtime.Anyone, func(ctx context.Context, cl *client, req Invite) (any, error) {
			return s.Invite(ctx, cl, req)
		}),
		verb(s, "call.status", realtime.Anyone, func(ctx context.Context, cl *client, req StatusReq) (any, error) {
			if l := s.legFor(cl, req.CallID, false); l != nil && req.CallID != "" {
				return s.forward(ctx, l, LegOp{Acct: cl.acct.ID, Op: "call.status", Status: req.Status})
			}
			return struct{}{}, s.Respond(cl, req)
		}),
		callVerb(s, "call.ack", s.Ack),
		callVerb(s, "call.cancel", s.Cancel),
		callVerb(s, "call.bye", s.Bye),
		callVerb(s, "call.byeMyself", s.ByeMyself), // the spec's bye_myself (socket types have no underscore)
		verb(s, "call.list", realtime.Anyone, func(ctx context.Context, cl *client, _ any) (any, error) {
			return map[string]any{"calls": s.Calls(cl.acct.Customer, cl.acct.ID, cl.console)}, nil
		}),
		verb(s, "monitor.start", realtime.ConsoleOnly, func(ctx context.Context, cl *client, req MonitorReq) (any, error) {
			return s.StartMonitor(ctx, cl, req)
		}),
		verb(s, "monitor.stop", realtime.Anyone, func(ctx context.Context, cl *client, req MonitorReq) (any, error) {
			return s.StopMonitor(cl, req)
		}),
		verb(s, "monitor.list", realtime.Anyone, func(ctx context.Context, cl *client, _ any) (any, error) {
			s.mu.Lock()
			defer s.mu.Unlock()
			return s.monitorStateLocked(cl.acct.ID), nil
		}),
		verb(s, "voice.focus", realtime.Anyone, func(ctx context.Context, cl *client, req callRef) (any, error) {
			return struct{}{}, s.Focus(cl, string(req.CallID))
		}),
		verb(s, "voice.priority", realtime.Anyone, func(ctx context.Context, cl *client, req struct {
			Mode string `json:"mode"`
		}) (any, error) {
			return struct{}{}, s.SetPlayback(cl, req.Mode)
		}),
		// what the server sends (docs/voice.md)
		realtime.Event("rtc.state", realtime.Anyone),
		realtime.Event("floor.state", realtime.Anyone), // consoles and the call's parties
		realtime.Event("floor.granted", realtime.Anyone),
		realtime.Event("floor.revoked", realtime.Anyone),
		realtime.Event("floor.stats", realtime.Anyone),
		realtime.Event("call.invite", realtime.Anyone),
		realtime.Event("call.state", realtime.Anyone),
		realtime.Event("call.missed", realtime.Anyone),
		realtime.Event("voice.playing", realtime.Anyone),
		realtime.Event("voice.recorded", realtime.ConsoleOnly),
		realtime.Event(EventRights, realtime.ConsoleOnly), // rights.go
		realtime.Ask("monitor.start", realtime.TerminalOnly),
		realtime.Event("monitor.stop", realtime.TerminalOnly),
		realtime.Event("monitor.ended", realtime.ConsoleOnly),
	}
}

// verb is realtime.On for a voice request: the connection's voice client (its account, its PeerConnection) is
// resolved before fn runs. Verbs that read no payload take it as any, so whatever a client sends is ignored.
func verb[Req any](s *Service, typ string, role realtime.Role, fn func(ctx context.Context, cl *client, req Req) (any, error)) realtime.Verb {
	return realtime.On(typ, role, func(ctx context.Context, c *realtime.Conn, req Req) (any, error) {
		cl, err := s.ensureClient(ctx, c)
		if err != nil {
			return nil, err
		}
		return fn(ctx, cl, req)
	})
}

// callVerb is a request about one call of the caller (callId required).
func callVerb(s *Service, typ string, fn func(*client, string) error) realtime.Verb {
	return verb(s, typ, realtime.Anyone, func(ctx context.Context, cl *client, req callRef) (any, error) {
		if req.CallID == "" {
			return nil, httpx.BadParam("callId", "required")
		}
		if l := s.legFor(cl, string(req.CallID), false); l != nil { // a call of another node (leg.go)
			return s.forward(ctx, l, LegOp{Acct: cl.acct.ID, Op: typ})
		}
		return struct{}{}, fn(cl, string(req.CallID))
	})
}
