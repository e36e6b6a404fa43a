package app

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"

	"tenfour/internal/platform/httpx"
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
// that encoding (httpx.AcceptsEncoding), else the file as it is — with its type from its extension (sniffed from an
// uncompressed body where the extension is unknown); ranges and conditional requests as http.ServeContent answers
// them (a range is of the body as sent). Nothing is compressed on a request.
func serveStatic(w http.ResponseWriter, r *http.Request, dist fs.FS, name string) {
	if ctype := mime.TypeByExtension(path.Ext(name)); ctype != "" {
		w.Header().Set("Content-Type", ctype)
	}
	compressed := false
	for _, enc := range encodings {
		if _, err := fs.Stat(dist, name+enc.suffix); err != nil {
			continue
		}
		if !compressed {
			compressed = true
			w.Header().Add("Vary", "Accept-Encoding")
		}
		if httpx.AcceptsEncoding(r, enc.token) {
			if w.Header().Get("Content-Type") == "" {
				w.Header().Set("Content-Type", "application/octet-stream") // not sniffed from the compressed bytes
			}
			w.Header().Set("Content-Encoding", enc.token)
			sendFile(w, r, dist, name+enc.suffix, name)
			return
		}
	}
	sendFile(w, r, dist, name, name)
}

// sendFile serves dist's file under name; a file that cannot be read (or an fs.FS whose files do not seek, which
// embed.FS's do) is a 500.
func sendFile(w http.ResponseWriter, r *http.Request, dist fs.FS, file, name string) {
	f, err := dist.Open(file)
	if err == nil {
		defer f.Close()
		var st fs.FileInfo
		body, seeks := f.(io.ReadSeeker)
		if st, err = f.Stat(); err == nil && seeks {
			http.ServeContent(w, r, name, st.ModTime(), body)
			return
		}
	}
	w.Header().Del("Content-Encoding")
	http.Error(w, "cannot read "+name, http.StatusInternalServerError)
}
