package timerange

import (
	"encoding/json"
	"errors"
	"strconv"
	"testing"
	"time"

	"tenfour/internal/platform/httpx"
	"tenfour/internal/tenant"
)

var code = httpx.Code

func TestParse(t *testing.T) {
	utc, plus8 := time.UTC, tenant.ZoneOf("8")
	ms := func(s string, loc *time.Location) string {
		tm, err := time.ParseInLocation(time.DateTime, s, loc)
		if err != nil {
			t.Fatal(err)
		}
		return strconv.FormatInt(tm.UnixMilli(), 10)
	}
	week := 7 * 24 * time.Hour
	cases := []struct {
		name, s, e string
		loc        *time.Location
		maxLen     time.Duration
		code       string
	}{
		{"same day", ms("2026-11-01 00:00:00", utc), ms("2026-11-01 23:59:59", utc), utc, 0, "0"},
		{"equal ends", ms("2026-11-05 10:00:00", utc), ms("2026-11-05 10:00:00", utc), utc, 0, "0"},
		{"whole month", ms("2026-11-01 00:00:00", utc), ms("2026-11-30 23:59:59", utc), utc, Month, "0"},
		{"to first instant of next month", ms("2026-11-01 00:00:00", utc), ms("2026-12-01 00:00:00", utc), utc, 0, "0"},
		{"31-day month to next month's first instant", ms("2026-03-01 00:00:00", utc), ms("2026-04-01 00:00:00", utc), utc, Month, "0"},
		{"one ms past next month's first instant", ms("2026-11-01 00:00:00", utc), "1796083200001", utc, 0, "95"},
		{"start after end", ms("2026-11-05 10:00:00", utc), ms("2026-11-04 10:00:00", utc), utc, 0, "93"},
		{"exactly maxLen", ms("2026-03-01 00:00:00", utc), ms("2026-03-08 00:00:00", utc), utc, week, "0"},
		{"over maxLen", ms("2026-03-01 00:00:00", utc), ms("2026-03-08 00:00:01", utc), utc, week, "94"},
		{"too long is told before cross month", ms("2026-03-01 00:00:00", utc), ms("2026-04-05 00:00:00", utc), utc, Month, "94"},
		{"no maxLen: only the month rule", ms("2026-03-01 00:00:00", utc), ms("2026-04-05 00:00:00", utc), utc, 0, "95"},
		{"cross month", ms("2026-10-31 10:00:00", utc), ms("2026-11-01 10:00:00", utc), utc, 0, "95"},
		{"cross year", ms("2026-12-31 10:00:00", utc), ms("2027-01-01 10:00:00", utc), utc, 0, "95"},
		// 2026-10-31 20:00 UTC is already November 1st in UTC+8.
		{"month of the customer's zone", ms("2026-11-01 04:00:00", plus8), ms("2026-11-20 10:00:00", plus8), plus8, 0, "0"},
		{"same range is cross month in UTC", ms("2026-11-01 04:00:00", plus8), ms("2026-11-20 10:00:00", plus8), utc, 0, "95"},
		{"zone makes it cross", ms("2026-10-31 23:00:00", plus8), ms("2026-11-01 01:00:00", plus8), plus8, 0, "95"},
		{"missing start", "", "1", utc, 0, "400"},
		{"blank end", "1", " ", utc, 0, "400"},
		{"not a number", "yesterday", "1", utc, 0, "400"},
		{"negative", "-5", "1", utc, 0, "400"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := Parse("sTime", c.s, "eTime", c.e, c.loc, c.maxLen)
			if got := code(err); got != c.code {
				t.Fatalf("code %s, want %s (%v)", got, c.code, err)
			}
			if err == nil && (strconv.FormatInt(r.From, 10) != c.s || strconv.FormatInt(r.To, 10) != c.e) {
				t.Errorf("range %+v, want %s..%s", r, c.s, c.e)
			}
		})
	}
}

// The 400s name the caller's parameters, and the coded errors keep their i18n keys and status.
func TestParseErrors(t *testing.T) {
	for _, c := range []struct {
		s, e, msg string
	}{
		{"", "1", "btime: required"},
		{"1", "", "etime: required"},
		{"1", "x", "etime: not a whole number"},
		{"-1", "1", "btime: negative time"},
	} {
		_, err := Parse("btime", c.s, "etime", c.e, time.UTC, 0)
		if e, _ := httpx.AsError(err); e.Code != "400" || e.Msg != c.msg {
			t.Errorf("Parse(%q, %q) = %v, want 400 %q", c.s, c.e, err, c.msg)
		}
	}
	for _, c := range []struct {
		err       *httpx.Error
		code, key string
	}{
		{ErrOrder, "93", "errors.range.order"},
		{ErrTooLong, "94", "errors.range.tooLong"},
		{ErrCrossMonth, "95", "errors.range.crossMonth"},
	} {
		if c.err.Code != c.code || c.err.Key != c.key || c.err.Status != 400 {
			t.Errorf("%v: key %s status %d", c.err, c.err.Key, c.err.Status)
		}
	}
	if _, err := Check(2, 1, 0, time.UTC); !errors.Is(err, ErrOrder) {
		t.Errorf("Check(2, 1) = %v, want ErrOrder", err)
	}
}

func TestDay(t *testing.T) {
	ms := time.Date(2026, 10, 31, 20, 0, 0, 0, time.UTC).UnixMilli()
	if got := Day(ms, time.UTC); got != "2026-10-31" {
		t.Errorf("Day in UTC = %s", got)
	}
	if got := Day(ms, tenant.ZoneOf("8")); got != "2026-11-01" {
		t.Errorf("Day in UTC+8 = %s", got)
	}
	if got := Day(ms, tenant.ZoneOf("-3.5")); got != "2026-10-31" {
		t.Errorf("Day in UTC-3.5 = %s", got)
	}
}

// Params, embedded in a request, takes sTime and eTime as every search spells them; a list asks for a range
// when either end is given.
func TestParamsEmbedded(t *testing.T) {
	var req struct {
		MsID string `json:"msId"`
		Params
	}
	if err := json.Unmarshal([]byte(`{"msId":"7","sTime":"1","eTime":"2"}`), &req); err != nil {
		t.Fatal(err)
	}
	if req.MsID != "7" || req.STime != "1" || req.ETime != "2" {
		t.Errorf("decoded %+v", req)
	}
	for _, c := range []struct {
		p    Params
		want bool
	}{{Params{}, false}, {Params{STime: "1"}, true}, {Params{ETime: "2"}, true}, {req.Params, true}} {
		if got := c.p.Given(); got != c.want {
			t.Errorf("%+v.Given() = %v, want %v", c.p, got, c.want)
		}
	}
}
