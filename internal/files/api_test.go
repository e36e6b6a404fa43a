package files_test

import (
	"bytes"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tenfour/internal/config"
	"tenfour/internal/files/filetest"
	"tenfour/internal/testkit"
)

type world struct {
	s        *testkit.Server
	a, b     testkit.Fleet
	tokA     string // dispatcher of customer a
	tokB     string // dispatcher of customer b
	dataDir  string
	imageMax int64
}

// newWorld is a server with small upload limits and two customers; opts change its configuration further.
func newWorld(t *testing.T, engine string, opts ...func(*config.Config)) *world {
	t.Helper()
	w := &world{imageMax: 64 << 10}
	w.s = testkit.StartOn(t, engine, func(c *config.Config) {
		c.Uploads = config.Uploads{Image: w.imageMax, File: 1 << 20, Audio: 1 << 20, Video: 2 << 20}
		w.dataDir = c.DataDir
		for _, o := range opts {
			o(c)
		}
	})
	w.a = testkit.NewFleet(t, w.s.DB, "1", 2, 1)
	w.b = testkit.NewFleet(t, w.s.DB, "2", 1, 1)
	w.tokA, w.tokB = w.a.Token, w.b.Token
	return w
}

// count counts the rows of files.
func (w *world) count(t *testing.T) int {
	t.Helper()
	return testkit.Count(t, w.s.DB, `SELECT COUNT(*) FROM files`)
}

// stored counts the files in the storage directory (temporary files included).
func (w *world) stored(t *testing.T) int {
	t.Helper()
	n := 0
	filepath.WalkDir(filepath.Join(w.dataDir, "files"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return nil
	})
	return n
}

func TestUploadScenarios(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := newWorld(t, engine)
		term := testkit.Terminal(t, w.s.URL, w.a.Terminals[0], testkit.Password)
		ft := term.Call("file.token", nil)
		var tok struct {
			Token     string
			ExpiresAt int64
			UploadURL string
		}
		ft.Into(t, &tok)
		if ft.Code != "0" || !strings.HasPrefix(tok.Token, "ft1.") || tok.UploadURL != "/filews/upload/media" ||
			tok.ExpiresAt < time.Now().Add(9*time.Minute).UnixMilli() {
			t.Fatalf("file.token %+v %+v", ft, tok)
		}
		png := filetest.PNG()
		big := append(filetest.PNG(), make([]byte, w.imageMax)...)
		type part = filetest.Part
		file := filetest.File
		cases := []struct {
			name     string
			token    string
			parts    []part
			code     string
			status   int
			kind     string
			mime     string
			uploader string
		}{
			{"image by a dispatcher", w.tokA, []part{file("site.png", png)}, "0", 200, "image", "image/png", w.a.Dispatcher},
			{"token as the first part", "", []part{{Name: "token", Body: []byte(w.tokA)}, file("a.png", png)}, "0", 200, "image", "image/png", w.a.Dispatcher},
			{"terminal with its file token", tok.Token, []part{file("p.jpg", filetest.JPEG())}, "0", 200, "image", "image/jpeg", w.a.Terminals[0]},
			{"field named media", w.tokA, []part{{Name: "media", FileName: "v.mp4", Body: filetest.MP4(100)}}, "0", 200, "video", "video/mp4", w.a.Dispatcher},
			{"audio", w.tokA, []part{file("tone.wav", filetest.WAV(1000))}, "0", 200, "audio", "audio/wave", w.a.Dispatcher},
			{"pdf", w.tokA, []part{file("report.pdf", filetest.PDF())}, "0", 200, "file", "application/pdf", w.a.Dispatcher},
			{"image sent as a file", w.tokA, []part{{Name: "kind", Body: []byte("file")}, file("x.png", png)}, "0", 200, "file", "image/png", w.a.Dispatcher},
			{"mp4 as audio", w.tokA, []part{{Name: "kind", Body: []byte("audio")}, file("note.m4a", filetest.MP4(10))}, "0", 200, "audio", "video/mp4", w.a.Dispatcher},
			{"no token", "", []part{file("a.png", png)}, "105", 401, "", "", ""},
			{"unknown token", "nope", []part{file("a.png", png)}, "105", 401, "", "", ""},
			{"forged file token", tok.Token + "x", []part{file("a.png", png)}, "105", 401, "", "", ""},
			{"token after the file", "", []part{file("a.png", png), {Name: "token", Body: []byte(w.tokA)}}, "105", 401, "", "", ""},
			{"empty file", w.tokA, []part{file("empty.png", nil)}, "70", 400, "", "", ""},
			{"no file part", w.tokA, []part{{Name: "kind", Body: []byte("image")}}, "400", 400, "", "", ""},
			{"html named .png sent as image/png", w.tokA, []part{{Name: "file", FileName: "cat.png", ContentType: "image/png", Body: filetest.HTML()}}, "72", 415, "", "", ""},
			{"program named .pdf", w.tokA, []part{{Name: "file", FileName: "invoice.pdf", ContentType: "application/pdf", Body: filetest.EXE()}}, "72", 415, "", "", ""},
			{"pdf asked as image", w.tokA, []part{{Name: "kind", Body: []byte("image")}, file("x.pdf", filetest.PDF())}, "72", 415, "", "", ""},
			{"unknown kind", w.tokA, []part{{Name: "kind", Body: []byte("script")}, file("a.png", png)}, "400", 400, "", "", ""},
			{"image over its limit", w.tokA, []part{file("big.png", big)}, "71", 413, "", "", ""},
		}
		for _, tc := range cases {
			before, beforeFiles := w.count(t), w.stored(t)
			r := filetest.Upload(t, w.s, tc.token, tc.parts...)
			if r.Code != tc.code || r.Status != tc.status {
				t.Errorf("%s: %d %+v, want %d %s", tc.name, r.Status, r, tc.status, tc.code)
				continue
			}
			if tc.code != "0" {
				if w.count(t) != before || w.stored(t) != beforeFiles {
					t.Errorf("%s: something was kept", tc.name)
				}
				continue
			}
			var u filetest.Uploaded
			r.Into(t, &u)
			if u.Kind != tc.kind || u.Mime != tc.mime || u.UploadedBy != tc.uploader || len(u.ID) != 32 ||
				u.URL != "/filews/files/"+u.ID || u.Size == 0 || len(u.SHA256) != 64 {
				t.Errorf("%s: %+v", tc.name, u)
			}
			if w.count(t) != before+1 || w.stored(t) != beforeFiles+1 {
				t.Errorf("%s: not stored once", tc.name)
			}
		}
		// Not multipart at all.
		if r := filetest.Post(t, w.s, w.tokA, "application/json", []byte(`{"file":"x"}`)); r.Code != "400" {
			t.Errorf("json body: %+v", r)
		}
		// Exactly at the limit is accepted.
		exact := append(filetest.PNG(), make([]byte, w.imageMax-int64(len(filetest.PNG())))...)
		if r := filetest.Upload(t, w.s, w.tokA, filetest.File("exact.png", exact)); r.Code != "0" {
			t.Errorf("image at its limit: %+v", r)
		}
		// The stored name is cleaned; the path is never the client's.
		u := filetest.MustUpload(t, w.s, w.tokA, "../../../etc/passwd.png", png, "")
		if u.Name != "passwd.png" {
			t.Errorf("name %q", u.Name)
		}
		if _, err := os.Stat(filepath.Join(w.dataDir, "files", u.ID[:2], u.ID)); err != nil {
			t.Errorf("file not under its id: %v", err)
		}
	})
}

func TestDownload(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := newWorld(t, engine)
		body := filetest.WAV(4000)
		u := filetest.MustUpload(t, w.s, w.tokA, "shift \"A\" 中文.wav", body, "")

		res, got := filetest.Get(t, w.s, u.URL, "token", w.tokA)
		if res.StatusCode != 200 || !bytes.Equal(got, body) || res.Header.Get("Content-Type") != "audio/wave" ||
			res.Header.Get("X-Content-Type-Options") != "nosniff" || res.Header.Get("Accept-Ranges") != "bytes" ||
			!strings.HasPrefix(res.Header.Get("Content-Disposition"), "inline") {
			t.Fatalf("download %d %v", res.StatusCode, res.Header)
		}
		// Range requests (seeking in audio and video players).
		res, got = filetest.Get(t, w.s, u.URL, "token", w.tokA, "Range", "bytes=10-19")
		if res.StatusCode != http.StatusPartialContent || !bytes.Equal(got, body[10:20]) ||
			res.Header.Get("Content-Range") != "bytes 10-19/"+itoa(len(body)) {
			t.Fatalf("range %d %v %q", res.StatusCode, res.Header, got)
		}
		res, _ = filetest.Get(t, w.s, u.URL, "token", w.tokA, "Range", "bytes=99999-")
		if res.StatusCode != http.StatusRequestedRangeNotSatisfiable {
			t.Fatalf("range beyond the end %d", res.StatusCode)
		}
		// Cached copies are revalidated by content hash.
		res, _ = filetest.Get(t, w.s, u.URL, "token", w.tokA, "If-None-Match", `"`+u.SHA256+`"`)
		if res.StatusCode != http.StatusNotModified {
			t.Fatalf("etag %d", res.StatusCode)
		}
		// ?download=1 and documents are attachments.
		res, _ = filetest.Get(t, w.s, u.URL+"?download=1", "token", w.tokA)
		if cd := res.Header.Get("Content-Disposition"); !strings.HasPrefix(cd, "attachment") || !strings.Contains(cd, "filename*=utf-8''") {
			t.Fatalf("download disposition %q", cd)
		}
		// The cookie a browser sends works (img/audio tags).
		req, _ := http.NewRequest(http.MethodGet, w.s.URL+u.URL, nil)
		req.AddCookie(&http.Cookie{Name: "token", Value: w.tokA})
		if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != 200 {
			t.Fatalf("cookie %v %v", res, err)
		}
		// A terminal's file token, of the same customer.
		term := testkit.Terminal(t, w.s.URL, w.a.Terminals[1], testkit.Password)
		var ft struct{ Token string }
		term.Call("file.token", nil).Into(t, &ft)
		if res, got := filetest.Get(t, w.s, u.URL+"?token="+ft.Token); res.StatusCode != 200 || !bytes.Equal(got, body) {
			t.Fatalf("file token download %d", res.StatusCode)
		}
		for _, tc := range []struct {
			name, path, token string
			status            int
		}{
			{"no token", u.URL, "", 401},
			{"other customer", u.URL, w.tokB, 404},
			{"unknown id", "/filews/files/0123456789abcdef0123456789abcdef", w.tokA, 404},
			{"malformed id", "/filews/files/..%2f..%2fetc", w.tokA, 404},
			{"forged file token", u.URL + "?token=" + ft.Token[:len(ft.Token)-2] + "AA", "", 401},
		} {
			args := []string{}
			if tc.token != "" {
				args = []string{"token", tc.token}
			}
			if res, _ := filetest.Get(t, w.s, tc.path, args...); res.StatusCode != tc.status {
				t.Errorf("%s: %d, want %d", tc.name, res.StatusCode, tc.status)
			}
		}
	})
}

func itoa(n int) string {
	b := []byte{}
	for n > 0 || len(b) == 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}
