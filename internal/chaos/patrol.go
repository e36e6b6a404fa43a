package chaos

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"time"

	"tenfour/internal/patrol"
	"tenfour/internal/platform/db"
	"tenfour/internal/termclient"
)

// Patrol in the lab: one area of patrolPoints points, one route through them, and plans whose classes (one per
// terminal, at most patrol.MaxClasses a plan) last the whole day, so that every node's patrol engine makes each
// terminal an order open now. The terminals punch its points by tag, round after round (after the first round
// the server keeps each punch as a repeat: every punch is a row all the same).
const patrolPoints = 4

// provisionPatrol writes the lab's patrol through internal/patrol's store (as the console's patrol pages do
// through /patrolService) and waits until the engines made every terminal's open order.
func provisionPatrol(ctx context.Context, d *db.DB, customer int64, terminals int) error {
	st := patrol.NewStore(d)
	now := time.Now()
	ms := now.UnixMilli()
	if _, err := st.EnsureUser(ctx, customer, dispatcher, "dispatcher", ms); err != nil {
		return err
	}
	area, err := st.SaveArea(ctx, customer, patrol.Area{Name: "Chaos yard"}, ms)
	if err != nil {
		return err
	}
	var points []patrol.PointID
	for i := range patrolPoints {
		id, err := st.SavePoint(ctx, customer, patrol.Point{Name: fmt.Sprintf("Point %d", i+1), Type: "0",
			NfcValue: fmt.Sprintf("CHAOS-%d", i+1), AreaID: area, Lat: 41 + float64(i)*0.001, Lng: stampBase,
			Radius: patrol.DefaultRadius}, ms)
		if err != nil {
			return err
		}
		points = append(points, id)
	}
	route, err := st.SaveRoute(ctx, customer, patrol.Route{Name: "Chaos round", Type: "0", AreaID: area}, points, ms)
	if err != nil {
		return err
	}
	from, to := now.AddDate(0, 0, -1).UTC().Format(time.DateOnly), now.AddDate(1, 0, 0).UTC().Format(time.DateOnly)
	var ids []string
	for i := range terminals {
		id := strconv.Itoa(firstTerm + i)
		if _, err := st.EnsureUser(ctx, customer, id, "terminal", ms); err != nil {
			return err
		}
		ids = append(ids, id)
	}
	for n := 0; n*patrol.MaxClasses < len(ids); n++ {
		p := patrol.Plan{Name: fmt.Sprintf("Chaos rounds %d", n+1), Model: patrol.Model, Type: "0", StartDate: from, EndDate: to,
			RouteID: route, AreaID: area, CreatedBy: dispatcher}
		for _, id := range ids[n*patrol.MaxClasses : min((n+1)*patrol.MaxClasses, len(ids))] {
			// a class from midnight to midnight: the whole day
			p.Classes = append(p.Classes, patrol.Class{Name: id, StartTime: "00:00", EndTime: "00:00", MsID: id})
		}
		if _, err := st.AddPlan(ctx, customer, p, ms); err != nil {
			return err
		}
	}
	// The engines run every 15 s (patrol.DefaultOptions.Every).
	deadline := time.Now().Add(2*patrol.DefaultOptions.Every + 5*time.Second)
	for _, id := range ids {
		for {
			open, err := st.Open(ctx, customer, id, time.Now().UnixMilli())
			if err != nil {
				return err
			}
			if len(open) > 0 {
				break
			}
			if time.Now().After(deadline) || ctx.Err() != nil {
				return fmt.Errorf("no open patrol order of %s by %v", id, deadline.Format(time.TimeOnly))
			}
			sleep(ctx, 500*time.Millisecond)
		}
	}
	return nil
}

// A punch's position carries a stamp: the phase and op it was sent in (the phases' histories each count their
// ops from 1), as micro-degrees of longitude east of stampBase. A stored punch row then names the request it came
// from — two rows of one request are a punch stored twice. The position of a tag punch is the terminal's, kept
// with the row; the server does not judge a tag punch by it.
const (
	stampBase  = 28.9
	stampScale = 1e7    // 0.1 µ°
	stampOps   = 100000 // ops of one phase at most
)

func stampLng(phase, op int64) float64 { return stampBase + float64(phase*stampOps+op)/stampScale }

// unstamp is the phase and op of a stored punch's longitude (ok false: no stamp of the workload).
func unstamp(lng *float64) (phase, op int64, ok bool) {
	if lng == nil {
		return 0, 0, false
	}
	v := int64(math.Round((*lng - stampBase) * stampScale))
	if v <= 0 {
		return 0, 0, false
	}
	return v / stampOps, v % stampOps, true
}

// punch punches the next point of the terminal's open order by its tag (NFC or the point's QR code: the same
// value), its position stamped with the op; "0" means the punch is stored (docs/terminal-protocol.md "Patrol").
func (t *terminal) punch(ctx context.Context, c *termclient.Client) {
	tag, lat := t.nextPoint(ctx, c)
	if tag == "" {
		return
	}
	method := []string{patrol.MethodNFC, patrol.MethodQR}[t.w.intn(2)]
	e := t.entry(KindPunch)
	var r struct {
		Log struct {
			ID json.Number `json:"id"`
		} `json:"log"`
	}
	e, _ = t.op(ctx, c, e, patrol.ReqPunch, map[string]any{"method": method, "value": tag, "lat": lat,
		"lng": stampLng(t.w.Phase(), e.Op)}, &r)
	e.ID = r.Log.ID.String()
	t.w.record(e)
}

// nextPoint is the tag and latitude of the next point of the terminal's round: the points of its open order,
// read once (patrol.orders, as the phone app does after its login); "" when it has none.
func (t *terminal) nextPoint(ctx context.Context, c *termclient.Client) (string, float64) {
	t.mu.Lock()
	round := t.round
	t.mu.Unlock()
	if len(round) == 0 {
		var mine struct {
			ServerTime int64          `json:"serverTime"`
			List       []patrol.Order `json:"list"`
		}
		cctx, cancel := context.WithTimeout(ctx, opTimeout)
		err := c.Call(cctx, patrol.ReqOrders, struct{}{}, &mine)
		cancel()
		if err != nil {
			return "", 0
		}
		for _, o := range mine.List {
			if o.State == patrol.Waiting && o.StartTime <= mine.ServerTime && mine.ServerTime < o.JudgeTime && len(o.Points) > 0 {
				round = o.Points
				break
			}
		}
		if len(round) == 0 {
			return "", 0
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.round = round
	p := round[t.punched%len(round)]
	t.punched++
	return p.NfcValue, p.Lat
}
