package httpx

import (
	"context"
	"net/http"
	"os"

	"tenfour/internal/platform/identity"
)

// StoredFile is a file the server keeps on disk (a recording) answered to a browser: ranged, so a player seeks.
type StoredFile struct {
	Path  string // on disk
	Name  string // the name a download is saved under
	Type  string // Content-Type
	Cache string // Cache-Control
	// Opened, when set, runs once the file is found, before the answer is written (what the operation log
	// records of a playback or download is in it before the client has the file).
	Opened func()
}

// Download reports whether the request asks for an attachment (`download=1` or `download=true`).
func Download(r *http.Request) bool {
	d := r.URL.Query().Get("download")
	return d == "1" || d == "true"
}

// ServeStored answers f with range requests, as an attachment when the request asks for one (Download). A file
// that is gone (or unreadable) is answered with missing.
func ServeStored(w http.ResponseWriter, r *http.Request, f StoredFile, missing error) {
	file, err := os.Open(f.Path)
	if err != nil {
		WriteError(w, r, missing)
		return
	}
	defer file.Close()
	st, err := file.Stat()
	if err != nil {
		WriteError(w, r, missing)
		return
	}
	if f.Opened != nil {
		f.Opened()
	}
	if Download(r) {
		w.Header().Set("Content-Disposition", `attachment; filename="`+f.Name+`"`)
	}
	w.Header().Set("Content-Type", f.Type)
	w.Header().Set("Cache-Control", f.Cache)
	http.ServeContent(w, r, f.Name, st.ModTime(), file)
}

// Recording is the handler of a recording a console fetches by its row id (GET …/recordFile {id, download?}):
// dispatchers only; find reads the customer's recording as the file to serve (db.ErrNotFound for an unknown id
// or another customer's), answered by ServeStored, or missing when its file is gone. Camera and video
// recordings are served by it alike.
func Recording[ID ~int64](find func(ctx context.Context, customerID int64, id ID) (StoredFile, error), missing error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		p := identity.Must(r.Context())
		if !p.IsDispatcher() {
			WriteError(w, r, ErrPermission)
			return
		}
		id, err := RowID[ID]("id", r.URL.Query().Get("id"))
		if err != nil {
			WriteError(w, r, err)
			return
		}
		f, err := find(r.Context(), p.CustomerID, id)
		if err != nil {
			WriteError(w, r, err)
			return
		}
		ServeStored(w, r, f, missing)
	}
}
