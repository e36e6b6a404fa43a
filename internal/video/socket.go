package video

import (
	"context"

	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/realtime"
)

type callRef struct {
	CallID flex.String `json:"callId"`
}

// Verbs lists the video requests and events (docs/video.md). Spec §4's verbs are video.invite, video.ack,
// video.bye, video.cancel, video.resolution and video.byeMyself (bye_myself: socket types have no underscore).
func (s *Service) Verbs() []realtime.Verb {
	return []realtime.Verb{
		realtime.On("video.invite", realtime.Anyone, func(ctx context.Context, c *realtime.Conn, req InviteReq) (any, error) {
			return s.Invite(ctx, c, req)
		}),
		realtime.On("video.status", realtime.Anyone, func(ctx context.Context, c *realtime.Conn, req StatusReq) (any, error) {
			return s.Respond(c, req)
		}),
		s.callVerb("video.ack", s.Ack),
		s.callVerb("video.cancel", s.Cancel),
		s.callVerb("video.bye", s.Bye),
		s.callVerb("video.byeMyself", s.ByeMyself),
		realtime.On("video.resolution", realtime.Anyone, func(ctx context.Context, c *realtime.Conn, req ResolutionReq) (any, error) {
			return s.SetResolution(c, req)
		}),
		realtime.On("video.offer", realtime.Anyone, func(ctx context.Context, c *realtime.Conn, req OfferReq) (any, error) {
			return s.Offer(c, req)
		}),
		realtime.On("video.candidate", realtime.Anyone, func(ctx context.Context, c *realtime.Conn, req CandidateReq) (any, error) {
			return struct{}{}, s.Candidate(c, req)
		}),
		realtime.On("video.list", realtime.Anyone, func(ctx context.Context, c *realtime.Conn, _ any) (any, error) {
			return map[string]any{"list": s.List(c)}, nil
		}),
		realtime.On("video.monitorStart", realtime.ConsoleOnly, func(ctx context.Context, c *realtime.Conn, req MonitorReq) (any, error) {
			return s.StartMonitor(ctx, c, req)
		}),
		realtime.On("video.monitorStop", realtime.ConsoleOnly, func(ctx context.Context, c *realtime.Conn, req MonitorReq) (any, error) {
			return s.StopMonitor(c, req)
		}),
		realtime.On("video.monitorList", realtime.ConsoleOnly, func(ctx context.Context, c *realtime.Conn, _ any) (any, error) {
			return map[string]any{"list": s.Monitors(c)}, nil
		}),
		// what the server sends
		realtime.Event("video.invite", realtime.Anyone),
		realtime.Event("video.answered", realtime.ConsoleOnly), // a desk call another dispatcher took
		realtime.Event("video.state", realtime.Anyone),
		realtime.Event("video.rtc", realtime.Anyone),
		realtime.Event("video.resolution", realtime.Anyone),
		realtime.Event("video.record", realtime.ConsoleOnly), // a recording of a call or monitoring finished (record.go)
		realtime.Ask("video.monitorStart", realtime.TerminalOnly),
		realtime.Event("video.monitorStop", realtime.TerminalOnly),
	}
}

// callVerb is a request naming one session (callId required).
func (s *Service) callVerb(typ string, fn func(*realtime.Conn, string) error) realtime.Verb {
	return realtime.On(typ, realtime.Anyone, func(ctx context.Context, c *realtime.Conn, req callRef) (any, error) {
		if req.CallID == "" {
			return nil, httpx.BadParam("callId", "required")
		}
		return struct{}{}, fn(c, string(req.CallID))
	})
}
