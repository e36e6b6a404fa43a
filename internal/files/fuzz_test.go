package files

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"tenfour/internal/platform/text"
)

// FuzzUploadMeta holds the invariants of what an upload's client controls besides the bytes it stores: the
// file name (CleanName: one path element, no quote, nothing a name may not hold, at most 200 characters,
// never "." or ".."), the kind asked for (ParseKind), the first bytes the content type is sniffed from
// (Detect: a refusal is ErrType, an acceptance an allowed type of the returned kind) and a file reference
// (Ref: an id or nothing).
func FuzzUploadMeta(f *testing.F) {
	for _, s := range []struct{ name, kind, head string }{
		{"photo.jpg", "image", "\xff\xd8\xff\xe0\x00\x10JFIF"},
		{"../../etc/passwd", "file", "root:x:0:0"},
		{`C:\Users\a\"voice".amr`, "audio", "#!AMR\n"},
		{"photo\u202egpj.exe", "", "MZ\x90\x00"},
		{"..", "video", "\x00\x00\x00\x18ftypmp42"},
		{"\xff\xfe", "x", "\xff\xf1"},
		{strings.Repeat("é", 300), "", "OggS"},
		{"/filews/files/0123456789abcdef0123456789abcdef?x=1", "image", "GIF89a"},
	} {
		f.Add(s.name, s.kind, []byte(s.head))
	}
	f.Fuzz(func(t *testing.T, name, kind string, head []byte) {
		n := CleanName(name)
		if strings.ContainsAny(n, `/\"`) || n == "." || n == ".." || !utf8.ValidString(n) || utf8.RuneCountInString(n) > 200 ||
			strings.ContainsFunc(n, text.IllegalNameRune) {
			t.Fatalf("CleanName(%q) = %q", name, n)
		}
		if again := CleanName(n); again != n {
			t.Fatalf("CleanName not stable: %q → %q → %q", name, n, again)
		}
		want, ok := ParseKind(kind)
		if !ok {
			want = ""
		}
		mime, k, err := Detect(head, want)
		if err != nil {
			if !errors.Is(err, ErrType) {
				t.Fatalf("Detect(%q, %q): %v", head, want, err)
			}
		} else if kinds, ok := allowed[mime]; !ok || (k != File && !slices.Contains(kinds, k)) {
			t.Fatalf("Detect(%q, %q) = %q, %q", head, want, mime, k)
		}
		if id := Ref(name); id != "" && !ValidID(id) {
			t.Fatalf("Ref(%q) = %q", name, id)
		}
	})
}
