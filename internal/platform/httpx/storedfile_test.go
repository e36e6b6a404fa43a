package httpx

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
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
