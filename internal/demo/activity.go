package demo

// The demo's last week of activity, so the online and call-duration reports (/online, /call-duration-data) show
// figures from the first start: shifts of the radio and app terminals with a drop or two, and talk bursts in
// their groups. Written through the owning packages' seed functions (internal/presence, internal/call).

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"tenfour/internal/call"
	"tenfour/internal/directory"
	"tenfour/internal/platform/db"
	"tenfour/internal/presence"
)

// HistoryDays is how many whole days before today the demo's history covers.
const HistoryDays = 7

// seedActivity writes HistoryDays of presence intervals and talk bursts for the tenant's talking terminals.
func seedActivity(ctx context.Context, tx *db.Tx, t tenant, cid int64, gids map[string]directory.GroupID, now int64) error {
	rng := rand.New(rand.NewPCG(uint64(t.base), 22)) // its own stream: the rest of the demo stays as it was
	today := time.UnixMilli(now).UTC().Truncate(24 * time.Hour)
	var bursts []call.Burst
	for _, r := range t.terms {
		if r.typ == "20" || r.typ == "camera" || r.typ == "8" || r.from > 160 { // consoles, cameras, gateways, free accounts
			continue
		}
		g := r.groups[0]
		// talk adds n bursts of 2 to 25 s in the terminal's group between start and end
		talk := func(id string, d int, start, end time.Time, n int) {
			for k := range n {
				at := start.Add(time.Duration(rng.Int64N(int64(end.Sub(start)))))
				bursts = append(bursts, call.Burst{Customer: cid, CallID: fmt.Sprintf("demo-%s-%d-%d", id, d, k),
					Kind: call.Group, GroupID: int64(gids[g]), GroupName: g, TalkerID: id,
					Started: at.UnixMilli(), DurationMs: int64(2000 + rng.IntN(23000))})
			}
		}
		for n := r.from; n <= r.to; n++ {
			id := fmt.Sprint(t.base + n)
			var ivs []presence.Interval
			for d := HistoryDays; d >= 0; d-- {
				if rng.IntN(7) == 0 {
					continue // a day off
				}
				day := today.AddDate(0, 0, -d)
				start := day.Add(time.Duration(6*60+rng.IntN(180)) * time.Minute)
				end := start.Add(time.Duration(6*60+rng.IntN(240)) * time.Minute)
				if d == 0 { // today so far: talk only (the fleet's logins record today's presence)
					if start, end = today, time.UnixMilli(now); end.Sub(start) < 10*time.Minute {
						continue
					}
					talk(id, d, start, end, 1+rng.IntN(4))
					continue
				}
				// a drop (coverage, battery) now and then splits the shift
				if rng.IntN(3) == 0 {
					cut := start.Add(end.Sub(start) / time.Duration(2+rng.IntN(3)))
					back := cut.Add(time.Duration(2+rng.IntN(25)) * time.Minute)
					ivs = append(ivs, presence.Interval{On: start.UnixMilli(), Off: cut.UnixMilli()})
					start = back
				}
				ivs = append(ivs, presence.Interval{On: start.UnixMilli(), Off: end.UnixMilli()})
				talk(id, d, start, end, 4+rng.IntN(21)) // 4 to 24 bursts during the shift
			}
			if err := presence.SeedIntervals(ctx, tx, cid, id, ivs); err != nil {
				return err
			}
		}
	}
	return call.SeedBursts(ctx, tx, bursts)
}
