package presence_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"tenfour/internal/directory"
	"tenfour/internal/platform/db"
	"tenfour/internal/presence"
	"tenfour/internal/testkit"
)

// BenchmarkOnlineReport is `make bench`'s online-report row: POST findOnlineDurationPost over a whole month for
// 1,000 terminals with two intervals a day each (62,000 intervals), answered by a real server on SQLite.
func BenchmarkOnlineReport(b *testing.B) {
	const terminals, days = 1000, 31
	s := testkit.Start(b)
	cust := testkit.Customer(b, s.DB, "Bench")
	ctx := context.Background()
	month := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	fleet := directory.Fleet{Customer: directory.CustomerID(cust), Now: month.UnixMilli(),
		Groups: []directory.FleetGroup{{Name: "All"}}}
	fleet.Accounts = append(fleet.Accounts, directory.FleetAccount{ID: "90000000", Type: "20", Name: "Desk",
		PasswordHash: "x", Groups: []string{"All"}})
	for i := 1; i <= terminals; i++ {
		fleet.Accounts = append(fleet.Accounts, directory.FleetAccount{ID: directory.TerminalID(fmt.Sprintf("9%07d", i)),
			Type: "10", Name: fmt.Sprintf("Unit %d", i), PasswordHash: "x", Groups: []string{"All"}})
	}
	if err := s.DB.InTx(ctx, func(tx *db.Tx) error {
		if _, err := directory.Provision(ctx, tx, fleet); err != nil {
			return err
		}
		for i := 1; i <= terminals; i++ {
			var ivs []presence.Interval
			for d := range days {
				day := month.AddDate(0, 0, d)
				ivs = append(ivs, presence.Interval{On: day.Add(7 * time.Hour).UnixMilli(), Off: day.Add(11 * time.Hour).UnixMilli()},
					presence.Interval{On: day.Add(12 * time.Hour).UnixMilli(), Off: day.Add(16 * time.Hour).UnixMilli()})
			}
			if err := presence.SeedIntervals(ctx, tx, cust, fmt.Sprintf("9%07d", i), ivs); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	tok := s.Token("90000000", cust)
	params := map[string]any{"sTime": month.UnixMilli(), "eTime": month.AddDate(0, 1, 0).UnixMilli()}
	b.ResetTimer()
	for range b.N {
		var rep presence.OnlineReport
		r := testkit.Do(b, s.URL, http.MethodPost, "/ds/report/findOnlineDurationPost", tok, params)
		if r.Code != "0" {
			b.Fatalf("report: %s %s", r.Code, r.Msg)
		}
		r.Into(b, &rep)
		if rep.Total != terminals || rep.List[0].OnlineMs != int64(days)*8*3_600_000 {
			b.Fatalf("report: %d rows, first %d ms", rep.Total, rep.List[0].OnlineMs)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/report")
}
