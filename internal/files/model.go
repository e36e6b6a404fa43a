// Package files is the file service (spec §7 "File service: POST /filews/upload/media"): uploads checked on
// their content (never on their name), a Storage for the bytes under the data directory, tenant-scoped
// downloads with range requests, and short-lived file tokens for terminals, which have no HTTP session.
// Messages, tones and the media cloud refer to uploaded files by id.
package files

import (
	"bytes"
	"net/http"
	"strings"
	"unicode/utf8"

	"tenfour/internal/platform/defaults"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/text"
)

// Kind is what a file is for: the four kinds of attachment the console and terminals show differently.
type Kind string

const (
	Image Kind = "image"
	File  Kind = "file"
	Audio Kind = "audio"
	Video Kind = "video"
)

// ParseKind reads a kind parameter ("" is allowed and means "decide from the content").
func ParseKind(s string) (Kind, bool) {
	switch k := Kind(strings.ToLower(strings.TrimSpace(s))); k {
	case "", Image, File, Audio, Video:
		return k, true
	}
	return "", false
}

// Limits are the largest uploads per kind, in bytes.
type Limits struct {
	Image, File, Audio, Video int64
}

// DefaultLimits are used for zero fields.
var DefaultLimits = Limits{Image: 10 << 20, File: 50 << 20, Audio: 20 << 20, Video: 200 << 20}

// Of returns the limit for a kind.
func (l Limits) Of(k Kind) int64 {
	switch k {
	case Image:
		return l.Image
	case Audio:
		return l.Audio
	case Video:
		return l.Video
	}
	return l.File
}

func (l Limits) max() int64 { return max(l.Image, l.File, l.Audio, l.Video) }

func (l Limits) withDefaults() Limits {
	defaults.Positive(&l.Image, DefaultLimits.Image)
	defaults.Positive(&l.File, DefaultLimits.File)
	defaults.Positive(&l.Audio, DefaultLimits.Audio)
	defaults.Positive(&l.Video, DefaultLimits.Video)
	return l
}

// Upload errors (docs/messages.md "Upload codes").
var (
	ErrEmpty    = httpx.E(http.StatusBadRequest, "70", "errors.file.empty", "the file is empty")
	ErrTooLarge = httpx.E(http.StatusRequestEntityTooLarge, "71", "errors.file.tooLarge", "the file is larger than allowed for its kind")
	ErrType     = httpx.E(http.StatusUnsupportedMediaType, "72", "errors.file.type", "this type of file is not allowed")
	ErrNoFile   = httpx.BadParam("file", "required (a multipart part named file)")
)

// allowed maps each detected content type to the kinds it may be uploaded as; the first is the default.
// "file" accepts every allowed type (an attachment shown as a download).
var allowed = map[string][]Kind{
	"image/png":                 {Image},
	"image/jpeg":                {Image},
	"image/gif":                 {Image},
	"image/webp":                {Image},
	"audio/mpeg":                {Audio},
	"audio/aac":                 {Audio},
	"audio/wave":                {Audio},
	"audio/amr":                 {Audio},
	"audio/mp4":                 {Audio},
	"audio/ogg":                 {Audio, Video},
	"video/mp4":                 {Video, Audio},
	"video/webm":                {Video, Audio}, // browsers record voice notes as audio-only WebM
	"video/quicktime":           {Video},
	"video/3gpp":                {Video, Audio},
	"video/avi":                 {Video},
	"application/pdf":           {File},
	"application/zip":           {File}, // also docx, xlsx, pptx
	"application/x-gzip":        {File},
	"text/plain; charset=utf-8": {File},
}

// Detect names the content type of a file from its first bytes (http.DetectContentType plus the voice and
// video containers it does not know) and the kind it is uploaded as. want "" picks the type's default kind;
// another kind must be one the type allows (any allowed type may be a "file"). Anything else is ErrType.
func Detect(head []byte, want Kind) (string, Kind, error) {
	mime := sniff(head)
	kinds, ok := allowed[mime]
	if !ok {
		return mime, "", ErrType
	}
	switch {
	case want == "":
		return mime, kinds[0], nil
	case want == File:
		return mime, File, nil
	}
	for _, k := range kinds {
		if k == want {
			return mime, k, nil
		}
	}
	return mime, "", ErrType
}

func sniff(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte("#!AMR")):
		return "audio/amr"
	case len(head) >= 12 && string(head[4:8]) == "ftyp":
		brand := string(head[8:12])
		switch {
		case strings.HasPrefix(brand, "M4A"), strings.HasPrefix(brand, "M4B"):
			return "audio/mp4"
		case strings.HasPrefix(brand, "3gp"), strings.HasPrefix(brand, "3g2"):
			return "video/3gpp"
		case brand == "qt  ":
			return "video/quicktime"
		}
		return "video/mp4"
	case len(head) >= 3 && head[0] == 0xff && head[1]&0xf6 == 0xf0:
		return "audio/aac" // ADTS: 12 sync bits, layer 00
	case len(head) >= 3 && head[0] == 0xff && head[1]&0xe0 == 0xe0 && head[1]&0x18 != 0x08 && head[1]&0x06 == 0x02 &&
		head[2]&0xf0 != 0xf0 && head[2]&0x0c != 0x0c:
		return "audio/mpeg" // an MPEG layer III frame without an ID3 tag
	}
	ct := http.DetectContentType(head)
	switch ct {
	case "application/ogg":
		return "audio/ogg"
	case "text/plain; charset=utf-16be", "text/plain; charset=utf-16le":
		return "" // not allowed: keep text files UTF-8
	}
	if ct == "text/plain; charset=utf-8" && !utf8.Valid(trimPartialRune(head)) {
		return "application/octet-stream"
	}
	return ct
}

// trimPartialRune drops a UTF-8 sequence cut by the end of the sniffed head.
func trimPartialRune(b []byte) []byte {
	for i := 0; i < utf8.UTFMax && i < len(b); i++ {
		if utf8.Valid(b[:len(b)-i]) {
			return b[:len(b)-i]
		}
	}
	return b
}

// CleanName makes an uploaded file's name safe to show and to put in a Content-Disposition header: the last
// path element, without the characters a name may not hold (text.IllegalNameRune: controls, bidirectional
// overrides that make "gpj.exe" read "exe.jpg", zero-width characters, invalid UTF-8) or quotes, in NFC, at
// most 200 characters. It is never used as a path.
func CleanName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	var b strings.Builder
	n := 0
	for _, r := range name {
		if text.IllegalNameRune(r) || r == '"' {
			continue
		}
		if n == 200 {
			break
		}
		b.WriteRune(r)
		n++
	}
	s, _ := text.Name(b.String()) // always valid: every rune it would refuse is gone
	if s == "." || s == ".." {
		return ""
	}
	return s
}

// Info is a stored file as clients see it.
type Info struct {
	ID         string `json:"id"`
	Kind       Kind   `json:"kind"`
	Mime       string `json:"mime"`
	Name       string `json:"name"`
	Size       int64  `json:"size"`
	SHA256     string `json:"sha256"`
	URL        string `json:"url"` // relative: /filews/files/{id}
	UploadedBy string `json:"uploadedBy"`
	Time       int64  `json:"time"`
	CustomerID int64  `json:"-"`
}

// FilesPath is where files are served; URL(id) is a file's address.
const FilesPath = "/filews/files/"

// URL is the address of a file.
func URL(id string) string { return FilesPath + id }

// Ref turns a file reference a client sent — a bare id, or a URL or path ending in /filews/files/{id}, with
// or without a query — into an id; "" when it is neither.
func Ref(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, "?#"); i >= 0 {
		s = s[:i]
	}
	if i := strings.LastIndex(s, FilesPath); i >= 0 {
		s = s[i+len(FilesPath):]
	}
	if !ValidID(s) {
		return ""
	}
	return s
}

// ValidID tells whether s has the shape of a file id (32 lower-case hex digits).
func ValidID(s string) bool {
	if len(s) != 32 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
