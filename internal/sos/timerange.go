package sos

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
)

// Range is a validated search or report time range, in UTC milliseconds, both ends inclusive.
type Range struct{ From, To int64 }

// Time-range errors (spec §5 "Time range": start and end required, start not after end, no cross-month queries).
// A range inside one calendar month is at most 31 days, which is the day limit the spec leaves unstated.
var (
	ErrRangeOrder = httpx.E(http.StatusBadRequest, "93", "errors.range.order", "start is after end")
	ErrCrossMonth = httpx.E(http.StatusBadRequest, "95", "errors.range.crossMonth", "cross-month queries are not supported")
)

// ParseRange checks sTime/eTime (milliseconds) by the spec's rules; months are the customer's (loc).
func ParseRange(sTime, eTime string, loc *time.Location) (Range, error) {
	if strings.TrimSpace(sTime) == "" {
		return Range{}, httpx.BadParam("sTime", "required")
	}
	if strings.TrimSpace(eTime) == "" {
		return Range{}, httpx.BadParam("eTime", "required")
	}
	from, err := httpx.Int("sTime", sTime)
	if err != nil {
		return Range{}, err
	}
	to, err := httpx.Int("eTime", eTime)
	if err != nil {
		return Range{}, err
	}
	if from < 0 || to < 0 {
		return Range{}, httpx.BadParam("sTime", "negative time")
	}
	if from > to {
		return Range{}, ErrRangeOrder
	}
	s, e := time.UnixMilli(from).In(loc), time.UnixMilli(to).In(loc)
	// The first instant of the next month is accepted as the end of "the whole month".
	endOfMonth := time.Date(s.Year(), s.Month()+1, 1, 0, 0, 0, 0, loc)
	if (s.Year() != e.Year() || s.Month() != e.Month()) && !e.Equal(endOfMonth) {
		return Range{}, ErrCrossMonth
	}
	return Range{From: from, To: to}, nil
}

// Zone is a customer's time zone (customers.time_zone holds hours, possibly fractional: "8", "-3.5").
func Zone(ctx context.Context, d *db.DB, customerID int64) (*time.Location, error) {
	var tz string
	if err := d.QueryRow(ctx, `SELECT time_zone FROM customers WHERE id = ?`, customerID).Scan(&tz); err != nil {
		return nil, err
	}
	return ZoneOf(tz), nil
}

// ZoneOf turns an hours offset into a fixed zone (UTC when malformed).
func ZoneOf(hours string) *time.Location {
	h, err := strconv.ParseFloat(strings.TrimSpace(hours), 64)
	if err != nil || h < -14 || h > 14 {
		return time.UTC
	}
	secs := int(h * 3600)
	return time.FixedZone("UTC"+strconv.FormatFloat(h, 'f', -1, 64), secs)
}

// Day formats a time as the customer's calendar day (YYYY-MM-DD).
func Day(ms int64, loc *time.Location) string {
	return time.UnixMilli(ms).In(loc).Format(time.DateOnly)
}
