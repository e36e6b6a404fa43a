package httpx

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"tenfour/internal/platform/identity"
)

// TestRouterEnvelopes holds the three services' answers byte for byte: the dispatch service's string codes and
// "0", the patrol service's "200", the broadcast service's numbers — for a result, a handler's error and the
// authenticator's refusal, which each service writes in its own envelope.
func TestRouterEnvelopes(t *testing.T) {
	refuse := E(http.StatusUnauthorized, "1011", "patrol.errors.1011", "patrol token expired")
	auth := func(r *http.Request) (context.Context, error) {
		if r.Header.Get("token") != "good" {
			return nil, refuse
		}
		return identity.With(r.Context(), identity.Principal{AccountID: "10000001", Type: identity.DispatcherType}), nil
	}
	ds := NewRouter(http.NewServeMux(), auth, nil)
	services := []struct {
		name             string
		r                Router
		ok, failed, deny string
	}{
		{"dispatch", ds,
			`{"code":"0","msg":"ok","result":{"who":"10000001"}}`,
			`{"code":"404","msg":"not found","key":"errors.notFound"}`,
			`{"code":"1011","msg":"patrol token expired","key":"patrol.errors.1011"}`},
		{"patrol", ds.With(Codes{OK: "200"}, auth),
			`{"code":"200","msg":"ok","result":{"who":"10000001"}}`,
			`{"code":"404","msg":"not found","key":"errors.notFound"}`,
			`{"code":"1011","msg":"patrol token expired","key":"patrol.errors.1011"}`},
		{"broadcast", ds.With(Codes{OK: 200, Of: NumericCode}, auth),
			`{"code":200,"msg":"ok","result":{"who":"10000001"}}`,
			`{"code":404,"msg":"not found","key":"errors.notFound"}`,
			`{"code":1011,"msg":"patrol token expired","key":"patrol.errors.1011"}`},
	}
	for _, s := range services {
		s.r.Private("GET /"+s.name+"/who", Bind(func(_ context.Context, p identity.Principal, _ struct{}) (any, error) {
			return map[string]string{"who": p.AccountID}, nil
		}))
		s.r.Public("GET /"+s.name+"/missing", func(http.ResponseWriter, *http.Request) (any, error) { return nil, ErrNotFound })
	}
	for _, s := range services {
		for _, c := range []struct {
			path, token, want string
			status            int
		}{
			{"/who", "good", s.ok, 200},
			{"/missing", "", s.failed, 404},
			{"/who", "bad", s.deny, 401},
		} {
			req := httptest.NewRequest("GET", "/"+s.name+c.path, nil)
			req.Header.Set("token", c.token)
			w := httptest.NewRecorder()
			ds.Mux.ServeHTTP(w, req)
			if got := strings.TrimSpace(w.Body.String()); got != c.want || w.Code != c.status {
				t.Errorf("%s %s: HTTP %d %s, want %d %s", s.name, c.path, w.Code, got, c.status, c.want)
			}
		}
	}
	want := []string{"GET /dispatch/who", "GET /dispatch/missing", "GET /patrol/who", "GET /patrol/missing",
		"GET /broadcast/who", "GET /broadcast/missing"}
	if got := ds.Routes(); !slices.Equal(got, want) {
		t.Errorf("Routes: %q, want %q (every router made With the first lists in one list)", got, want)
	}
}

// TestNumericCode: a code that is not a number answers 500, never a broken envelope.
func TestNumericCode(t *testing.T) {
	if got := NumericCode(ErrPermission); got != 107 {
		t.Errorf("NumericCode(107) = %v", got)
	}
	if got := NumericCode(E(http.StatusBadRequest, "x1", "", "")); got != 500 {
		t.Errorf("NumericCode(x1) = %v, want 500", got)
	}
}

// TestDecodeWildcards: a pattern's wildcards decode like parameters, and the path wins over a parameter of the
// same name.
func TestDecodeWildcards(t *testing.T) {
	type req struct {
		ID     string `json:"id"`
		Action string `json:"action"`
		Name   string `json:"name"`
	}
	var got req
	mux := http.NewServeMux()
	mux.HandleFunc("PATCH /v1/plan/{id}/{action}", func(w http.ResponseWriter, r *http.Request) {
		if err := Decode(r, &got); err != nil {
			t.Error(err)
		}
	})
	r := httptest.NewRequest("PATCH", "/v1/plan/7/start?id=9", strings.NewReader(`{"name":"n","action":"stop"}`))
	mux.ServeHTTP(httptest.NewRecorder(), r)
	if want := (req{ID: "7", Action: "start", Name: "n"}); got != want {
		t.Errorf("decoded %+v, want %+v", got, want)
	}
	if w := wildcards("GET /a/{x}/b/{rest...}/{$}"); !slices.Equal(w, []string{"x", "rest"}) {
		t.Errorf("wildcards: %q", w)
	}
}
