// Package filetest helps tests of the file service and its users: sample files of every allowed (and some
// refused) type, and a multipart upload client for a test server.
package filetest

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"strings"
	"testing"

	"tenfour/internal/testkit"
)

// PNG is a small valid PNG image.
func PNG() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	img.Set(1, 1, color.RGBA{200, 10, 10, 255})
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}

// JPEG is a small valid JPEG image.
func JPEG() []byte {
	var b bytes.Buffer
	_ = jpeg.Encode(&b, image.NewGray(image.Rect(0, 0, 8, 8)), nil)
	return b.Bytes()
}

// WAVOf is a WAV file of exactly size bytes (at least len(WAV(0))).
func WAVOf(size int) []byte { return WAV(size - len(WAV(0))) }

// WAV is a PCM WAV file with n bytes of silence.
func WAV(n int) []byte {
	var b bytes.Buffer
	b.WriteString("RIFF")
	_ = binary.Write(&b, binary.LittleEndian, uint32(36+n))
	b.WriteString("WAVEfmt ")
	_ = binary.Write(&b, binary.LittleEndian, []any{uint32(16), uint16(1), uint16(1), uint32(8000), uint32(16000), uint16(2), uint16(16)})
	b.WriteString("data")
	_ = binary.Write(&b, binary.LittleEndian, uint32(n))
	b.Write(make([]byte, n))
	return b.Bytes()
}

// MP4 is the start of an MP4 video (an ftyp box) followed by n bytes.
func MP4(n int) []byte {
	b := append([]byte{0, 0, 0, 0x18}, []byte("ftypisom\x00\x00\x02\x00isomiso2")...)
	return append(b, make([]byte, n)...)
}

// PDF is a tiny PDF document.
func PDF() []byte {
	return []byte("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")
}

// HTML is a page with a script: never accepted, whatever its name or declared type.
func HTML() []byte {
	return []byte("<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>")
}

// EXE is the start of a Windows program.
func EXE() []byte { return append([]byte("MZ\x90\x00\x03\x00\x00\x00"), make([]byte, 64)...) }

// Part is one multipart part; a part with a FileName is a file.
type Part struct {
	Name, FileName, ContentType string
	Body                        []byte
}

// Upload posts a multipart form to the file service; token "" sends none in the headers.
func Upload(t testing.TB, s *testkit.Server, token string, parts ...Part) testkit.Reply {
	t.Helper()
	r, err := Send(s.URL, token, parts...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Send is Upload to a server at base that answers an error instead of failing the test: safe off the test's
// goroutine (uploads in parallel).
func Send(base, token string, parts ...Part) (testkit.Reply, error) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for _, p := range parts {
		h := textproto.MIMEHeader{}
		cd := `form-data; name="` + p.Name + `"`
		if p.FileName != "" {
			cd += `; filename="` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(p.FileName) + `"`
		}
		h.Set("Content-Disposition", cd)
		if p.ContentType != "" {
			h.Set("Content-Type", p.ContentType)
		}
		w, err := mw.CreatePart(h)
		if err != nil {
			return testkit.Reply{}, err
		}
		w.Write(p.Body)
	}
	mw.Close()
	return send(base, token, mw.FormDataContentType(), body.Bytes())
}

// UploadURL is Upload to a server at base (http://host:port).
func UploadURL(t testing.TB, base, token string, parts ...Part) testkit.Reply {
	t.Helper()
	return Upload(t, &testkit.Server{URL: base}, token, parts...)
}

// File is a file part named "file".
func File(name string, body []byte) Part { return Part{Name: "file", FileName: name, Body: body} }

// Post sends a raw body to the upload endpoint.
func Post(t testing.TB, s *testkit.Server, token, contentType string, body []byte) testkit.Reply {
	t.Helper()
	r, err := send(s.URL, token, contentType, body)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func send(base, token, contentType string, body []byte) (testkit.Reply, error) {
	req, err := http.NewRequest(http.MethodPost, base+"/filews/upload/media", bytes.NewReader(body))
	if err != nil {
		return testkit.Reply{}, err
	}
	req.Header.Set("Content-Type", contentType)
	if token != "" {
		req.Header.Set("token", token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return testkit.Reply{}, err
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	r := testkit.Reply{Status: res.StatusCode, Header: res.Header}
	if err := json.Unmarshal(raw, &r); err != nil {
		return r, fmt.Errorf("upload: not an envelope (%d): %s", res.StatusCode, raw)
	}
	return r, nil
}

// Uploaded is the result of a successful upload.
type Uploaded struct {
	ID, Kind, Mime, Name, URL, SHA256, UploadedBy string
	Size                                          int64
}

// MustUpload uploads one file and returns its result, failing the test on any error.
func MustUpload(t testing.TB, s *testkit.Server, token, name string, body []byte, kind string) Uploaded {
	t.Helper()
	parts := []Part{}
	if kind != "" {
		parts = append(parts, Part{Name: "kind", Body: []byte(kind)})
	}
	r := Upload(t, s, token, append(parts, File(name, body))...)
	if r.Code != "0" {
		t.Fatalf("upload %s: %+v", name, r)
	}
	var u Uploaded
	r.Into(t, &u)
	return u
}

// Get downloads a path of the test server with optional headers (k, v pairs).
func Get(t testing.TB, s *testkit.Server, path string, headers ...string) (*http.Response, []byte) {
	t.Helper()
	return GetURL(t, s.URL+path, headers...)
}

// GetURL downloads a URL with optional headers (k, v pairs).
func GetURL(t testing.TB, u string, headers ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, b
}
