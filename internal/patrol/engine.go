package patrol

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"tenfour/internal/platform/realtime"
	"tenfour/internal/platform/ticker"
	"tenfour/internal/tenant"
)

// Run generates and judges orders every Options.Every until ctx ends.
func (s *Service) Run(ctx context.Context) {
	ticker.NowAndEvery(ctx, s.opts.Every, func() {
		if err := s.Tick(ctx); err != nil && ctx.Err() == nil {
			slog.ErrorContext(ctx, "patrol: engine pass", "err", err)
		}
	})
}

// Tick is one pass of the engine at the service clock's now (docs/adr/0019):
//   - every plan whose date range holds today or tomorrow (in its customer's zone) gets one order per class per
//     day with a copy of its route's points, unless the class ended before the plan was made;
//   - every waiting order whose class has ended is judged once every point is punched, or at the end of the
//     late grace (unpunched points are then missed).
//
// Run calls it every Options.Every; tests call it after moving the clock.
func (s *Service) Tick(ctx context.Context) error {
	return errors.Join(s.generate(ctx), s.judge(ctx))
}

// classWindow is a class's window on day in loc: an end not after the start is on the next day.
func classWindow(day time.Time, c Class, loc *time.Location) (start, end time.Time, ok bool) {
	st, err1 := time.Parse("15:04", c.StartTime)
	et, err2 := time.Parse("15:04", c.EndTime)
	if err1 != nil || err2 != nil {
		return start, end, false
	}
	start = time.Date(day.Year(), day.Month(), day.Day(), st.Hour(), st.Minute(), 0, 0, loc)
	end = time.Date(day.Year(), day.Month(), day.Day(), et.Hour(), et.Minute(), 0, 0, loc)
	if !end.After(start) {
		end = time.Date(day.Year(), day.Month(), day.Day()+1, et.Hour(), et.Minute(), 0, 0, loc)
	}
	return start, end, true
}

func (s *Service) generate(ctx context.Context) error {
	now := s.Now()
	// Any customer's today is at most a day from UTC's.
	plans, err := s.store.Current(ctx, now.UTC().AddDate(0, 0, -1).Format(time.DateOnly))
	if err != nil {
		return err
	}
	var errs []error
	for _, p := range plans {
		if err := s.generatePlan(ctx, p, now); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// generatePlan makes the plan's missing orders of today and tomorrow.
func (s *Service) generatePlan(ctx context.Context, p Plan, now time.Time) error {
	loc := tenant.ZoneOf(p.tz)
	local := now.In(loc)
	today := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, loc)
	days := []time.Time{today, today.AddDate(0, 0, 1)}
	have, err := s.store.OrderKeys(ctx, p.ID, days[0].Format(time.DateOnly), days[1].Format(time.DateOnly))
	if err != nil {
		return err
	}
	var route *Route
	for _, d := range days {
		day := d.Format(time.DateOnly)
		if day < p.StartDate || day > p.EndDate {
			continue
		}
		for _, c := range p.Classes {
			if have[orderKey(c.Seq, day)] {
				continue
			}
			start, end, ok := classWindow(d, c, loc)
			if !ok || end.UnixMilli() <= p.CreatedAt {
				continue
			}
			if route == nil {
				r, err := s.store.Route(ctx, p.customerID, p.RouteID)
				if err != nil {
					return err
				}
				route = &r
			}
			o := NewOrder{Order: Order{PlanID: p.ID, PlanName: p.Name, ClassSeq: c.Seq, ClassName: c.Name, Day: day, MsID: c.MsID,
				AreaID: p.AreaID, AreaName: p.AreaName, RouteID: p.RouteID, RouteName: route.Name, StartTime: start.UnixMilli(),
				EndTime: end.UnixMilli(), JudgeTime: end.Add(s.opts.LateGrace).UnixMilli()}}
			for _, rp := range route.RoutePoints {
				pt := fromPoint(rp.Point)
				pt.Seq = rp.Seq
				o.Points = append(o.Points, pt)
			}
			id, created, err := s.store.CreateOrder(ctx, p.customerID, o, now.UnixMilli())
			if err != nil {
				return err
			}
			if created {
				if got, err := s.store.Order(ctx, p.customerID, id); err == nil {
					got = s.named(ctx, p.customerID, got)
					s.hub.Publish(p.customerID, EventOrder, got, realtime.Consoles)
					s.hub.SendTo(got.MsID, TermOrders, map[string]any{"orderId": got.ID})
				}
			}
		}
	}
	return nil
}

func (s *Service) judge(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.Now().UnixMilli()
	due, err := s.store.Due(ctx, now)
	if err != nil {
		return err
	}
	var errs []error
	for _, o := range due {
		if now < o.JudgeTime && o.Punched < o.Total {
			continue // late punches may still come
		}
		pts, err := s.store.OrderPoints(ctx, o.ID)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		st, reasons := Judge(pts)
		done, err := s.store.Judged(ctx, o.ID, st, reasons, now)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if done {
			o.State, o.Reasons, o.JudgedAt = st, reasons, now
			o = s.named(ctx, o.customerID, o)
			s.hub.Publish(o.customerID, EventOrder, o, realtime.Consoles)
		}
	}
	return errors.Join(errs...)
}
