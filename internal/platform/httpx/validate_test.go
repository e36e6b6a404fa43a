package httpx

import (
	"context"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"tenfour/internal/platform/identity"
)

// msgOf is the 400 message of err ("" for nil; anything but a 400 fails the test).
func msgOf(t *testing.T, err error) string {
	t.Helper()
	if err == nil {
		return ""
	}
	e, _ := AsError(err)
	if e.Code != "400" {
		t.Fatalf("%v: want a 400", err)
	}
	return e.Msg
}

func TestIDs(t *testing.T) {
	long := strings.Repeat("9", MaxIDLen+1)
	for _, c := range []struct {
		in       []string
		required bool
		want     []string
		msg      string
	}{
		{nil, false, nil, ""},
		{nil, true, nil, "ids: required"},
		{[]string{" a ", "b", "a"}, true, []string{"a", "b"}, ""},
		{[]string{"a", " "}, false, nil, "ids: required"},
		{[]string{long}, false, nil, "ids: too long"},
		{[]string{"a", "b", "c", "d"}, false, nil, "ids: too many"},
	} {
		got, err := IDs("ids", c.in, 3, c.required)
		if msg := msgOf(t, err); msg != c.msg || !slices.Equal(got, c.want) {
			t.Errorf("IDs(%q, %v) = %q, %q; want %q, %q", c.in, c.required, got, msg, c.want, c.msg)
		}
	}
}

func TestRowIDs(t *testing.T) {
	for _, c := range []struct {
		in       []string
		required bool
		want     []int64
		msg      string
	}{
		{nil, false, nil, ""},
		{nil, true, nil, "id: required"},
		{[]string{"3", " 1 ", "3"}, true, []int64{3, 1}, ""},
		{[]string{"0"}, false, nil, "id: not an id"},
		{[]string{"-2"}, false, nil, "id: not an id"},
		{[]string{"x"}, false, nil, "id: not an id"},
		{[]string{"1", "2", "3", "4"}, false, nil, "id: too many"},
	} {
		got, err := RowIDs("id", c.in, 3, c.required)
		if msg := msgOf(t, err); msg != c.msg || !slices.Equal(got, c.want) {
			t.Errorf("RowIDs(%q, %v) = %v, %q; want %v, %q", c.in, c.required, got, msg, c.want, c.msg)
		}
	}
}

func TestText(t *testing.T) {
	if v, err := Text("remark", "  héllo ", 5); err != nil || v != "héllo" {
		t.Errorf("Text = %q, %v", v, err)
	}
	if _, err := Text("remark", "héllo!", 5); msgOf(t, err) != "remark: at most 5 characters" {
		t.Errorf("6 characters accepted: %v", err)
	}
	if _, err := Text("remark", "\xff", 5); msgOf(t, err) == "" {
		t.Error("invalid UTF-8 accepted")
	}
}

func TestPagingUpTo(t *testing.T) {
	if off, lim, err := PagingUpTo("3", "2000", 5000); err != nil || off != 4000 || lim != 2000 {
		t.Errorf("PagingUpTo(3, 2000, 5000) = %d, %d, %v", off, lim, err)
	}
	if off, lim, err := PagingUpTo(" ", "", 5000); err != nil || off != 0 || lim != 1000 {
		t.Errorf("blank values: %d, %d, %v; want the defaults 0, 1000", off, lim, err)
	}
	if _, _, err := PagingUpTo("", "5001", 5000); msgOf(t, err) != "pageSize: 1 to 5000" {
		t.Errorf("5001 of 5000: %v", err)
	}
}

func TestBind(t *testing.T) {
	type req struct {
		Name string   `json:"name"`
		IDs  []string `json:"ids"`
	}
	h := Bind(func(ctx context.Context, p identity.Principal, r req) (any, error) {
		return []any{p.AccountID, r.Name, []string(r.IDs)}, nil
	})
	r := httptest.NewRequest("POST", "/x?name=q", strings.NewReader(`{"ids":["a","b"]}`))
	r = r.WithContext(identity.With(r.Context(), identity.Principal{AccountID: "10000001"}))
	got, err := h(httptest.NewRecorder(), r)
	if err != nil {
		t.Fatal(err)
	}
	if g := got.([]any); g[0] != "10000001" || g[1] != "q" || !slices.Equal(g[2].([]string), []string{"a", "b"}) {
		t.Errorf("Bind passed %v", got)
	}
	r = httptest.NewRequest("POST", "/x", strings.NewReader(`{"ids":`))
	r = r.WithContext(identity.With(r.Context(), identity.Principal{AccountID: "10000001"}))
	if _, err := h(httptest.NewRecorder(), r); msgOf(t, err) == "" {
		t.Error("a malformed body reached the endpoint")
	}
}
