package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"time"

	"tenfour/internal/platform/db"
	"tenfour/internal/video"
)

// adminVideoLimits sets a customer's video limits (docs/video.md): flags left out keep their value.
var adminVideoLimits = customerCommand("video-limits", nil, func(fs *flag.FlagSet) customerRun {
	calls := fs.Int("max-calls", -1, "maximum concurrent video calls")
	monitors := fs.Int("max-monitors", -1, "maximum concurrent monitored entries")
	duration := fs.Duration("max-duration", 0, "longest video call (e.g. 30m)")
	credit := fs.Int64("credit-minutes", -2, "video-call minutes left; -1 = unlimited")
	record := fs.String("record", "", "on: record video calls and monitorings (docs/video.md §5); off: do not")
	return func(ctx context.Context, store *db.DB, id int64, customer string) error {
		vs := video.NewStore(store, nil)
		l, err := vs.Limits(ctx, id)
		if err != nil {
			return err
		}
		if *calls >= 0 {
			l.MaxCalls = *calls
		}
		if *monitors >= 0 {
			l.MaxMonitors = *monitors
		}
		if *duration > 0 {
			l.MaxDuration = int(duration.Seconds())
		}
		switch {
		case *credit == -1:
			l.CreditMs = -1
		case *credit >= 0:
			l.CreditMs = *credit * 60_000
		case *credit != -2:
			return errors.New("--credit-minutes: -1 (unlimited) or a number of minutes")
		}
		switch *record {
		case "on":
			l.Record = true
		case "off":
			l.Record = false
		case "":
		default:
			return errors.New("--record: on or off")
		}
		if err := vs.SetLimits(ctx, id, l, time.Now().UnixMilli()); err != nil {
			return err
		}
		fmt.Printf("customer %q video limits: %d calls, %d monitored entries, %d s per call, credit %d ms (-1 unlimited), recording %v\n",
			customer, l.MaxCalls, l.MaxMonitors, l.MaxDuration, l.CreditMs, l.Record)
		return nil
	}
})
