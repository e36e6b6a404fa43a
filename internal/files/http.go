package files

import (
	"context"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/realtime"
)

// UploadPath is the spec's upload endpoint.
const UploadPath = "/filews/upload/media"

// Routes mounts the file service (spec §7 "File service"). It checks tokens itself: a console session token or
// a terminal's file token, in the `token` header, `Authorization: Bearer`, `?token=` or a multipart part named
// `token` placed before the file; a download also takes the `token` cookie (an upload never: docs/adr/0009).
func (s *Service) Routes(r httpx.Router) {
	r.Public("POST "+UploadPath, s.upload)
	r.Raw("GET "+FilesPath+"{id}", http.HandlerFunc(s.serve), false)
}

// Verbs: `file.token`, a file token for uploads and downloads (consoles and terminals).
func (s *Service) Verbs() []realtime.Verb {
	return []realtime.Verb{realtime.On("file.token", realtime.Anyone, s.sockToken)}
}

func (s *Service) sockToken(_ context.Context, c *realtime.Conn, _ struct{}) (any, error) {
	tok, exp := s.IssueToken(c.Principal())
	return map[string]any{"token": tok, "expiresAt": exp, "uploadUrl": UploadPath, "filesUrl": FilesPath}, nil
}

// POST /filews/upload/media (multipart: token?, kind?, file) → Info. A raw handler, not Bind: it streams a
// multipart body (the file is saved while it arrives, never decoded whole) and finds its token itself, perhaps
// in a part before the file.
func (s *Service) upload(w http.ResponseWriter, r *http.Request) (any, error) {
	// The largest kind plus room for the other parts; every kind's own limit is checked while it streams.
	r.Body = http.MaxBytesReader(w, r.Body, s.limits.max()+1<<20)
	ctx := r.Context()
	var p *identity.Principal
	if tok := auth.TokenFrom(r); tok != "" {
		got, err := s.Authenticate(ctx, tok)
		if err != nil {
			return nil, err
		}
		p = &got
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, httpx.BadParam("body", "multipart/form-data required")
	}
	var want Kind
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if e := readErr(err); e == ErrTooLarge {
				return nil, e
			}
			return nil, httpx.BadParam("body", "malformed multipart")
		}
		switch part.FormName() {
		case "token":
			v, err := smallPart(part)
			if err != nil {
				return nil, err
			}
			if p == nil {
				got, err := s.Authenticate(ctx, v)
				if err != nil {
					return nil, err
				}
				p = &got
			}
		case "kind":
			v, err := smallPart(part)
			if err != nil {
				return nil, err
			}
			k, ok := ParseKind(v)
			if !ok {
				return nil, httpx.BadParam("kind", "image, file, audio or video")
			}
			want = k
		case "file", "media":
			if p == nil {
				return nil, httpx.ErrToken
			}
			// The part's own Content-Type and file name say nothing about what it is: Save looks at the bytes.
			return s.Save(ctx, *p, part.FileName(), want, part)
		default:
			if _, err := io.Copy(io.Discard, io.LimitReader(part, 1<<20)); err != nil {
				return nil, readErr(err)
			}
		}
	}
	if p == nil {
		return nil, httpx.ErrToken
	}
	return nil, ErrNoFile
}

func smallPart(part io.Reader) (string, error) {
	b, err := io.ReadAll(io.LimitReader(part, 1025))
	if err != nil || len(b) > 1024 {
		return "", httpx.BadParam("body", "form value too long")
	}
	return strings.TrimSpace(string(b)), nil
}

// GET /filews/files/{id} — the file, with range requests; ?download=1 asks the browser to save it.
func (s *Service) serve(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	p, err := s.Authenticate(ctx, auth.ReadTokenFrom(r)) // a download: the cookie alone will do
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	f, err := s.Get(ctx, p.CustomerID, r.PathValue("id"))
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	body, err := s.storage.Open(ctx, f.ID)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	defer body.Close()
	h := w.Header()
	h.Set("Content-Type", f.Mime)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "sandbox; default-src 'none'")
	h.Set("Cache-Control", "private, max-age=86400")
	h.Set("ETag", `"`+f.SHA256+`"`)
	disposition := "inline"
	if f.Kind == File || r.URL.Query().Get("download") == "1" {
		disposition = "attachment"
	}
	name := f.Name
	if name == "" {
		name = f.ID
	}
	h.Set("Content-Disposition", mime.FormatMediaType(disposition, map[string]string{"filename": name}))
	http.ServeContent(w, r, "", time.UnixMilli(f.Time), body)
}
