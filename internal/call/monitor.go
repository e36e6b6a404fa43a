package call

// Monitoring: a dispatcher hears the calls of the groups it monitors, or one terminal's microphone.

import (
	"context"
	"errors"
	"slices"
	"strconv"

	"tenfour/internal/media"
	"tenfour/internal/oplog"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/realtime"
)

// ambient is a dispatcher listening to a terminal's microphone (terminal monitoring).
type ambient struct {
	id       uint64
	by       string // dispatcher account
	byName   string
	customer int64
	target   *client
	targetID string
	pending  bool   // asked the terminal, no answer yet
	node     string // in a cluster, on the dispatcher's node: the terminal's node, which relays its microphone (relay.go)
	forNode  string // in a cluster, on the terminal's node: the dispatcher's node, to which it is relayed
}

// MonitorReq is `monitor.start` / `monitor.stop`: a group (gid) or a terminal (msId).
type MonitorReq struct {
	GID  flex.String `json:"gid"`
	MsID flex.String `json:"msId"`
}

// MonitorState is what a dispatcher monitors.
type MonitorState struct {
	Groups   []string `json:"groups"`
	Terminal string   `json:"terminal"`
}

func (s *Service) monitorStateLocked(acct string) MonitorState {
	st := MonitorState{Groups: []string{}}
	for gid := range s.monitors[acct] {
		st.Groups = append(st.Groups, strconv.FormatInt(gid, 10))
	}
	slices.Sort(st.Groups)
	if a := s.ambient[acct]; a != nil && !a.pending {
		st.Terminal = a.targetID
	}
	return st
}

// StartMonitor starts monitoring a group (log 108) or a terminal (log 109) for a dispatcher (consoles only:
// the verb's role).
func (s *Service) StartMonitor(ctx context.Context, cl *client, req MonitorReq) (MonitorState, error) {
	if req.GID != "" {
		return s.monitorGroup(ctx, cl, string(req.GID))
	}
	if req.MsID == "" {
		return MonitorState{}, httpx.BadParam("gid", "a group or a terminal (msId)")
	}
	return s.monitorTerminal(ctx, cl, string(req.MsID))
}

func (s *Service) monitorGroup(ctx context.Context, cl *client, gidS string) (MonitorState, error) {
	gid, err := strconv.ParseInt(gidS, 10, 64)
	if err != nil {
		return MonitorState{}, httpx.BadParam("gid", "a group id")
	}
	g, err := s.store.Group(ctx, cl.acct.Customer, gid)
	if errors.Is(err, db.ErrNotFound) {
		return MonitorState{}, ErrNotFound
	}
	if err != nil {
		return MonitorState{}, err
	}
	var st MonitorState
	err = s.locked(func(later *afterUnlock) error {
		set := s.monitors[cl.acct.ID]
		if set[gid] {
			return ErrAlreadyMon
		}
		if len(set) >= s.opts.MaxMonitoredGroups {
			return ErrMaxMonitored
		}
		if set == nil {
			set = map[int64]bool{}
			s.monitors[cl.acct.ID] = set
		}
		set[gid] = true
		later.log(cl.acct.Customer, cl.acct, oplog.GroupMonitorStart, g.Name, oplog.D("groupMonitorStart", "group", strconv.FormatInt(gid, 10)))
		s.recomputeLocked(cl.acct.Customer)
		st = s.monitorStateLocked(cl.acct.ID)
		return nil
	})
	return st, err
}

// monitorTerminal asks the terminal to open its microphone silently (`monitor.start`, acknowledged) and
// forwards it to the dispatcher. One terminal per dispatcher at a time.
func (s *Service) monitorTerminal(ctx context.Context, cl *client, msID string) (MonitorState, error) {
	t, err := s.store.Account(ctx, cl.acct.Customer, msID)
	if errors.Is(err, db.ErrNotFound) || (err == nil && t.Dispatcher()) {
		return MonitorState{}, ErrNotFound
	}
	if err != nil {
		return MonitorState{}, err
	}
	if t.Blocked() {
		return MonitorState{}, ErrBlocked
	}
	a := &ambient{by: cl.acct.ID, byName: s.acctOf(cl).Name, customer: cl.acct.Customer, targetID: msID, pending: true}
	err = s.locked(func(later *afterUnlock) error {
		if cur := s.ambient[cl.acct.ID]; cur != nil {
			if cur.targetID == msID {
				return ErrAlreadyMon
			}
			return ErrMaxMonitored
		}
		if !s.hub.LocalOnline(msID) {
			// on another node of a cluster: that node relays its microphone here (relay.go, docs/adr/0026)
			if s.relay == nil || !s.hub.Online(msID) {
				return ErrOffline
			}
			a.node = "?" // the terminal's node, named once it answered
			s.ambient[cl.acct.ID] = a
			return nil
		}
		if s.inSingleLocked(msID) != nil || s.talkingLocked(msID) {
			return ErrTerminalBusy
		}
		a.target = s.mediaClientLocked(msID)
		if a.target == nil {
			return ErrNoPeer
		}
		s.ambient[cl.acct.ID] = a
		return nil
	})
	if err != nil {
		return MonitorState{}, err
	}
	actx, cancel := context.WithTimeout(ctx, s.hub.AckTimeout())
	node := ""
	if a.node != "" {
		if node, err = s.relay.Monitor(actx, cl.acct.Customer, cl.acct.ID, a.byName, msID); errors.Is(err, realtime.ErrNotOnline) {
			err = ErrOffline // it left meanwhile
		}
	} else {
		_, err = s.hub.Request(actx, msID, "monitor.start", map[string]any{"by": cl.acct.ID, "byName": a.byName})
	}
	cancel()
	var st MonitorState
	lerr := s.locked(func(later *afterUnlock) error {
		if s.ambient[cl.acct.ID] != a || (a.target != nil && a.target.gone) {
			if node != "" && err == nil {
				s.relay.MonitorStop(node, cl.acct.ID) // stopped meanwhile: the terminal's node stops too
			}
			return ErrTerminalBusy
		}
		if node != "" {
			a.node = node
		}
		if err != nil {
			delete(s.ambient, cl.acct.ID)
			return err
		}
		a.pending, a.id = false, media.NewSourceID()
		later.log(cl.acct.Customer, cl.acct, oplog.TermMonitorStart, t.Name+" ("+t.ID+")", oplog.D("terminalMonitorStart", "terminal", t.ID))
		s.recomputeLocked(cl.acct.Customer)
		st = s.monitorStateLocked(cl.acct.ID)
		return nil
	})
	var he *httpx.Error
	if errors.As(lerr, &he) && he.Code == strconv.Itoa(StBusy) {
		lerr = ErrTerminalBusy // the terminal answered busy
	}
	return st, lerr
}

// mediaClientLocked is an account's connection with a ready PeerConnection (the latest), or nil.
func (s *Service) mediaClientLocked(acct string) *client {
	var best *client
	for cl := range s.byAcct[acct] {
		if cl.peer != nil && cl.peer.Ready() {
			best = cl
		}
	}
	return best
}

// StopMonitor stops monitoring a group (log 110) or the terminal (log 111).
func (s *Service) StopMonitor(cl *client, req MonitorReq) (MonitorState, error) {
	var st MonitorState
	err := s.locked(func(later *afterUnlock) error {
		if req.GID != "" {
			gid, err := strconv.ParseInt(string(req.GID), 10, 64)
			if err != nil || !s.monitors[cl.acct.ID][gid] {
				return ErrNotFound
			}
			delete(s.monitors[cl.acct.ID], gid)
			later.log(cl.acct.Customer, cl.acct, oplog.GroupMonitorStop, "group "+string(req.GID), oplog.D("groupMonitorStop", "group", strconv.FormatInt(gid, 10)))
		} else {
			a := s.ambient[cl.acct.ID]
			if a == nil || (req.MsID != "" && a.targetID != string(req.MsID)) {
				return ErrNotFound
			}
			s.stopAmbientLocked(later, a)
		}
		s.recomputeLocked(cl.acct.Customer)
		st = s.monitorStateLocked(cl.acct.ID)
		return nil
	})
	return st, err
}

// stopAmbientLocked ends a terminal monitoring: the terminal closes its microphone, the dispatcher is told.
func (s *Service) stopAmbientLocked(later *afterUnlock, a *ambient) {
	if s.ambient[a.by] != a {
		return
	}
	delete(s.ambient, a.by)
	if a.pending {
		return
	}
	if a.node != "" || a.forNode != "" {
		s.stopRelayedAmbientLocked(later, a) // in a cluster (relay.go)
		return
	}
	if !a.target.gone {
		_ = a.target.conn.Send("monitor.stop", map[string]any{"by": a.by})
	}
	s.hub.SendTo(a.by, "monitor.ended", map[string]any{"msId": a.targetID})
	s.recomputeLocked(a.customer)
	later.log(a.customer, Account{ID: a.by, Name: a.byName}, oplog.TermMonitorStop, a.targetID, oplog.D("terminalMonitorStop", "terminal", a.targetID))
}
