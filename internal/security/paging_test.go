package security

import (
	"strings"
	"testing"

	"tenfour/internal/auth"
	"tenfour/internal/testkit"
)

// pagingFixture is a server with one customer, a dispatcher (10000001 analogue) and a terminal in one group.
func pagingFixture(t *testing.T) (*testkit.Server, string) {
	s := testkit.Start(t)
	c := testkit.Customer(t, s.DB, "paging")
	testkit.Account(t, s.DB, auth.NewAccount{CustomerID: c, ID: "31000001", Name: "Dispatcher", Type: "20", Group: "All"})
	testkit.Account(t, s.DB, auth.NewAccount{CustomerID: c, ID: "31000101", Name: "Radio", Type: "10", Group: "All"})
	return s, s.Token("31000001", c)
}

// TestPagingOverflow replays L6: pageNo = 2^63−1 made (pageNo−1)×pageSize overflow and wrap around to the first
// page. Every paged list now refuses a page beyond httpx.MaxOffset with a coded 400 naming its range.
func TestPagingOverflow(t *testing.T) {
	s, tok := pagingFixture(t)
	const huge = "9223372036854775807"
	from, to := testkit.RecentRange()
	for _, c := range []struct {
		method, path string
		params       map[string]any
	}{
		{"GET", "/ds/log/list", nil},
		{"GET", "/ds/nms/getTerminalByClient", nil},
		{"GET", "/ds/sos/findSos", map[string]any{"sTime": from, "eTime": to}},
		{"GET", "/ds/sms/findSms", map[string]any{"type": "0", "stime": from, "etime": to}},
		{"GET", "/ds/loneWork/list", nil},
		{"GET", "/ds/job/list", nil},
		{"GET", "/ds/schoolCar/list", nil},
	} {
		for _, size := range []string{"", "1", "1000"} {
			p := map[string]any{"pageNo": huge}
			for k, v := range c.params {
				p[k] = v
			}
			if size != "" {
				p["pageSize"] = size
			}
			r := s.Do(c.method, c.path, tok, p)
			if r.Code != "400" || !strings.HasPrefix(r.Msg, "pageNo: 1 to ") {
				t.Errorf("%s pageNo %s pageSize %q: %d %s %q %s; want 400 \"pageNo: 1 to …\"", c.path, huge, size,
					r.Status, r.Code, r.Msg, r.Result)
			}
		}
		// the last page allowed still answers (an empty list), so the bound is the refusal, not a crash
		p := map[string]any{"pageNo": "1073742", "pageSize": "1000"}
		for k, v := range c.params {
			p[k] = v
		}
		if r := s.Do(c.method, c.path, tok, p); r.Code != "0" {
			t.Errorf("%s last page: %s %q", c.path, r.Code, r.Msg)
		}
	}
}
