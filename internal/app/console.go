package app

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
)

// consoleHandler serves the built console with an index.html fallback for client-side routes, and the phone web app
// with an app.html fallback under /app/. Every file goes out compressed where the build wrote a compressed copy and
// the browser accepts it (serveStatic).
func consoleHandler(dist fs.FS) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := strings.TrimPrefix(r.URL.Path, "/")
		if strings.HasPrefix(p, "ds/") || strings.HasPrefix(p, "filews/") {
			http.NotFound(w, r)
			return
		}
		if p != "" {
			if st, err := fs.Stat(dist, p); err == nil && !st.IsDir() {
				if strings.HasPrefix(p, "assets/") {
					w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
				}
				serveStatic(w, r, dist, p)
				return
			}
		}
		// The phone web app (web/app.html, a second entry of the build) owns /app and everything under it.
		page := "index.html"
		if p == "app" {
			target := "/app/"
			if r.URL.RawQuery != "" {
				target += "?" + r.URL.RawQuery
			}
			http.Redirect(w, r, target, http.StatusMovedPermanently)
			return
		} else if strings.HasPrefix(p, "app/") {
			page = "app.html"
		}
		if _, err := fs.Stat(dist, page); errors.Is(err, fs.ErrNotExist) {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprintln(w, "tenfour: the console is not built into this binary; run `make build`.")
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		serveStatic(w, r, dist, page)
	})
}

// encodings are the compressed copies the console's build writes beside a text file of 1 KiB or more
// (web/vite.config.ts), in the order of preference: brotli is some 20 % smaller than gzip on the console's scripts.
var encodings = []struct{ token, suffix string }{{"br", ".br"}, {"gzip", ".gz"}}

// serveStatic writes dist's file name — its brotli or gzip copy where the build made one and the request accepts
// that encoding, else the file as it is — with its type from its extension (sniffed from an uncompressed body where
// the extension is unknown); ranges and conditional requests as
// http.ServeContent answers them (a range is of the body as sent). Nothing is compressed on a request.
func serveStatic(w http.ResponseWriter, r *http.Request, dist fs.FS, name string) {
	ctype := mime.TypeByExtension(path.Ext(name))
	if ctype != "" {
		w.Header().Set("Content-Type", ctype)
	}
	accepted := acceptedEncodings(r.Header.Get("Accept-Encoding"))
	compressed := false
	for _, enc := range encodings {
		if _, err := fs.Stat(dist, name+enc.suffix); err != nil {
			continue
		}
		compressed = true
		if accepted(enc.token) && sendFile(w, r, dist, name+enc.suffix, name, enc.token) {
			return
		}
	}
	if compressed {
		w.Header().Add("Vary", "Accept-Encoding")
	}
	if !sendFile(w, r, dist, name, name, "") {
		http.Error(w, "cannot read "+name, http.StatusInternalServerError)
	}
}

// sendFile serves dist's file as name (its encoding, if any, in Content-Encoding); false if it cannot be opened.
func sendFile(w http.ResponseWriter, r *http.Request, dist fs.FS, file, name, encoding string) bool {
	f, err := dist.Open(file)
	if err != nil {
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return false
	}
	body, ok := f.(io.ReadSeeker)
	if !ok {
		b, err := io.ReadAll(f)
		if err != nil {
			return false
		}
		body = bytes.NewReader(b)
	}
	if encoding != "" {
		if w.Header().Get("Content-Type") == "" {
			w.Header().Set("Content-Type", "application/octet-stream") // not sniffed from the compressed bytes
		}
		w.Header().Set("Content-Encoding", encoding)
		w.Header().Add("Vary", "Accept-Encoding")
	}
	http.ServeContent(w, r, name, st.ModTime(), body)
	return true
}

// acceptedEncodings reads an Accept-Encoding header (RFC 9110 §12.5.3): a coding is accepted when it is listed with
// a quality above 0, or when it is not listed and "*" is, with a quality above 0.
func acceptedEncodings(header string) func(token string) bool {
	listed := map[string]bool{}
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding == "" {
			continue
		}
		listed[coding] = quality(params) > 0
	}
	return func(token string) bool {
		if ok, in := listed[token]; in {
			return ok
		}
		return listed["*"]
	}
}

// quality is the q parameter of an Accept-Encoding entry's parameters (1 when absent, 0 when unreadable).
func quality(params string) float64 {
	for _, p := range strings.Split(params, ";") {
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		if strings.EqualFold(strings.TrimSpace(k), "q") {
			q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				return 0
			}
			return q
		}
	}
	return 1
}
