package lonework

import (
	"context"
	"errors"
	"log/slog"
	"maps"
	"time"

	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/realtime"
	"tenfour/internal/platform/ticker"
)

// Condition flags remembered per plan, so one episode raises one alarm.
const (
	flagOffline = 1 << iota // an offline/battery-off alarm was raised; cleared when the terminal is back
	flagWeak                // a weak-signal alarm was raised; cleared when a check finds the signal good
)

// BusyCode is the reply code a terminal gives to a check prompt it cannot show (spec §4 call status busy 486).
const BusyCode = "486"

// Tick is one pass of the engine at the service clock's now. For every enabled plan that should be running:
//   - at its planned end it stops (status over, or alarm while an alarm is unhandled);
//   - the first pass after the planned start starts it; checks fall due every interval after the real start;
//   - a terminal disconnected for OfflineGrace raises "battery off" (last battery ≤ BatteryOff) or "offline",
//     once per time away;
//   - a due check raises "weak signal" when the signal is ≤ WeakSignal (once until a check finds it good), and
//     starts a countdown; the terminal is prompted (`lonework.check`) now, or as soon as it is back;
//   - a countdown that runs out raises "forgot to reply" (or "offline"/"battery off" when the terminal is away);
//     a prompt answered 486 raises "busy".
//
// Run calls it every second; tests call it after moving the clock.
func (s *Service) Tick(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.Now()
	plans, err := s.store.Running(ctx, now.UnixMilli())
	if err != nil {
		return err
	}
	live := make(map[WorkID]bool, len(plans))
	for _, p := range plans {
		live[p.ID] = true
	}
	terms := map[string]TermState{}
	for c, ms := range byCustomer(plans) {
		ts, err := s.store.Terminals(ctx, c, ms)
		if err != nil {
			return err
		}
		maps.Copy(terms, ts)
	}
	var errs []error
	for _, p := range plans {
		if err := s.step(ctx, p, now, terms[p.MsID]); err != nil {
			errs = append(errs, err)
		}
	}
	for id := range s.offlineSince {
		if !live[id] {
			delete(s.offlineSince, id)
		}
	}
	for id := range s.delivered {
		if !live[id] {
			delete(s.delivered, id)
		}
	}
	return errors.Join(errs...)
}

func (s *Service) step(ctx context.Context, p Plan, now time.Time, ts TermState) error {
	n := now.UnixMilli()
	if n >= p.end() {
		return s.finish(ctx, p, now)
	}
	changed := false
	if p.RealStart == 0 {
		p.RealStart = n
		p.NextCheck = n + int64(p.Interval)*60000
		changed = true
		defer func() { s.hub.SendTo(p.MsID, TermStart, stamp(p, n)) }()
	}
	online := s.hub.Online(p.MsID)
	offlineReason := ReasonOffline
	if ts.Battery >= 0 && ts.Battery <= s.th.BatteryOff {
		offlineReason = ReasonBatteryOff
	}
	if !online {
		since, ok := s.offlineSince[p.ID]
		if !ok {
			since = now
			s.offlineSince[p.ID] = now
		}
		if now.Sub(since) >= s.th.OfflineGrace && p.flags&flagOffline == 0 {
			p.flags |= flagOffline
			p.Deadline = 0 // the offline alarm covers a prompt the worker could not answer
			changed = true
			if _, err := s.raise(ctx, &p, offlineReason, now); err != nil {
				return err
			}
		}
	} else {
		delete(s.offlineSince, p.ID)
		if p.flags&flagOffline != 0 {
			p.flags &^= flagOffline
			changed = true
		}
	}
	if p.Deadline != 0 && n >= p.Deadline {
		p.Deadline = 0
		changed = true
		reason := ReasonNoReply
		if !online {
			// The countdown ran out while the terminal was away (a countdown shorter than the grace period):
			// the worker could not have answered, so the alarm says why.
			reason = offlineReason
			p.flags |= flagOffline
		}
		if _, err := s.raise(ctx, &p, reason, now); err != nil {
			return err
		}
	}
	if n >= p.NextCheck {
		for p.NextCheck <= n { // after downtime, skip the checks that were missed
			p.NextCheck += int64(p.Interval) * 60000
		}
		changed = true
		if online {
			if ts.Signal >= 0 && ts.Signal <= s.th.WeakSignal {
				if p.flags&flagWeak == 0 {
					p.flags |= flagWeak
					if _, err := s.raise(ctx, &p, ReasonWeakSignal, now); err != nil {
						return err
					}
				}
			} else {
				p.flags &^= flagWeak
			}
		}
		// The countdown starts now even for a terminal that is away: it is prompted as soon as it is back, and
		// an offline alarm replaces the countdown's when it stays away.
		if p.Deadline == 0 && p.flags&flagOffline == 0 {
			p.Deadline = n + int64(p.Countdown)*1000
		}
	}
	if changed {
		if err := s.store.SaveRuntime(ctx, p); err != nil {
			return err
		}
		s.publishState(p, n)
	}
	// Prompt when a countdown is running and the terminal has not received it yet (also after a reconnect).
	if online && p.Deadline != 0 && s.delivered[p.ID] != p.Deadline && !s.inflight[p.ID] {
		s.prompt(p, n)
	}
	return nil
}

// prompt sends `lonework.check` without holding up the engine; the caller holds mu.
func (s *Service) prompt(p Plan, now int64) {
	s.inflight[p.ID] = true
	s.pending++
	deadline := p.Deadline
	data := map[string]any{"workId": p.ID, "countdown": (deadline - now + 999) / 1000, "deadline": deadline, "serverTime": now}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), s.hub.AckTimeout())
		_, err := s.hub.Request(ctx, p.MsID, TermCheck, data)
		cancel()
		s.promptDone(p, deadline, err)
	}()
}

func (s *Service) promptDone(p Plan, deadline int64, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer func() {
		s.pending--
		s.idle.Broadcast()
	}()
	delete(s.inflight, p.ID)
	if errors.Is(err, realtime.ErrNotOnline) {
		return // not delivered: the next tick prompts again once the terminal is back
	}
	s.delivered[p.ID] = deadline // delivered, or the terminal did not ack in time: do not repeat
	var he *httpx.Error
	if !errors.As(err, &he) || he.Code != BusyCode {
		return
	}
	ctx := context.Background()
	now := s.Now()
	cur, gerr := s.store.Get(ctx, p.customerID, p.ID)
	if gerr != nil || cur.workState(now.UnixMilli()) != Working || cur.Deadline != deadline {
		return // checked in, ended or re-prompted meanwhile
	}
	cur.Deadline = 0
	if _, err := s.raise(ctx, &cur, ReasonBusy, now); err != nil {
		slog.Error("lonework: busy alarm", "work", p.ID, "err", err)
		return
	}
	if err := s.store.SaveRuntime(ctx, cur); err != nil {
		slog.Error("lonework: save", "work", p.ID, "err", err)
	}
	s.publishState(cur, now.UnixMilli())
}

// Settle waits until no prompt is waiting for a terminal (tests, shutdown).
func (s *Service) Settle() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for s.pending > 0 {
		s.idle.Wait()
	}
}

// finish stops a plan now; the caller holds mu.
func (s *Service) finish(ctx context.Context, p Plan, now time.Time) error {
	n := now.UnixMilli()
	stop := min(n, p.end())
	if p.RealStart == 0 {
		stop = n
	}
	if err := s.store.Finish(ctx, p.ID, stop); err != nil {
		return err
	}
	delete(s.offlineSince, p.ID)
	delete(s.delivered, p.ID)
	cur, err := s.store.Get(ctx, p.customerID, p.ID)
	if err != nil {
		return err
	}
	s.publishState(cur, n)
	s.hub.SendTo(cur.MsID, TermEnd, stamp(cur, n))
	return nil
}

// Checkin is the worker's "I am fine": it stops the running countdown of the terminal's plan in progress
// (workID 0: every plan of the terminal in progress). ErrNotWorking when none is in progress.
func (s *Service) Checkin(ctx context.Context, p identity.Principal, workID WorkID) ([]Plan, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.Now().UnixMilli()
	plans, err := s.store.WorkingOf(ctx, p.CustomerID, p.AccountID)
	if err != nil {
		return nil, err
	}
	var out []Plan
	for _, pl := range plans {
		if workID != 0 && pl.ID != workID {
			continue
		}
		if pl.Deadline != 0 {
			pl.Deadline = 0
			if err := s.store.SaveRuntime(ctx, pl); err != nil {
				return nil, err
			}
			s.publishState(pl, now)
		}
		out = append(out, stamp(pl, now))
	}
	if len(out) == 0 {
		return nil, ErrNotWorking
	}
	return out, nil
}

// Run ticks every second until ctx ends, then waits for prompts in flight.
func (s *Service) Run(ctx context.Context) {
	defer s.Settle()
	ticker.Every(ctx, time.Second, func() {
		if err := s.Tick(ctx); err != nil && ctx.Err() == nil {
			slog.Error("lonework: tick", "err", err)
		}
	})
}
