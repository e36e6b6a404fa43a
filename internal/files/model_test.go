package files

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDetect(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	mp4 := []byte("\x00\x00\x00\x18ftypisom\x00\x00\x02\x00isomiso2")
	for _, tc := range []struct {
		name string
		head []byte
		want Kind
		mime string
		kind Kind
		err  error
	}{
		{"png", png, "", "image/png", Image, nil},
		{"png as file", png, File, "image/png", File, nil},
		{"png as audio", png, Audio, "", "", ErrType},
		{"jpeg", []byte("\xff\xd8\xff\xe0\x00\x10JFIF"), "", "image/jpeg", Image, nil},
		{"gif", []byte("GIF89a\x01\x00"), "", "image/gif", Image, nil},
		{"webp", []byte("RIFF\x10\x00\x00\x00WEBPVP8 "), "", "image/webp", Image, nil},
		{"wav", []byte("RIFF\x24\x00\x00\x00WAVEfmt "), "", "audio/wave", Audio, nil},
		{"mp3 with ID3", []byte("ID3\x03\x00\x00\x00"), "", "audio/mpeg", Audio, nil},
		{"mp3 frame", []byte("\xff\xfb\x90\x64\x00"), "", "audio/mpeg", Audio, nil},
		{"aac adts", []byte("\xff\xf1\x50\x80\x02"), "", "audio/aac", Audio, nil},
		{"amr", []byte("#!AMR\n\x3c"), "", "audio/amr", Audio, nil},
		{"ogg opus", []byte("OggS\x00\x02\x00\x00"), "", "audio/ogg", Audio, nil},
		{"mp4", mp4, "", "video/mp4", Video, nil},
		{"mp4 as audio", mp4, Audio, "video/mp4", Audio, nil},
		{"m4a", []byte("\x00\x00\x00\x20ftypM4A \x00\x00\x00\x00"), "", "audio/mp4", Audio, nil},
		{"3gp", []byte("\x00\x00\x00\x14ftyp3gp4\x00\x00\x00\x00"), "", "video/3gpp", Video, nil},
		{"quicktime", []byte("\x00\x00\x00\x14ftypqt  \x00\x00\x00\x00"), "", "video/quicktime", Video, nil},
		{"webm", []byte("\x1a\x45\xdf\xa3\x9f\x42\x86\x81\x01"), "", "video/webm", Video, nil},
		{"pdf", []byte("%PDF-1.7\n"), "", "application/pdf", File, nil},
		{"zip (docx)", []byte("PK\x03\x04\x14\x00"), "", "application/zip", File, nil},
		{"text", []byte("shift report\nall quiet"), "", "text/plain; charset=utf-8", File, nil},
		{"text as image", []byte("shift report"), Image, "", "", ErrType},
		{"html", []byte("<!DOCTYPE html><script>x</script>"), "", "", "", ErrType},
		{"html after blanks", []byte("  \n<html><body>"), File, "", "", ErrType},
		{"svg (script capable)", []byte("<?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\">"), "", "", "", ErrType},
		{"exe", []byte("MZ\x90\x00\x03\x00\x00\x00\x04\x00"), File, "", "", ErrType},
		{"elf", []byte("\x7fELF\x02\x01\x01"), "", "", "", ErrType},
		{"utf-16 text", []byte("\xff\xfeh\x00i\x00"), "", "", "", ErrType},
		{"binary garbage", []byte{0, 1, 2, 3, 4, 5, 250, 251}, "", "", "", ErrType},
	} {
		mime, kind, err := Detect(tc.head, tc.want)
		if !errors.Is(err, tc.err) || (err == nil && (mime != tc.mime || kind != tc.kind)) {
			t.Errorf("%s: %q %q %v, want %q %q %v", tc.name, mime, kind, err, tc.mime, tc.kind, tc.err)
		}
	}
}

func TestCleanNameAndRef(t *testing.T) {
	for in, want := range map[string]string{
		"photo.jpg":              "photo.jpg",
		"../../etc/passwd":       "passwd",
		`C:\Users\me\report.pdf`: "report.pdf",
		"bell\a\x00name\".png":   "bellname.png",
		"..":                     "",
		strings.Repeat("é", 300): strings.Repeat("é", 200),
		"  spaced name.txt  ":    "spaced name.txt",
		"中文 文件.pdf":              "中文 文件.pdf",
	} {
		if got := CleanName(in); got != want {
			t.Errorf("CleanName(%q) = %q, want %q", in, got, want)
		}
	}
	id := "0123456789abcdef0123456789abcdef"
	for in, want := range map[string]string{
		id:                    id,
		"/filews/files/" + id: id,
		"https://h:31023/filews/files/" + id + "?token=x": id,
		"/filews/files/" + id + "#a":                      id,
		"../" + id:                                        "",
		strings.ToUpper(id):                               "",
		id + "0":                                          "",
		"":                                                "",
	} {
		if got := Ref(in); got != want {
			t.Errorf("Ref(%q) = %q, want %q", in, got, want)
		}
	}
}

type failingReader struct{ n int }

func (f *failingReader) Read(p []byte) (int, error) {
	if f.n == 0 {
		return 0, errors.New("connection reset")
	}
	f.n--
	return copy(p, "abc"), nil
}

func TestLocalStorage(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	st, err := NewLocal(root)
	if err != nil {
		t.Fatal(err)
	}
	key := "abcdef0123456789abcdef0123456789"
	if n, err := st.Put(ctx, key, strings.NewReader("hello world")); err != nil || n != 11 {
		t.Fatalf("put: %d %v", n, err)
	}
	if _, err := os.Stat(filepath.Join(root, "ab", key)); err != nil {
		t.Fatalf("not stored where expected: %v", err)
	}
	info, err := st.Stat(ctx, key)
	if err != nil || info.Size != 11 {
		t.Fatalf("stat %+v %v", info, err)
	}
	f, err := st.Open(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	f.Seek(6, io.SeekStart)
	b, _ := io.ReadAll(f)
	f.Close()
	if string(b) != "world" {
		t.Fatalf("seek+read %q", b)
	}
	// Keys are never paths a client could choose.
	for _, bad := range []string{"../../x", "/etc/passwd", "ab/../../cd", "", strings.Repeat("g", 32)} {
		if _, err := st.Put(ctx, bad, strings.NewReader("x")); !errors.Is(err, errBadKey) {
			t.Errorf("put %q: %v", bad, err)
		}
		if _, err := st.Open(ctx, bad); !errors.Is(err, errBadKey) {
			t.Errorf("open %q: %v", bad, err)
		}
	}
	// A failed upload leaves nothing behind, not even a temporary file.
	other := "11111111111111111111111111111111"
	if _, err := st.Put(ctx, other, &failingReader{n: 3}); err == nil {
		t.Fatal("put from a failing reader succeeded")
	}
	if _, err := st.Stat(ctx, other); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("partial file kept: %v", err)
	}
	if left, _ := os.ReadDir(filepath.Join(root, "tmp")); len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}
	if err := st.Delete(ctx, key); err != nil {
		t.Fatal(err)
	}
	if err := st.Delete(ctx, key); err != nil {
		t.Fatalf("second delete: %v", err)
	}
	if _, err := st.Stat(ctx, key); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("deleted file still there: %v", err)
	}
}

func TestLimitReader(t *testing.T) {
	l := &limitReader{r: bytes.NewReader(make([]byte, 100)), left: 100}
	if n, err := io.Copy(io.Discard, l); err != nil || n != 100 {
		t.Fatalf("exactly at the limit: %d %v", n, err)
	}
	l = &limitReader{r: bytes.NewReader(make([]byte, 101)), left: 100}
	if _, err := io.Copy(io.Discard, l); !errors.Is(err, errTooLarge) {
		t.Fatalf("one byte over: %v", err)
	}
}
