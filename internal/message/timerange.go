package message

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
)

// Time-range errors: the codes the other domains use for spec §5 "Time range".
var (
	ErrRangeOrder   = httpx.E(http.StatusBadRequest, "93", "errors.range.order", "start is after end")
	ErrRangeTooLong = httpx.E(http.StatusBadRequest, "94", "errors.range.tooLong", "time range longer than 31 days")
	ErrCrossMonth   = httpx.E(http.StatusBadRequest, "95", "errors.range.crossMonth", "cross-month queries are not supported")
)

// MaxRange is the longest search range (a whole month of 31 days; the spec leaves the number unstated).
const MaxRange = 31 * 24 * time.Hour

// Range is a checked time range in UTC ms, both ends inclusive.
type Range struct{ From, To int64 }

// ParseRange checks start and end (ms) by spec §5: both required, start not after end ("93"), at most
// MaxRange ("94"), within one calendar month of the customer's time zone ("95"; the first instant of the
// next month is accepted as the end of the whole month). sName and eName are the parameter names.
func ParseRange(sName, sTime, eName, eTime string, loc *time.Location) (Range, error) {
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
	if from > to {
		return Range{}, ErrRangeOrder
	}
	if time.Duration(to-from)*time.Millisecond > MaxRange {
		return Range{}, ErrRangeTooLong
	}
	s, e := time.UnixMilli(from).In(loc), time.UnixMilli(to).In(loc)
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
	h, err := strconv.ParseFloat(strings.TrimSpace(tz), 64)
	if err != nil || h < -14 || h > 14 {
		return time.UTC, nil
	}
	return time.FixedZone("customer", int(h*3600)), nil
}

// Paging reads pageNo (from 1) and pageSize (1-1000, default 1000: spec §9 "lists default page size 1000").
func Paging(pageNo, pageSize string) (offset, limit int, err error) {
	page, size := int64(1), int64(1000)
	if pageNo != "" {
		if page, err = httpx.Int("pageNo", pageNo); err != nil || page < 1 {
			return 0, 0, httpx.BadParam("pageNo", "from 1")
		}
	}
	if pageSize != "" {
		if size, err = httpx.Int("pageSize", pageSize); err != nil || size < 1 || size > 1000 {
			return 0, 0, httpx.BadParam("pageSize", "1 to 1000")
		}
	}
	return int((page - 1) * size), int(size), nil
}
