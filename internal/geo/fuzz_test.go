package geo

import (
	"encoding/json"
	"testing"
	"time"

	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/realtime"
)

// FuzzGPSReport decodes any gps.report payload as the socket does (realtime.Decode into the typed request) and
// validates every position in it: nothing panics, every refusal is a coded 400, and every accepted position
// is within the documented ranges (docs/terminal-protocol.md "Positions").
func FuzzGPSReport(f *testing.F) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	for _, s := range []string{
		`{"lat":41.0082,"lng":28.9784,"speed":3.5,"direction":270,"altitude":35,"time":1764072000000}`,
		`{"points":[{"lat":41,"lng":29},{"lat":"41.1","lng":"29.1","time":"1764071000000"}],"ack":false}`,
		`{"lat":41008200,"lng":28978400}`,
		`{"lat":"NaN","lng":"Inf"}`,
		`{"lat":95,"lng":29,"speed":-1,"direction":361,"altitude":1e300}`,
		`{"lat":41,"lng":29,"time":1e300}`,
		`{"lat":41,"lng":29,"time":-9223372036854775808}`,
		`{"points":[]}`, `{"points":null}`, `{"points":{}}`, `{"ack":"yes"}`, `[]`, `null`, `"x"`,
	} {
		f.Add([]byte(s))
	}
	s := &Service{opt: Options{Retention: 90 * 24 * time.Hour}.withDefaults(), now: func() time.Time { return now }}
	nowMs := now.UnixMilli()
	f.Fuzz(func(t *testing.T, data []byte) {
		var req gpsReportIn
		if err := realtime.Decode(json.RawMessage(data), &req); err != nil {
			if httpx.Code(err) != "400" {
				t.Fatalf("%s: decode %v", data, err)
			}
			return
		}
		ins := append(req.Points, req.pointIn)
		for _, in := range ins {
			p, err := s.point(in, nowMs)
			if err != nil {
				if httpx.Code(err) != "400" {
					t.Fatalf("%s: %v", data, err)
				}
				continue
			}
			if !(p.Lat >= -90 && p.Lat <= 90 && p.Lng >= -180 && p.Lng <= 180 && p.Speed >= 0 && p.Speed <= 1000 &&
				p.Direction >= 0 && p.Direction <= 360 && p.Altitude >= -1000 && p.Altitude <= 100000) {
				t.Fatalf("%s: accepted %+v", data, p)
			}
			if p.Time < nowMs-s.opt.MaxAge.Milliseconds() || p.Time > nowMs+MaxFuture.Milliseconds() {
				t.Fatalf("%s: accepted fix time %d outside the window", data, p.Time)
			}
		}
	})
}
