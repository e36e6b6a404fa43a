package httpx

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"tenfour/internal/platform/db"
	"tenfour/internal/platform/identity"
)

func TestServeStored(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "rec.ogg")
	if err := os.WriteFile(path, []byte("0123456789"), 0o600); err != nil {
		t.Fatal(err)
	}
	missing := E(http.StatusNotFound, "404", "test.noFile", "the recording's file is missing")
	serve := func(target, rng string, f StoredFile) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodGet, target, nil)
		if rng != "" {
			r.Header.Set("Range", rng)
		}
		w := httptest.NewRecorder()
		ServeStored(w, r, f, missing)
		return w
	}
	opened := 0
	f := StoredFile{Path: path, Name: "a.ogg", Type: "audio/ogg", Cache: "private", Opened: func() { opened++ }}

	w := serve("/x?id=1", "bytes=2-4", f)
	if w.Code != http.StatusPartialContent || w.Body.String() != "234" || w.Header().Get("Content-Type") != "audio/ogg" || w.Header().Get("Content-Disposition") != "" {
		t.Fatalf("range: %d %q %v", w.Code, w.Body.String(), w.Header())
	}
	w = serve("/x?id=1&download=1", "", f)
	if w.Code != http.StatusOK || w.Body.String() != "0123456789" || w.Header().Get("Content-Disposition") != `attachment; filename="a.ogg"` {
		t.Fatalf("download: %d %q %v", w.Code, w.Body.String(), w.Header())
	}
	if opened != 2 {
		t.Fatalf("Opened ran %d times for two answers", opened)
	}

	f.Path = filepath.Join(dir, "gone.ogg")
	w = serve("/x?id=1", "", f)
	var env Envelope
	if err := json.Unmarshal(w.Body.Bytes(), &env); err != nil || w.Code != http.StatusNotFound || env.Code != "404" {
		t.Fatalf("missing file: %d %s", w.Code, w.Body.String())
	}
	if opened != 2 {
		t.Fatal("Opened ran for a missing file")
	}
}

// A recording fetched by id: a console's alone, the id checked before any read, find's error (another
// customer's recording) answered as it is, the file served for the caller's customer.
func TestRecording(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rec.mp4")
	if err := os.WriteFile(path, []byte("0123456789"), 0o600); err != nil {
		t.Fatal(err)
	}
	missing := E(http.StatusNotFound, "404", "test.noFile", "the recording's file is missing")
	type recID int64
	var asked []recID
	h := Recording(func(_ context.Context, customerID int64, id recID) (StoredFile, error) {
		asked = append(asked, id)
		if customerID != 7 || id != 3 {
			return StoredFile{}, db.ErrNotFound
		}
		return StoredFile{Path: path, Name: "rec.mp4", Type: "video/mp4", Cache: "private, no-cache"}, nil
	}, missing)
	for _, c := range []struct {
		name, target, who string
		customer          int64
		status            int
		code              string
	}{
		{"a terminal", "/x?id=3", "1", 7, http.StatusForbidden, "107"},
		{"no id", "/x", identity.DispatcherType, 7, http.StatusBadRequest, "400"},
		{"not an id", "/x?id=-3", identity.DispatcherType, 7, http.StatusBadRequest, "400"},
		{"another customer's", "/x?id=3", identity.DispatcherType, 8, http.StatusNotFound, "404"},
		{"its own", "/x?id=3", identity.DispatcherType, 7, http.StatusOK, ""},
	} {
		r := httptest.NewRequest(http.MethodGet, c.target, nil)
		r = r.WithContext(identity.With(r.Context(), identity.Principal{Type: c.who, CustomerID: c.customer}))
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		var env Envelope
		_ = json.Unmarshal(w.Body.Bytes(), &env)
		if w.Code != c.status || env.Code != c.code {
			t.Errorf("%s: %d %s, want %d code %q", c.name, w.Code, w.Body.String(), c.status, c.code)
		}
		if c.code == "" && (w.Body.String() != "0123456789" || w.Header().Get("Content-Type") != "video/mp4") {
			t.Errorf("%s: served %q as %q", c.name, w.Body.String(), w.Header().Get("Content-Type"))
		}
	}
	if len(asked) != 2 {
		t.Errorf("find ran for %v, want only the two requests with a console and a good id", asked)
	}
}
