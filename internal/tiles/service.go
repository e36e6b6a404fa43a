package tiles

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"tenfour/internal/platform/httpx"
)

// FileName is the archive the data directory may hold when no --tiles flag names one.
const FileName = "streets.pmtiles"

// ArchivePath is where the archive is served; the console's pmtiles protocol reads it by ranges.
const ArchivePath = "/tiles/streets.pmtiles"

// Schema is the layer schema the console's street style is written for (web/src/map/streets.ts).
const Schema = "protomaps"

// Service serves the street archive. The file is looked at on every request, not once at start: an operator
// who drops streets.pmtiles into the data directory (or replaces it with a newer build) needs no restart.
type Service struct {
	path string

	mu     sync.Mutex
	seen   fileKey // the file the cached header was read from
	header Header
}

type fileKey struct {
	size int64
	mod  time.Time
}

// Path is the archive --tiles names, or streets.pmtiles in the data directory when flag is empty.
func Path(flag, dataDir string) string {
	if flag != "" {
		return flag
	}
	return filepath.Join(dataDir, FileName)
}

// New serves the archive at path (Path). A flag naming a file that is not there, a file that is not an archive
// or one of raster tiles is logged once at start; the console is told there is no archive until there is one.
func New(path string, log *slog.Logger, explicit bool) *Service {
	s := &Service{path: path}
	f, h, err := s.open()
	switch {
	case err != nil && (explicit || !errors.Is(err, fs.ErrNotExist)):
		log.Warn("street map archive unusable; the console shows the online street tiles", "tiles", path, "err", err)
	case err == nil && h.TileType != TypeMVT:
		log.Warn("street map archive has raster tiles; the console draws vector (MVT) archives only", "tiles", path)
	}
	if f != nil {
		f.Close()
	}
	return s
}

// Routes mounts the archive and what the console is told about it (docs/api.md "Offline street maps"). Both are
// public, like the bundled basemap (/map/countries.geojson): street maps are no secret, and the map's workers
// fetch without the session's header.
func (s *Service) Routes(r httpx.Router) {
	r.Raw("GET "+ArchivePath, http.HandlerFunc(s.archive), false)
	r.Raw("GET /tiles/streets.json", http.HandlerFunc(s.info), false)
}

// open opens the archive and reads its header (again only when the file changed).
func (s *Service) open() (*os.File, Header, error) {
	f, err := os.Open(s.path)
	if err != nil {
		return nil, Header{}, err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = fmt.Errorf("%s is not a file", s.path)
	}
	if err != nil {
		f.Close()
		return nil, Header{}, err
	}
	key := fileKey{st.Size(), st.ModTime()}
	s.mu.Lock()
	defer s.mu.Unlock()
	if key != s.seen {
		h, err := ReadHeader(f)
		if err != nil {
			f.Close()
			return nil, Header{}, err
		}
		s.seen, s.header = key, h
	}
	return f, s.header, nil
}

// archive serves the file: http.ServeContent answers Range (206 with Content-Range, 416 for a range past the
// end), HEAD, If-None-Match and If-Range. The ETag changes with the file, so a pmtiles client that cached the
// header of the old archive notices the new one.
func (s *Service) archive(w http.ResponseWriter, r *http.Request) {
	f, _, err := s.open()
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		http.Error(w, "archive unreadable", http.StatusInternalServerError)
		return
	}
	w.Header().Set("ETag", etag(st))
	w.Header().Set("Content-Type", "application/vnd.pmtiles")
	// Revalidated on use (304 from the ETag), never taken stale: the file may be replaced under the same path.
	w.Header().Set("Cache-Control", "no-cache")
	http.ServeContent(w, r, "", st.ModTime(), f)
}

func etag(st fs.FileInfo) string {
	return `"` + strconv.FormatInt(st.Size(), 36) + "-" + strconv.FormatInt(st.ModTime().UnixNano(), 36) + `"`
}

// Info is what GET /tiles/streets.json answers: whether the server has a street archive and, when it has, where
// and what it covers (the header's bounds and zooms), so the console adds the street layers only then.
type Info struct {
	Archive bool        `json:"archive"`
	URL     string      `json:"url,omitempty"`
	Schema  string      `json:"schema,omitempty"`
	MinZoom uint8       `json:"minzoom,omitempty"`
	MaxZoom uint8       `json:"maxzoom,omitempty"`
	Bounds  *[4]float64 `json:"bounds,omitempty"`
	// Center is longitude, latitude and zoom.
	Center *[3]float64 `json:"center,omitempty"`
}

func (s *Service) info(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-cache")
	httpx.WriteJSON(w, http.StatusOK, s.Info())
}

// Info describes the archive as it is now (Archive false when there is none, or it is not a vector archive the
// console's street style can draw).
func (s *Service) Info() Info {
	f, h, err := s.open()
	if err != nil {
		return Info{}
	}
	f.Close()
	if h.TileType != TypeMVT {
		return Info{}
	}
	return Info{Archive: true, URL: ArchivePath, Schema: Schema, MinZoom: h.MinZoom, MaxZoom: h.MaxZoom,
		Bounds: &h.Bounds, Center: &[3]float64{h.Center[0], h.Center[1], float64(h.CenterZoom)}}
}
