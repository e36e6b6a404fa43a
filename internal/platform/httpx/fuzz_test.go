package httpx

import (
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"

	"tenfour/internal/platform/flex"
)

// fuzzReq has a field of every kind endpoints decode into.
type fuzzReq struct {
	Name  string      `json:"name"`
	IDs   flex.List   `json:"ids"`
	MsID  flex.String `json:"msId"`
	Lat   flex.Float  `json:"lat"`
	Count flex.Int    `json:"count"`
	Tags  []string    `json:"tags"`
	Obj   struct {
		A string `json:"a"`
	} `json:"obj"`
}

// FuzzDecode sends any query string and body, as JSON, form or unlabelled, through Decode (under every
// httpx.Bind endpoint): it never panics and every refusal is a coded 400 or 413.
func FuzzDecode(f *testing.F) {
	for _, s := range []struct {
		query, body string
		ct          uint8
	}{
		{"name=a&ids[]=1&ids[]=2", "", 0},
		{"", `{"name":"x","ids":[1,"2"],"msId":10000101,"lat":"41.1","count":"7","tags":["a"],"obj":{"a":"b"}}`, 0},
		{"", `name=x&ids=1,2&lat=1e400`, 1},
		{"msId=%ff", `{"name":"\ud800"}`, 2},
		{"a=%zz", `[1,2]`, 0},
		{"", `{"lat":"NaN","count":"9223372036854775808"}`, 0},
		{"", `{"obj":"str","tags":{"x":1}}`, 0},
		{"", strings.Repeat("[", 10000), 0},
	} {
		f.Add(s.query, s.body, s.ct)
	}
	types := []string{"application/json", "application/x-www-form-urlencoded", "", "text/plain; charset=utf-8"}
	f.Fuzz(func(t *testing.T, query, body string, ct uint8) {
		r := httptest.NewRequest("POST", "/x", strings.NewReader(body))
		r.URL.RawQuery = query
		if c := types[int(ct)%len(types)]; c != "" {
			r.Header.Set("Content-Type", c)
		}
		var req fuzzReq
		err := Decode(r, &req)
		if err == nil {
			return
		}
		e, known := AsError(err)
		if !known || (e.Code != "400" && e.Code != "413") {
			t.Fatalf("query %q body %q: %v (%T)", query, body, err, err)
		}
	})
}

// FuzzParams holds the shared parameter validators' invariants on any input: an accepted id is trimmed and
// at most MaxIDLen, ids are unique, row ids positive, text valid UTF-8 within its length, and a page lies
// within MaxOffset with a limit in range.
func FuzzParams(f *testing.F) {
	for _, s := range []struct{ a, b string }{
		{"10000101", "20"}, {" 1 ", "1000"}, {"", ""}, {"9223372036854775807", "1"}, {"-1", "0"}, {"1,1,2", "x"},
		{"\xff", "1073742"}, {strings.Repeat("9", 40), "5000"},
	} {
		f.Add(s.a, s.b)
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if id, err := ID("msId", a); err == nil && (id != strings.TrimSpace(id) || id == "" || len(id) > MaxIDLen) {
			t.Fatalf("ID(%q) = %q", a, id)
		}
		list := strings.Split(a+","+b, ",")
		if ids, err := IDs("ids", list, 10, false); err == nil {
			seen := map[string]bool{}
			for _, id := range ids {
				if seen[id] || id == "" || len(id) > MaxIDLen {
					t.Fatalf("IDs(%q) = %q", list, ids)
				}
				seen[id] = true
			}
		}
		if rows, err := RowIDs("ids", list, 10, false); err == nil {
			for _, n := range rows {
				if n <= 0 {
					t.Fatalf("RowIDs(%q) = %v", list, rows)
				}
			}
		}
		if s, err := Text("remark", a, 20); err == nil && (!utf8.ValidString(s) || utf8.RuneCountInString(s) > 20) {
			t.Fatalf("Text(%q) = %q", a, s)
		}
		if _, err := Int("n", a); err != nil && Code(err) != "400" {
			t.Fatalf("Int(%q): %v", a, err)
		}
		for _, max := range []int{1000, 5000} {
			off, lim, err := PagingFrom(a, b, 20, max)
			if err != nil {
				if Code(err) != "400" {
					t.Fatalf("PagingFrom(%q, %q): %v", a, b, err)
				}
				continue
			}
			if off < 0 || off > MaxOffset || lim < 1 || lim > max || off%lim != 0 {
				t.Fatalf("PagingFrom(%q, %q, 20, %d) = %d, %d", a, b, max, off, lim)
			}
		}
	})
}
