package video

// Video monitoring: a dispatcher opens a terminal's camera without the terminal's user answering. One session
// per monitored terminal, however many dispatchers watch it (each a viewer, each an entry of the customer's
// maximum); the terminal sends its camera once and the server fans it out.

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"tenfour/internal/media"
	"tenfour/internal/oplog"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/realtime"
)

// MonitorReq is `video.monitorStart` / `video.monitorStop`.
type MonitorReq struct {
	MsID   flex.String `json:"msId"`
	CallID flex.String `json:"callId"`
	StreamAsk
}

// MonitorReply answers video.monitorStart.
type MonitorReply struct {
	CallID     string `json:"callId"`
	MsID       string `json:"msId"`
	Codec      string `json:"codec"`
	Status     int    `json:"status"`
	Resolution string `json:"resolution"`
}

// StartMonitor opens a terminal's camera for a dispatcher (log 130).
func (s *Service) StartMonitor(ctx context.Context, c *realtime.Conn, req MonitorReq) (MonitorReply, error) {
	if req.MsID == "" {
		return MonitorReply{}, httpx.BadParam("msId", "required")
	}
	res, codecs, err := req.check()
	if err != nil {
		return MonitorReply{}, err
	}
	viewer, err := s.account(ctx, c)
	if err != nil {
		return MonitorReply{}, err
	}
	t, err := s.store.Account(ctx, viewer.Customer, string(req.MsID))
	if errors.Is(err, db.ErrNotFound) || (err == nil && t.Dispatcher()) {
		return MonitorReply{}, ErrNotFound
	}
	if err != nil {
		return MonitorReply{}, err
	}
	if !CameraCapable(t.Type) {
		return MonitorReply{}, ErrNotSupport
	}
	if t.Blocked() {
		return MonitorReply{}, ErrBlocked
	}
	lim, err := s.store.Limits(ctx, viewer.Customer)
	if err != nil {
		return MonitorReply{}, err
	}
	var ss *session
	var reply MonitorReply
	joined := false
	err = s.locked(func(later *afterUnlock) error {
		if cur := s.monitored[t.ID]; cur != nil && cur.viewers[viewer.ID] != nil {
			return ErrAlreadyMon
		}
		if s.countLocked(viewer.Customer, KindMonitor) >= lim.MaxMonitors {
			return ErrMaxMonitors
		}
		tc := s.hub.TerminalConn(viewer.Customer, t.ID)
		if tc == nil {
			return ErrOffline
		}
		v := &party{Account: viewer, conn: c, codecs: codecs, since: s.opts.Now()}
		if cur := s.monitored[t.ID]; cur != nil {
			if cur.codec != "" {
				if _, ok := media.PickVideoCodec([]media.VideoCodec{cur.codec}, codecs); !ok {
					return ErrCodec
				}
			}
			cur.viewers[viewer.ID] = v
			s.watchLocked(c)
			s.linkViewerLocked(cur, v)
			s.logMonitorLocked(later, cur, v, true)
			s.publishLocked(cur)
			reply = MonitorReply{CallID: cur.id, MsID: t.ID, Codec: string(cur.codec), Status: cur.status, Resolution: cur.res.Name}
			joined = true
			return nil
		}
		ss = &session{id: newID("m"), customer: viewer.Customer, kind: KindMonitor, state: StateTrying, status: StTrying,
			callee: &party{Account: t, conn: tc}, viewers: map[string]*party{viewer.ID: v}, res: res,
			started: s.opts.Now(), declined: map[string]int{}, fixed: make(chan struct{}), record: lim.Record,
			opener: viewer}
		s.sessions[ss.id] = ss
		s.monitored[t.ID] = ss
		s.watchLocked(c)
		s.watchLocked(tc)
		return nil
	})
	if err != nil || joined {
		return reply, err
	}
	// Ask the terminal (silently: no sign to its user) for its camera; it answers with the codec it sends.
	actx, cancel := context.WithTimeout(ctx, s.hub.AckTimeout())
	raw, rerr := ss.callee.conn.Request(actx, "video.monitorStart", map[string]any{"callId": ss.id, "by": viewer.ID,
		"byName": viewer.Name, "resolution": res.Name, "width": res.Width, "height": res.Height, "codecs": codecs})
	cancel()
	var ans struct {
		Codec string `json:"codec"`
	}
	if rerr == nil {
		_ = json.Unmarshal(raw, &ans)
	}
	err = s.locked(func(later *afterUnlock) error {
		if ss.ended {
			return ErrOffline
		}
		var he *httpx.Error
		switch {
		case rerr == nil:
		case errors.As(rerr, &he) && he.Code == strconv.Itoa(StCameraBusy):
			s.endLocked(later, ss, StCameraBusy, t.ID)
			return ErrCameraBusy
		case errors.As(rerr, &he) && he.Code == strconv.Itoa(StBusy):
			s.endLocked(later, ss, StBusy, t.ID)
			return ErrBusy
		case errors.Is(rerr, realtime.ErrNotOnline):
			s.endLocked(later, ss, StOffline, t.ID)
			return ErrOffline
		default:
			s.endLocked(later, ss, StTimeout, t.ID)
			return httpx.E(408, "408", "errors.video.timeout", "the terminal did not answer")
		}
		codec, ok := media.PickVideoCodec([]media.VideoCodec{media.VideoCodec(ans.Codec)}, codecs)
		if !ok {
			s.endLocked(later, ss, StNotAcceptable, t.ID)
			return ErrCodec
		}
		ss.codec, ss.state, ss.status = codec, StateMedia, StSelfTrying
		ss.fixLocked()
		ss.timer = time.AfterFunc(s.opts.MediaTimeout, func() { s.monitorTimeout(ss) })
		for _, v := range ss.viewers {
			s.logMonitorLocked(later, ss, v, true)
		}
		s.publishLocked(ss)
		reply = MonitorReply{CallID: ss.id, MsID: t.ID, Codec: string(codec), Status: ss.status, Resolution: res.Name}
		return nil
	})
	return reply, err
}

// monitorTimeout ends a monitoring whose terminal sent no video in time (502 stream not found).
func (s *Service) monitorTimeout(ss *session) {
	_ = s.locked(func(later *afterUnlock) error {
		if !ss.ended && ss.state != StateConnected {
			s.endLocked(later, ss, StNoStream, "")
		}
		return nil
	})
}

// StopMonitor ends a dispatcher's watching of a terminal (msId, or the session callId); the terminal stops
// sending when nobody watches any more.
func (s *Service) StopMonitor(c *realtime.Conn, req MonitorReq) (map[string]any, error) {
	acct := c.Principal().AccountID
	err := s.locked(func(later *afterUnlock) error {
		var ss *session
		if req.CallID != "" {
			ss = s.sessions[string(req.CallID)]
		} else {
			ss = s.monitored[string(req.MsID)]
		}
		if ss == nil || ss.kind != KindMonitor || ss.customer != c.Principal().CustomerID || ss.viewers[acct] == nil {
			return ErrNoSession
		}
		s.removeViewerLocked(later, ss, ss.viewers[acct], StOK)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return map[string]any{"list": s.Monitors(c)}, nil
}

// Monitors lists what a dispatcher watches.
func (s *Service) Monitors(c *realtime.Conn) []View {
	acct := c.Principal().AccountID
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []View{}
	for _, ss := range s.sessions {
		if ss.kind == KindMonitor && ss.viewers[acct] != nil {
			out = append(out, s.viewLocked(ss))
		}
	}
	return out
}

// removeViewerLocked takes a viewer off a monitoring (its row and log 130 written); the last one ends it.
func (s *Service) removeViewerLocked(later *afterUnlock, ss *session, v *party, status int) {
	if ss.viewers[v.ID] != v {
		return
	}
	if len(ss.viewers) == 1 {
		s.endLocked(later, ss, status, v.ID)
		return
	}
	delete(ss.viewers, v.ID)
	s.viewerRowLocked(later, ss, v, status)
	if v.peer != nil {
		later.Then(v.peer.Close)
		v.peer = nil
	}
	s.publishLocked(ss)
}

// viewerRowLocked writes a viewer's row and its "monitoring stopped" log.
func (s *Service) viewerRowLocked(later *afterUnlock, ss *session, v *party, status int) {
	now := s.opts.Now()
	r := Record{CallID: ss.id, Kind: KindMonitor, CallerID: v.ID, CallerName: v.Name, CalleeID: ss.callee.ID,
		CalleeName: ss.callee.Name, Codec: string(ss.codec), Started: v.since.UnixMilli(), Ended: now.UnixMilli(),
		Status: status, customer: ss.customer}
	if !ss.connected.IsZero() {
		from := ss.connected
		if v.since.After(from) {
			from = v.since
		}
		r.Connected = from.UnixMilli()
		r.DurationMs = max(now.Sub(from).Milliseconds(), 0)
	}
	started := ss.codec != "" // the terminal agreed: its start was logged
	s.saveLater(later, func(ctx context.Context) {
		if err := s.store.AddRecord(ctx, r); err != nil {
			return
		}
		if started {
			s.log.Write(ctx, ss.customer, v.ID, v.Name, oplog.VideoMonitoring, "video monitoring of "+ss.callee.Name+
				" ("+ss.callee.ID+") stopped: "+strconv.Itoa(status), oplog.D("videoMonitorStop", "terminal", ss.callee.ID,
				"status", strconv.Itoa(status)))
		}
	})
}

// logMonitorLocked writes log 130 "monitoring started" for a viewer.
func (s *Service) logMonitorLocked(later *afterUnlock, ss *session, v *party, start bool) {
	if !start || ss.codec == "" {
		return // the start of a pending monitoring is logged when the terminal agrees
	}
	s.saveLater(later, func(ctx context.Context) {
		s.log.Write(ctx, ss.customer, v.ID, v.Name, oplog.VideoMonitoring, "video monitoring of "+ss.callee.Name+
			" ("+ss.callee.ID+") started", oplog.D("videoMonitorStart", "terminal", ss.callee.ID))
	})
}
