package httpx

import "testing"

func TestPaging(t *testing.T) {
	for _, c := range []struct {
		no, size      string
		offset, limit int
		msg           string // the 400's message; "" = accepted
	}{
		{"", "", 0, 1000, ""},
		{"1", "20", 0, 20, ""},
		{"3", "20", 40, 20, ""},
		{" 2 ", "1000", 1000, 1000, ""},
		{"", "1", 0, 1, ""},
		{"0", "", 0, 0, "pageNo: from 1"},
		{"-1", "", 0, 0, "pageNo: from 1"},
		{"x", "", 0, 0, "pageNo: from 1"},
		{"", "0", 0, 0, "pageSize: 1 to 1000"},
		{"", "1001", 0, 0, "pageSize: 1 to 1000"},
		{"", "ten", 0, 0, "pageSize: 1 to 1000"},
		// the issue-14 probe: the largest int64 wrapped around to page 1
		{"9223372036854775807", "", 0, 0, "pageNo: 1 to 1073742"},
		{"9223372036854775807", "1", 0, 0, "pageNo: 1 to 1073741825"},
		{"1073742", "1000", 1073741000, 1000, ""},
		{"1073743", "1000", 0, 0, "pageNo: 1 to 1073742"},
		{"9223372036854775808", "", 0, 0, "pageNo: from 1"},
	} {
		offset, limit, err := Paging(c.no, c.size)
		if c.msg == "" {
			if err != nil || offset != c.offset || limit != c.limit {
				t.Errorf("Paging(%q, %q) = %d, %d, %v; want %d, %d", c.no, c.size, offset, limit, err, c.offset, c.limit)
			}
			continue
		}
		if e, _ := AsError(err); e.Code != "400" || e.Msg != c.msg {
			t.Errorf("Paging(%q, %q) = %v, want 400 %q", c.no, c.size, err, c.msg)
		}
	}
}
