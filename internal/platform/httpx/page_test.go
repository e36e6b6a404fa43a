package httpx

import (
	"encoding/json"
	"errors"
	"net/http/httptest"
	"testing"
)

// The list answer is spelled {total, list} — as every domain's own Page was — never with a null list; an
// embedding answer adds its fields beside them.
func TestPageJSON(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{PageOf([]int{1, 2}, 7), `{"total":7,"list":[1,2]}`},
		{PageOf[string](nil, 0), `{"total":0,"list":[]}`},
		{All([]string{"a"}), `{"total":1,"list":["a"]}`},
		{struct {
			Page[int]
			Truncated bool `json:"truncated,omitempty"`
		}{PageOf([]int{3}, 9), true}, `{"total":9,"list":[3],"truncated":true}`},
	} {
		b, err := json.Marshal(c.v)
		if err != nil || string(b) != c.want {
			t.Errorf("Marshal(%#v) = %s %v, want %s", c.v, b, err, c.want)
		}
	}
}

// A list handler answers its store's rows as a page, or the store's error with no page.
func TestListOf(t *testing.T) {
	if p, err := ListOf([]int(nil), 0, nil); err != nil || p.List == nil || p.Total != 0 {
		t.Errorf("ListOf(nil, 0, nil) = %#v, %v; want an empty page", p, err)
	}
	if p, err := ListOf([]int{4}, 8, nil); err != nil || p.Total != 8 || len(p.List) != 1 {
		t.Errorf("ListOf([4], 8, nil) = %#v, %v", p, err)
	}
	boom := errors.New("boom")
	if _, err := ListOf([]int{4}, 8, boom); err != boom {
		t.Errorf("ListOf(…, boom) = %v, want boom", err)
	}
}

// PageReq, embedded in a request, reads pageNo and pageSize from the query with the list's own default size.
func TestPageReqEmbedded(t *testing.T) {
	var req struct {
		Name string `json:"name"`
		PageReq
	}
	if err := Decode(httptest.NewRequest("GET", "/x?name=a&pageNo=3&pageSize=20", nil), &req); err != nil {
		t.Fatal(err)
	}
	if off, lim, err := req.PagingFrom(50, 100); req.Name != "a" || off != 40 || lim != 20 || err != nil {
		t.Errorf("PagingFrom = %d, %d, %v (name %q); want 40, 20", off, lim, err, req.Name)
	}
	if off, lim, err := (PageReq{}).PagingFrom(50, 100); off != 0 || lim != 50 || err != nil {
		t.Errorf("blank PagingFrom = %d, %d, %v; want 0, 50 (the default size)", off, lim, err)
	}
	if _, _, err := (PageReq{PageSize: "101"}).PagingFrom(50, 100); Code(err) != "400" {
		t.Errorf("pageSize 101 of 100: %v, want 400", err)
	}
	if off, lim, err := (PageReq{PageNo: "2"}).Paging(); off != 1000 || lim != 1000 || err != nil {
		t.Errorf("Paging of page 2 = %d, %d, %v; want the spec's 1000 a page", off, lim, err)
	}
}
