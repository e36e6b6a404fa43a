// Package timerange owns spec §5 "Time range" for every search and report: start and end required, start not
// after end, an optional longest length, no query across a calendar month of the customer's time zone, and the
// customer's zone itself (read by the customers' owner, internal/tenant).
package timerange

import (
	"context"
	"net/http"
	"strings"
	"time"

	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/tenant"
)

// Errors of spec §5, shared by every domain's searches. "Start and end required" is a plain 400 on the parameter.
var (
	ErrOrder      = httpx.E(http.StatusBadRequest, "93", "errors.range.order", "start is after end")
	ErrTooLong    = httpx.E(http.StatusBadRequest, "94", "errors.range.tooLong", "time range too long")
	ErrCrossMonth = httpx.E(http.StatusBadRequest, "95", "errors.range.crossMonth", "cross-month queries are not supported")
)

// Month is the longest range one calendar month holds (31 days; the spec leaves the number unstated). As a
// maxLen it only decides that a range longer than any month answers "94" rather than "95".
const Month = 31 * 24 * time.Hour

// Range is a checked time range in UTC milliseconds, both ends inclusive.
type Range struct{ From, To int64 }

// Parse reads start and end (milliseconds) and checks them with Check. sName and eName are the parameter
// names the 400 errors carry; maxLen 0 leaves only the month rule.
func Parse(sName, sTime, eName, eTime string, loc *time.Location, maxLen time.Duration) (Range, error) {
	if strings.TrimSpace(sTime) == "" {
		return Range{}, httpx.BadParam(sName, "required")
	}
	if strings.TrimSpace(eTime) == "" {
		return Range{}, httpx.BadParam(eName, "required")
	}
	from, err := httpx.Int(sName, sTime)
	if err != nil {
		return Range{}, err
	}
	to, err := httpx.Int(eName, eTime)
	if err != nil {
		return Range{}, err
	}
	if from < 0 || to < 0 {
		return Range{}, httpx.BadParam(sName, "negative time")
	}
	return Check(from, to, maxLen, loc)
}

// Check applies the rules to parsed ends: start not after end (ErrOrder), at most maxLen long when maxLen > 0
// (ErrTooLong), both ends in one calendar month of loc (ErrCrossMonth). An end exactly at the first instant of
// the next month still counts as the earlier month, so a whole month is [1st 00:00, next 1st 00:00].
func Check(from, to int64, maxLen time.Duration, loc *time.Location) (Range, error) {
	if from > to {
		return Range{}, ErrOrder
	}
	if maxLen > 0 && to-from > maxLen.Milliseconds() {
		return Range{}, ErrTooLong
	}
	s, e := time.UnixMilli(from).In(loc), time.UnixMilli(to).In(loc)
	nextMonth := time.Date(s.Year(), s.Month()+1, 1, 0, 0, 0, 0, loc)
	if (s.Year() != e.Year() || s.Month() != e.Month()) && !e.Equal(nextMonth) {
		return Range{}, ErrCrossMonth
	}
	return Range{From: from, To: to}, nil
}

// Zone is a customer's time zone, as its owner reads it (tenant.TimeZone).
func Zone(ctx context.Context, d *db.DB, customerID int64) (*time.Location, error) {
	return tenant.TimeZone(ctx, d, customerID)
}

// Day is the calendar day (YYYY-MM-DD) of ms in loc.
func Day(ms int64, loc *time.Location) string {
	return time.UnixMilli(ms).In(loc).Format(time.DateOnly)
}

// ForCustomer reads the spec's sTime/eTime pair in the customer's time zone (Zone, then Parse with those
// parameter names) and returns the range with the zone, which reports need for their day boundaries.
func ForCustomer(ctx context.Context, d *db.DB, customerID int64, sTime, eTime string, maxLen time.Duration) (Range, *time.Location, error) {
	loc, err := Zone(ctx, d, customerID)
	if err != nil {
		return Range{}, nil, err
	}
	rg, err := Parse("sTime", sTime, "eTime", eTime, loc, maxLen)
	return rg, loc, err
}

// Params is a search's sTime and eTime as its request carries them, embedded in the Bind request struct of
// each search that reads them so that every one names and reads the pair the same way.
type Params struct {
	STime string `json:"sTime"`
	ETime string `json:"eTime"`
}

// Given tells a search whose range is optional (a list) that one was asked: either end is given.
func (p Params) Given() bool { return p.STime != "" || p.ETime != "" }

// ForCustomer reads the pair as ForCustomer does: in the customer's zone, at most maxLen long (0: the month rule).
func (p Params) ForCustomer(ctx context.Context, d *db.DB, customerID int64, maxLen time.Duration) (Range, *time.Location, error) {
	return ForCustomer(ctx, d, customerID, p.STime, p.ETime, maxLen)
}
