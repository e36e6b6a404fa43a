package call

// Connections that use voice: their account, their indexes, blocking, and what closing one ends.

import (
	"context"
	"strconv"
	"sync"
	"time"

	"tenfour/internal/media"
	"tenfour/internal/oplog"
	"tenfour/internal/platform/realtime"
)

// client is one socket connection that uses voice: its account and its PeerConnection.
type client struct {
	conn    sender  // its socket (*realtime.Conn), or for a party on another node its way there (leg.go)
	acct    Account // ID, Customer, Type and AcctType never change; Name, Status and PttGroup only under Service.mu (acctOf)
	console bool
	peer    *media.Peer
	peerMu  sync.Mutex // creating the peer
	playing string     // what it hears now (call id, or "monitor:<msId>"), for voice.playing
	tailing bool       // its released burst's last packets are still being forwarded
	lastKW  Kind       // kind of its last floor request (log 112 on a change)
	gone    bool
	acctGen uint64    // Service.acctGen when acct was read
	acctAt  time.Time // when acct was read from the store
	node    string    // a party of this node's call connected to that node (a stand-in, leg.go); "" = here
	// released is the realtime.Arrival of its latest floor.release (under Service.mu; pressLocked).
	released uint64
}

// sender is what a client's events are sent through.
type sender interface {
	Send(typ string, data any) error
}

// ensureClient returns the voice state of a connection, creating it on first use (dropped when it closes).
func (s *Service) ensureClient(ctx context.Context, conn *realtime.Conn) (*client, error) {
	s.mu.Lock()
	cl := s.clients[conn]
	s.mu.Unlock()
	if cl != nil {
		return cl, nil
	}
	p := conn.Principal()
	acct, err := s.store.Account(ctx, p.CustomerID, p.AccountID)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if cl = s.clients[conn]; cl != nil {
		return cl, nil
	}
	select {
	case <-conn.Done():
		return nil, realtime.ErrNotOnline
	default:
	}
	cl = &client{conn: conn, acct: acct, console: conn.Kind() == realtime.Console}
	s.clients[conn] = cl
	addTo(s.byAcct, acct.ID, cl)
	addTo(s.byCust, acct.Customer, cl)
	s.setBlockedLocked(acct)
	conn.AfterClose(func() { s.dropClient(cl) })
	return cl, nil
}

func addTo[K comparable](m map[K]map[*client]struct{}, k K, cl *client) {
	set := m[k]
	if set == nil {
		set = map[*client]struct{}{}
		m[k] = set
	}
	set[cl] = struct{}{}
}

func removeFrom[K comparable](m map[K]map[*client]struct{}, k K, cl *client) {
	if set := m[k]; set != nil {
		delete(set, cl)
		if len(set) == 0 {
			delete(m, k)
		}
	}
}

func (s *Service) setBlockedLocked(a Account) {
	if a.Blocked() {
		s.blocked[a.ID] = true
	} else {
		delete(s.blocked, a.ID)
	}
}

// isBlocked tells whether an account is killed or stunned as last heard (store read or call-set hook).
func (s *Service) isBlocked(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.blocked[id]
}

// dropClient forgets a closed connection: its claims, its monitoring, and the calls it alone kept up.
func (s *Service) dropClient(cl *client) {
	_ = s.locked(func(later *afterUnlock) error {
		if cl.gone {
			return nil
		}
		cl.gone = true
		if c, ok := cl.conn.(*realtime.Conn); ok {
			delete(s.clients, c)
		}
		removeFrom(s.byAcct, cl.acct.ID, cl)
		removeFrom(s.byCust, cl.acct.Customer, cl)
		last := len(s.byAcct[cl.acct.ID]) == 0
		for _, c := range s.customerCalls(cl.acct.Customer) {
			if was, next := c.floor.Drop(cl); was {
				s.endBurstLocked(later, c, "gone", false)
				s.afterReleaseLocked(later, c, next)
			}
			if last {
				s.partyGoneLocked(later, c, cl.acct)
			}
		}
		if !last {
			s.rebindLineLocked(cl) // a duplex call's line goes on through another connection of the account (duplex.go)
		}
		s.legClientGoneLocked(later, cl, last) // a party of another node's call (leg.go)
		for by, a := range s.ambient {
			if a.target == cl || (last && by == cl.acct.ID) {
				s.stopAmbientLocked(later, a)
			}
		}
		if last {
			for gid := range s.monitors[cl.acct.ID] {
				later.log(cl.acct.Customer, cl.acct, oplog.GroupMonitorStop, "group "+strconv.FormatInt(gid, 10),
					oplog.D("groupMonitorStop", "group", strconv.FormatInt(gid, 10)))
			}
			delete(s.monitors, cl.acct.ID)
			delete(s.focus, cl.acct.ID)
			delete(s.modes, cl.acct.ID)
		}
		s.recomputeLocked(cl.acct.Customer)
		if p := cl.peer; p != nil {
			cl.peer = nil
			later.Then(p.Close)
		}
		return nil
	})
}
