package httpx

import (
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

// A request names its terminals as msIds, msId or both, in the query or a JSON body, as a list, one id or a comma
// list; embedded, the pair decodes beside the request's own fields and reads as one list, msIds first.
func TestMsIDs(t *testing.T) {
	type req struct {
		MsIDs
		Keyword string `json:"keyword"`
	}
	for _, c := range []struct {
		name, query, body string
		want              []string
		code              string // "0" when the list is good
	}{
		{"msIds list", "", `{"msIds":["7","8"],"keyword":"k"}`, []string{"7", "8"}, "0"},
		{"msId comma list", "?msId=7,8&keyword=k", "", []string{"7", "8"}, "0"},
		{"both, msIds first, once each", "", `{"msId":"9,7","msIds":["7",8],"keyword":"k"}`, []string{"7", "8", "9"}, "0"},
		{"repeated query key", "?msIds=8&msIds=7&keyword=k", "", []string{"8", "7"}, "0"},
		{"none", "?keyword=k", "", nil, "400"},
		{"too many", "?msIds=1,2,3,4,5&keyword=k", "", nil, "400"},
		{"longer than an id", "", `{"msId":"` + strings.Repeat("9", MaxIDLen+1) + `","keyword":"k"}`, nil, "400"},
	} {
		r := httptest.NewRequest("GET", "/x"+c.query, nil)
		if c.body != "" {
			r = httptest.NewRequest("POST", "/x", strings.NewReader(c.body))
			r.Header.Set("Content-Type", "application/json")
		}
		var q req
		if err := Decode(r, &q); err != nil {
			t.Fatalf("%s: Decode: %v", c.name, err)
		}
		if q.Keyword != "k" {
			t.Errorf("%s: keyword = %q, the embedding request's own field lost", c.name, q.Keyword)
		}
		got, err := q.MsIDs.Check("msIds", 4, true)
		if code := Code(err); code != c.code || !slices.Equal(got, c.want) {
			t.Errorf("%s: Check = %v, %v (code %q); want %v, code %q", c.name, got, err, code, c.want, c.code)
		}
	}
	if got, err := (MsIDs{}).Check("msIds", 4, false); got != nil || err != nil {
		t.Errorf("optional and empty: Check = %v, %v; want nil, nil", got, err)
	}
}
