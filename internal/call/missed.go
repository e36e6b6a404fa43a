package call

// Missed individual calls: recorded for the callee, listed and cleared over HTTP.

import (
	"context"
	"math"
	"strconv"
	"time"

	"tenfour/internal/oplog"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
)

// missedLocked records a missed individual call for the callee (log 107) and tells its consoles.
func (s *Service) missedLocked(later *afterUnlock, c *Call, status int) {
	caller, callee := c.Initiator, c.parties[1].Account
	m := Missed{CallID: c.ID, CalleeID: callee.ID, CallerID: caller.ID, CallerName: caller.Name, Status: status,
		Time: time.Now().UnixMilli()}
	later.Then(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := s.store.AddMissed(ctx, c.Customer, m); err == nil {
			s.hub.SendTo(callee.ID, "call.missed", m)
		}
		s.log.Write(ctx, c.Customer, callee.ID, callee.Name, oplog.MissedCall,
			"missed call from "+caller.Name+" ("+caller.ID+"), "+strconv.Itoa(status),
			oplog.D("missedCall", "terminal", caller.ID, "code", strconv.Itoa(status)))
	})
}

// missedListReq is the request of GET /ds/call/missed.
type missedListReq struct {
	STime string `json:"stime"`
	ETime string `json:"etime"`
}

func (s *Service) missedList(ctx context.Context, p identity.Principal, req missedListReq) (any, error) {
	from, to := int64(0), int64(math.MaxInt64)
	var err error
	if req.STime != "" {
		if from, err = httpx.Int("stime", req.STime); err != nil {
			return nil, err
		}
	}
	if req.ETime != "" {
		if to, err = httpx.Int("etime", req.ETime); err != nil {
			return nil, err
		}
	}
	list, err := s.store.MissedCalls(ctx, p.CustomerID, p.AccountID, from, to, 300)
	if err != nil {
		return nil, err
	}
	return map[string]any{"list": list}, nil
}

// missedClearReq is the request of DELETE /ds/call/missed.
type missedClearReq struct {
	ID string `json:"id"`
}

func (s *Service) missedClear(ctx context.Context, p identity.Principal, req missedClearReq) (any, error) {
	var id int64
	if req.ID != "" {
		var err error
		if id, err = httpx.Int("id", req.ID); err != nil {
			return nil, err
		}
	}
	return struct{}{}, s.store.ClearMissed(ctx, p.CustomerID, p.AccountID, id)
}
