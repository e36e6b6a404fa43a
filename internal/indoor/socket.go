package indoor

import (
	"context"
	"math"

	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/realtime"
)

// Verbs are the indoor socket messages.
func (s *Service) Verbs() []realtime.Verb {
	return []realtime.Verb{
		realtime.On(ReqReport, realtime.TerminalOnly, s.onReport),
		realtime.Event(EventPosition, realtime.ConsoleOnly),
		realtime.Event(EventChanged, realtime.ConsoleOnly),
	}
}

type reportReading struct {
	MAC  flex.String `json:"mac"`
	RSSI flex.Float  `json:"rssi"`
}

type reportReq struct {
	Readings []reportReading `json:"readings"`
}

func (s *Service) onReport(ctx context.Context, c *realtime.Conn, req reportReq) (any, error) {
	if len(req.Readings) == 0 {
		return nil, httpx.BadParam("readings", "required")
	}
	if len(req.Readings) > MaxReadings {
		return nil, httpx.BadParam("readings", "at most 64")
	}
	rs := make([]Reading, 0, len(req.Readings))
	for _, r := range req.Readings {
		mac, ok := NormalizeMAC(string(r.MAC))
		if !ok {
			return nil, httpx.BadParam("mac", "a BLE address of six hexadecimal bytes")
		}
		v := math.Round(r.RSSI.V)
		if !r.RSSI.Set || v < -127 || v > 0 {
			return nil, httpx.BadParam("rssi", "-127 to 0 dBm")
		}
		rs = append(rs, Reading{MAC: mac, RSSI: int(v)})
	}
	return s.Report(ctx, c.Principal(), rs)
}
