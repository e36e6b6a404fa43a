package video

// A video call's state machine: invite (100) → ringing (180) → answered (200, the codec fixed) → ack (102,
// media connecting) → connected (202) → ended (a status), with cancel, decline, busy, bye and bye_myself.

import (
	"context"
	"errors"
	"time"

	"tenfour/internal/media"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/realtime"
)

// InviteReq is `video.invite`: a console calls a terminal (msId); a terminal calls a dispatcher (msId) or,
// without msId, the dispatch desk (every online dispatcher of its customer rings, the first to answer takes it).
type InviteReq struct {
	MsID flex.String `json:"msId"`
	StreamAsk
}

// StreamAsk is what an invite or a monitoring asks of the video stream: a resolution (default
// DefaultResolution) and the codecs the asker decodes (default: every one the server forwards).
type StreamAsk struct {
	Resolution string   `json:"resolution"`
	Codecs     []string `json:"codecs"`
}

// InviteReply answers an invite.
type InviteReply struct {
	CallID     string `json:"callId"`
	Status     int    `json:"status"`
	Resolution string `json:"resolution"`
}

// parseCodecs checks a codecs list (default: every codec the server forwards, in its order).
func parseCodecs(list []string) ([]media.VideoCodec, error) {
	if len(list) == 0 {
		return media.VideoCodecs, nil
	}
	var out []media.VideoCodec
	for _, c := range list {
		switch media.VideoCodec(c) {
		case media.VP8, media.H264:
			out = append(out, media.VideoCodec(c))
		}
	}
	if len(out) == 0 {
		return nil, ErrCodec
	}
	return out, nil
}

// check reads the ask: a known resolution, and codecs of which the server forwards at least one.
func (a StreamAsk) check() (Resolution, []media.VideoCodec, error) {
	res, ok := resolution(a.Resolution)
	if !ok {
		return Resolution{}, nil, errResolution
	}
	list, err := parseCodecs(a.Codecs)
	return res, list, err
}

// account reads the caller's account.
func (s *Service) account(ctx context.Context, c *realtime.Conn) (Account, error) {
	pr := c.Principal()
	return s.store.Account(ctx, pr.CustomerID, pr.AccountID)
}

// Invite starts a video call.
func (s *Service) Invite(ctx context.Context, c *realtime.Conn, req InviteReq) (InviteReply, error) {
	res, codecs, err := req.check()
	if err != nil {
		return InviteReply{}, err
	}
	caller, err := s.account(ctx, c)
	if err != nil {
		return InviteReply{}, err
	}
	if !caller.Dispatcher() && (!CallCapable(caller.Type) || caller.Blocked()) {
		if caller.Blocked() {
			return InviteReply{}, ErrBlocked
		}
		return InviteReply{}, ErrNotSupport
	}
	var target *Account
	if req.MsID != "" {
		if string(req.MsID) == caller.ID {
			return InviteReply{}, ErrSelf
		}
		t, err := s.store.Account(ctx, caller.Customer, string(req.MsID))
		if errors.Is(err, db.ErrNotFound) {
			return InviteReply{}, ErrNotFound
		}
		if err != nil {
			return InviteReply{}, err
		}
		switch {
		case caller.Dispatcher() && t.Dispatcher(), !caller.Dispatcher() && !t.Dispatcher():
			return InviteReply{}, ErrNotSupport // a video call is between a console and a terminal
		case !t.Dispatcher() && !CallCapable(t.Type):
			return InviteReply{}, ErrNotSupport
		case t.Blocked() && !t.Dispatcher():
			return InviteReply{}, ErrBlocked
		}
		target = &t
	} else if caller.Dispatcher() {
		return InviteReply{}, httpx.BadParam("msId", "required")
	}
	lim, err := s.store.Limits(ctx, caller.Customer)
	if err != nil {
		return InviteReply{}, err
	}
	if lim.CreditMs == 0 {
		return InviteReply{}, ErrNoCredit
	}
	var rung []Account
	if target == nil { // the dispatch desk: every online dispatcher
		for _, id := range s.hub.Accounts(caller.Customer) {
			if cn := s.hub.Conn(id); cn != nil && cn.Kind() == realtime.Console {
				if a, err := s.store.Account(ctx, caller.Customer, id); err == nil && a.Dispatcher() {
					rung = append(rung, a)
				}
			}
		}
	} else {
		rung = []Account{*target}
	}
	var reply InviteReply
	err = s.locked(func(later *afterUnlock) error {
		if s.countLocked(caller.Customer, KindCall) >= lim.MaxCalls {
			return ErrMaxCalls
		}
		if target != nil {
			if ss := s.callOfLocked(caller.ID); ss != nil && ss.involves(target.ID) {
				return ErrRepeat
			}
		}
		if s.callOfLocked(caller.ID) != nil {
			return ErrSelfBusy
		}
		online := rung[:0:0]
		for _, a := range rung {
			if s.hub.Online(a.ID) {
				online = append(online, a)
			}
		}
		if len(online) == 0 {
			return ErrOffline
		}
		free := online[:0:0]
		for _, a := range online {
			if s.callOfLocked(a.ID) == nil {
				free = append(free, a)
			}
		}
		if len(free) == 0 {
			return ErrBusy
		}
		ss := &session{id: newID("v"), customer: caller.Customer, kind: KindCall, state: StateTrying, status: StTrying,
			caller: &party{Account: caller, conn: c, codecs: codecs}, res: res, started: s.opts.Now(),
			declined: map[string]int{}, record: lim.Record}
		if target != nil {
			ss.callee = &party{Account: *target}
		} else {
			ss.rung, ss.wasRung = free, map[string]bool{}
			for _, a := range free {
				ss.wasRung[a.ID] = true
			}
		}
		s.sessions[ss.id] = ss
		s.watchLocked(c)
		ss.timer = time.AfterFunc(s.opts.RingTimeout, func() { s.ringTimeout(ss) })
		inv := map[string]any{"callId": ss.id, "from": caller.person(), "status": StTrying, "resolution": res.Name,
			"codecs": codecs}
		for _, a := range free {
			s.hub.SendTo(a.ID, "video.invite", inv)
		}
		s.publishLocked(ss)
		reply = InviteReply{CallID: ss.id, Status: StTrying, Resolution: res.Name}
		return nil
	})
	return reply, err
}

// callOfLocked is the open video call an account is in (as a party or rung), or nil.
func (s *Service) callOfLocked(acct string) *session {
	for _, ss := range s.sessions {
		if ss.kind == KindCall && ss.involves(acct) {
			return ss
		}
	}
	return nil
}

// callLocked finds an open call by id for a connection of its customer (503 when there is none).
func (s *Service) callLocked(c *realtime.Conn, id string) (*session, error) {
	ss := s.sessions[id]
	if ss == nil || ss.customer != c.Principal().CustomerID {
		return nil, ErrNoSession
	}
	return ss, nil
}

// oneToOneLocked is callLocked for a call (a monitor session is none: 503).
func (s *Service) oneToOneLocked(c *realtime.Conn, id string) (*session, error) {
	ss, err := s.callLocked(c, id)
	if err != nil || ss.kind != KindCall {
		return nil, ErrNoSession
	}
	return ss, nil
}

// callersLocked is oneToOneLocked for what only the caller may do (the callee: 403).
func (s *Service) callersLocked(c *realtime.Conn, id string) (*session, error) {
	ss, err := s.oneToOneLocked(c, id)
	if err == nil && ss.caller.conn != c {
		return nil, ErrPermission
	}
	return ss, err
}

// StatusReq is `video.status`: the callee's answer — 180 ringing, 200 answer (with its codecs), 486 busy,
// 603 decline, 201 camera busy.
type StatusReq struct {
	CallID flex.String `json:"callId"`
	Status int         `json:"status"`
	Codecs []string    `json:"codecs"`
}

// Respond applies the callee's answer; a 200 fixes the call's codec (the caller's first one the callee has),
// returned as {codec}.
func (s *Service) Respond(c *realtime.Conn, req StatusReq) (map[string]any, error) {
	codecs, err := parseCodecs(req.Codecs)
	if err != nil && req.Status == StOK {
		return nil, err
	}
	acct := c.Principal().AccountID
	out := map[string]any{}
	err = s.locked(func(later *afterUnlock) error {
		ss, err := s.oneToOneLocked(c, string(req.CallID))
		if err != nil {
			return err
		}
		rungHere := false
		for _, a := range ss.rung {
			rungHere = rungHere || a.ID == acct
		}
		if !(ss.callee != nil && ss.callee.ID == acct) && !rungHere {
			if ss.wasRung[acct] {
				return ErrState // another dispatcher answered first
			}
			return ErrPermission
		}
		if ss.state != StateTrying && ss.state != StateRinging {
			if ss.state == StateAnswered && req.Status == StOK && ss.callee.conn == c {
				out["codec"] = ss.codec
				return nil // the same answer again
			}
			return ErrState
		}
		switch req.Status {
		case StRinging:
			ss.state, ss.status = StateRinging, StRinging
		case StOK:
			codec, ok := media.PickVideoCodec(ss.caller.codecs, codecs)
			if !ok {
				s.endLocked(later, ss, StNotAcceptable, acct)
				return ErrCodec
			}
			if ss.callee == nil || ss.callee.ID != acct {
				for _, a := range ss.rung {
					if a.ID == acct {
						ss.callee = &party{Account: a}
					}
				}
				for _, a := range ss.rung {
					if a.ID != acct {
						s.hub.SendTo(a.ID, "video.answered", map[string]any{"callId": ss.id, "by": acct})
					}
				}
				ss.rung = nil
			}
			ss.callee.conn, ss.callee.codecs = c, codecs
			s.watchLocked(c)
			ss.codec, ss.state, ss.status, ss.by = codec, StateAnswered, StOK, acct
			out["codec"] = codec
		case StBusy, StDecline, StCameraBusy:
			if len(ss.rung) > 1 {
				ss.declined[acct] = req.Status
				if len(ss.declined) < len(ss.rung) {
					return nil // the others still ring
				}
			}
			s.endLocked(later, ss, req.Status, acct)
			return nil
		default:
			return httpx.BadParam("status", "180, 200, 486, 603 or 201")
		}
		s.publishLocked(ss)
		return nil
	})
	return out, err
}

// Ack is the caller's acknowledgement of the answer: the media connects (102), then the call is connected (202).
func (s *Service) Ack(c *realtime.Conn, id string) error {
	return s.locked(func(later *afterUnlock) error {
		ss, err := s.callersLocked(c, id)
		if err != nil {
			return err
		}
		switch ss.state {
		case StateMedia, StateConnected:
			return nil
		case StateAnswered:
		default:
			return ErrState
		}
		ss.timer.Stop()
		ss.state, ss.status, ss.by = StateMedia, StSelfTrying, ss.caller.ID
		ss.timer = time.AfterFunc(s.opts.MediaTimeout, func() { s.mediaTimeout(ss) })
		s.publishLocked(ss)
		s.maybeConnectedLocked(later, ss)
		return nil
	})
}

// Cancel is the caller's cancel before the call connected (487).
func (s *Service) Cancel(c *realtime.Conn, id string) error {
	return s.locked(func(later *afterUnlock) error {
		ss, err := s.callersLocked(c, id)
		if err != nil {
			return err
		}
		if ss.state == StateConnected || ss.state == StateMedia {
			return ErrState
		}
		s.endLocked(later, ss, StCancel, ss.caller.ID)
		return nil
	})
}

// Bye ends a connected (or connecting) call: either party (200).
func (s *Service) Bye(c *realtime.Conn, id string) error {
	return s.locked(func(later *afterUnlock) error {
		ss, err := s.oneToOneLocked(c, id)
		if err != nil {
			return err
		}
		p := ss.partyOf(c)
		if p == nil {
			return ErrPermission
		}
		if ss.state != StateConnected && ss.state != StateMedia {
			return ErrState // before: cancel (caller) or a status (callee)
		}
		s.endLocked(later, ss, StOK, p.ID)
		return nil
	})
}

// ByeMyself (spec bye_myself) hangs up one's own side whatever the state: a call ends (the caller before the
// answer cancels, 487; the callee before answering declines, 603; otherwise 200); a monitoring viewer stops
// watching (the others go on).
func (s *Service) ByeMyself(c *realtime.Conn, id string) error {
	return s.locked(func(later *afterUnlock) error {
		ss, err := s.callLocked(c, id)
		if err != nil {
			return err
		}
		acct := c.Principal().AccountID
		p := ss.partyOf(c)
		if ss.kind == KindMonitor {
			if p == nil || p == ss.callee {
				return ErrPermission
			}
			s.removeViewerLocked(later, ss, p, StOK)
			return nil
		}
		if p == nil && !ss.involves(acct) {
			return ErrPermission
		}
		status := StOK
		switch {
		case ss.state == StateConnected || ss.state == StateMedia:
		case p == ss.caller:
			status = StCancel
		default:
			status = StDecline
			if len(ss.rung) > 1 {
				ss.declined[acct] = StDecline
				if len(ss.declined) < len(ss.rung) {
					return nil
				}
			}
		}
		s.endLocked(later, ss, status, acct)
		return nil
	})
}

// ResolutionReq is `video.resolution`: ask the other side's camera for a resolution (spec §9 names).
type ResolutionReq struct {
	CallID     flex.String `json:"callId"`
	Resolution string      `json:"resolution"`
}

// SetResolution passes a resolution request to the session's terminal (a monitoring's, or a call's other
// party), as the event video.resolution {callId, resolution, width, height, by}.
func (s *Service) SetResolution(c *realtime.Conn, req ResolutionReq) (map[string]any, error) {
	res, ok := resolution(req.Resolution)
	if !ok || req.Resolution == "" { // no default here: the request is to change it
		return nil, errResolution
	}
	var out map[string]any
	err := s.locked(func(later *afterUnlock) error {
		ss, err := s.callLocked(c, string(req.CallID))
		if err != nil {
			return err
		}
		p := ss.partyOf(c)
		if p == nil || (ss.kind == KindMonitor && p == ss.callee) {
			return ErrPermission
		}
		to := ss.callee
		if ss.kind == KindCall && p == ss.callee {
			to = ss.caller
		}
		ss.res = res
		ev := map[string]any{"callId": ss.id, "resolution": res.Name, "width": res.Width, "height": res.Height, "by": p.ID}
		if to != nil && to.conn != nil {
			_ = to.conn.Send("video.resolution", ev)
		}
		s.publishLocked(ss)
		out = map[string]any{"resolution": res.Name}
		return nil
	})
	return out, err
}

// ringTimeout ends a call not answered and acknowledged in time (408).
func (s *Service) ringTimeout(ss *session) {
	_ = s.locked(func(later *afterUnlock) error {
		if !ss.ended && ss.state != StateMedia && ss.state != StateConnected {
			s.endLocked(later, ss, StTimeout, "")
		}
		return nil
	})
}

// mediaTimeout ends a call whose media did not connect in time (502).
func (s *Service) mediaTimeout(ss *session) {
	_ = s.locked(func(later *afterUnlock) error {
		if !ss.ended && ss.state == StateMedia {
			s.endLocked(later, ss, StNoStream, "")
		}
		return nil
	})
}

// maybeConnectedLocked connects an acknowledged call once both parties' media is up: 202, and the timer of its
// maximum duration (418) or of the customer's credit left (402), whichever comes first.
func (s *Service) maybeConnectedLocked(later *afterUnlock, ss *session) {
	if ss.state != StateMedia || ss.caller.peer == nil || ss.callee == nil || ss.callee.peer == nil ||
		!ss.caller.peer.Ready() || !ss.callee.peer.Ready() {
		return
	}
	ss.timer.Stop()
	ss.state, ss.status, ss.connected = StateConnected, StConnected, s.opts.Now()
	ss.limit, ss.limitStatus = time.Hour, StMaxDuration
	later.Then(func() { s.armLimit(ss) })
	s.startRecordingLocked(ss)
	s.publishLocked(ss)
}

// armLimit reads the customer's limits (after unlocking) and sets the connected call's end timer.
func (s *Service) armLimit(ss *session) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	lim, err := s.store.Limits(ctx, ss.customer)
	cancel()
	if err != nil {
		lim = DefaultLimits
	}
	_ = s.locked(func(later *afterUnlock) error {
		if ss.ended {
			return nil
		}
		limit, status := time.Duration(lim.MaxDuration)*time.Second, StMaxDuration
		if lim.CreditMs >= 0 {
			// the credit is shared by the customer's connected calls: what the others spend meanwhile counts
			left := time.Duration(lim.CreditMs) * time.Millisecond
			now := s.opts.Now()
			for _, o := range s.sessions {
				if o != ss && o.customer == ss.customer && o.kind == KindCall && !o.connected.IsZero() {
					left -= now.Sub(o.connected)
				}
			}
			if left < limit {
				limit, status = max(left, 0), StNoCredit
			}
		}
		ss.limit, ss.limitStatus = limit, status
		if ss.timer != nil {
			ss.timer.Stop()
		}
		ss.timer = time.AfterFunc(limit-s.opts.Now().Sub(ss.connected), func() { s.limitReached(ss) })
		s.publishLocked(ss)
		return nil
	})
}

func (s *Service) limitReached(ss *session) {
	_ = s.locked(func(later *afterUnlock) error {
		if !ss.ended && ss.state == StateConnected {
			s.endLocked(later, ss, ss.limitStatus, "")
		}
		return nil
	})
}
