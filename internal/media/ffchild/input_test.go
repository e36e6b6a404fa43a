package ffchild

import (
	"bytes"
	"context"
	"errors"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"tenfour/internal/testkit/probe"
)

// id3 is an ID3v2.4 tag header with a body of n bytes (syncsafe size), footer when footer is set.
func id3(n int, footer bool) []byte {
	flags := byte(0)
	if footer {
		flags = 0x10
	}
	b := []byte{'I', 'D', '3', 4, 0, flags, byte(n >> 21 & 0x7f), byte(n >> 14 & 0x7f), byte(n >> 7 & 0x7f), byte(n & 0x7f)}
	b = append(b, make([]byte, n)...)
	if footer {
		b = append(b, '3', 'D', 'I', 4, 0, flags, b[6], b[7], b[8], b[9])
	}
	return b
}

// frames is n MPEG-1 layer III frames of 128 kbit/s, 44.1 kHz (417 bytes each, no padding).
func frames(n int) []byte {
	var out []byte
	for range n {
		f := make([]byte, 417)
		copy(f, []byte{0xFF, 0xFB, 0x90, 0x64})
		out = append(out, f...)
	}
	return out
}

// The HLS playlist of the probe: a tag, then a playlist naming another customer's recording.
var playlist = []byte("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n../recordings/1/2026/11/28/call.ogg\n#EXT-X-ENDLIST\n")

func TestSniffAudio(t *testing.T) {
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"mp3 frames", frames(3), FormatMP3},
		{"one frame only", frames(1), ""},
		{"id3 then frames", append(id3(100, false), frames(2)...), FormatMP3},
		{"id3 with footer then frames", append(id3(2000, true), frames(2)...), FormatMP3},
		{"id3 with a big picture then frames", append(id3(300000, false), frames(2)...), FormatMP3},
		{"two tags then frames", append(append(id3(20, false), id3(30, false)...), frames(2)...), FormatMP3},
		{"tag, zero padding, frames", append(append(id3(20, false), make([]byte, 100)...), frames(2)...), FormatMP3},
		{"id3 then an HLS playlist", append(id3(0, false), playlist...), ""},
		{"bare ID3 letters then a playlist", append([]byte("ID3"), playlist...), ""},
		{"id3 whose size skips into the playlist", append(id3(5, false), append([]byte{0xFF, 0xFB}, playlist...)...), ""},
		{"a sync then garbage", append([]byte{0xFF, 0xFB, 0x90, 0x64}, make([]byte, 500)...), ""},
		{"reserved mpeg version", append([]byte{0xFF, 0xEB, 0x90, 0x64}, make([]byte, 500)...), ""},
		{"playlist", playlist, ""},
		{"wav", []byte("RIFF\x24\x00\x00\x00WAVEfmt "), FormatWAV},
		{"ogg", []byte("OggS\x00\x02\x00\x00"), FormatOgg},
		{"flac", []byte("fLaC\x00\x00\x00\x22"), FormatFLAC},
		{"text", []byte("hello, not audio"), ""},
		{"empty", nil, ""},
	} {
		if got := SniffAudio(bytes.NewReader(c.data)); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// Real files made by ffmpeg are recognised, tagged or not.
func TestSniffRealFiles(t *testing.T) {
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Fatal("ffmpeg is not installed: run `make test-deps`")
	}
	dir := t.TempDir()
	for _, c := range []struct{ file, want string }{
		{"a.mp3", FormatMP3}, {"tagged.mp3", FormatMP3}, {"a.wav", FormatWAV}, {"a.ogg", FormatOgg}, {"a.flac", FormatFLAC},
	} {
		out := filepath.Join(dir, c.file)
		args := []string{"-v", "error", "-f", "lavfi", "-i", "sine=d=0.5", "-ac", "1"}
		if c.file == "tagged.mp3" {
			args = append(args, "-metadata", "title=A tagged file", "-id3v2_version", "4")
		} else if c.want == FormatMP3 {
			args = append(args, "-id3v2_version", "0", "-write_xing", "0")
		}
		if msg, err := exec.Command("ffmpeg", append(args, out)...).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v %s", c.file, err, msg)
		}
		f, _ := os.Open(out)
		got := SniffAudio(f)
		f.Close()
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.file, got, c.want)
		}
	}
}

// checkArgs holds what every command line Args builds must hold: one -i, -f and -protocol_whitelist before it,
// protocols only from the input kind's list (tls only for rtsps://), and an input that names its protocol.
func checkArgs(t *testing.T, in Input, args []string) {
	t.Helper()
	at := func(opt string) int { return slices.Index(args, opt) }
	i, f, w := at("-i"), at("-f"), at("-protocol_whitelist")
	if i < 0 || f < 0 || w < 0 || f > i || w > i || i+1 >= len(args) || slices.Index(args[i+1:], "-i") >= 0 {
		t.Fatalf("-f, -protocol_whitelist, -i out of order or missing: %q", args)
	}
	if args[f+1] != in.format {
		t.Fatalf("-f %q for a %q input", args[f+1], in.format)
	}
	allowed := map[Kind][]string{KindFile: {"file"}, KindCamera: {"rtsp", "rtp", "tcp", "udp", "tls"}, KindPipe: {"pipe"}}[in.kind]
	src := args[i+1]
	for _, p := range strings.Split(args[w+1], ",") {
		if !slices.Contains(allowed, p) {
			t.Fatalf("protocol %q whitelisted for kind %d: %q", p, in.kind, args)
		}
		if p == "tls" && !strings.HasPrefix(strings.ToLower(src), "rtsps:") {
			t.Fatalf("tls whitelisted for %q", src)
		}
	}
	switch in.kind {
	case KindFile:
		if !strings.HasPrefix(src, "file:/") {
			t.Fatalf("file input %q", src)
		}
	case KindCamera:
		u, err := url.Parse(src)
		dec, _ := url.PathUnescape(src)
		if err != nil || (u.Scheme != "rtsp" && u.Scheme != "rtsps") || strings.ContainsAny(dec, "\r\n\x00") {
			t.Fatalf("camera input %q", src)
		}
	case KindPipe:
		if src != "pipe:0" {
			t.Fatalf("pipe input %q", src)
		}
	default:
		t.Fatalf("an input of kind %d passed", in.kind)
	}
}

func TestArgs(t *testing.T) {
	dir := t.TempDir()
	mp3 := filepath.Join(dir, "in.mp3")
	os.WriteFile(mp3, append(id3(10, true), frames(4)...), 0o600)
	exploit := filepath.Join(dir, "exploit.mp3")
	os.WriteFile(exploit, append(id3(0, false), playlist...), 0o600)
	in, err := AudioFile(mp3, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	args, err := Args(in, Output{Args: []string{"-c:a", "libmp3lame", "-f", "mp3"}, Target: "/tmp/out.mp3", MaxBytes: 1000})
	if err != nil {
		t.Fatal(err)
	}
	checkArgs(t, in, args)
	if got := strings.Join(args, " "); !strings.Contains(got, "-protocol_whitelist file -f mp3 -t 3600.000 -i file:"+mp3) ||
		!strings.HasSuffix(got, "-fs 1000 /tmp/out.mp3") {
		t.Fatalf("upload args %q", got)
	}
	if _, err := AudioFile(exploit, time.Hour); !errors.Is(err, ErrNotAudio) {
		t.Fatalf("ID3 + playlist: %v, want ErrNotAudio", err)
	}
	if _, err := Args(in, Output{Args: []string{"-i", "/etc/passwd"}, Target: "pipe:1"}); err == nil {
		t.Fatal("an output that opens a second input was accepted")
	}
	cam, err := CameraURL("rtsps://cam.example:322/live", true, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	args, _ = Args(cam, Output{Target: "rtp://127.0.0.1:5000"})
	checkArgs(t, cam, args)
	if got := strings.Join(args, " "); !strings.Contains(got, "-rtsp_transport udp -timeout 5000000 -protocol_whitelist rtsp,rtp,tcp,udp,tls -f rtsp -i rtsps://") {
		t.Fatalf("camera args %q", got)
	}
	for _, bad := range []string{"rtsp://u%0d%0aX-Evil:%201@cam/x", "rtsp://user:p%0Aw@cam/x", "rtsp://cam/x%00y",
		"rtsp://u\r\n@cam/x", "http://cam/x", "file:///etc/passwd", "rtsp:///x", "rtsp://cam/%zz"} {
		if _, err := CameraURL(bad, false, 0); !errors.Is(err, ErrBadURL) {
			t.Errorf("%q: %v, want ErrBadURL", bad, err)
		}
	}
	if _, err := Args(Input{kind: KindFile, format: "hls", whitelist: []string{"file"}, url: "file:/x"}, Output{Target: "pipe:1"}); err == nil {
		t.Fatal("a hand-made hls input was accepted")
	}
}

// A real ffmpeg: an upload kept outside the data directory is transcoded by a child running in the empty work
// directory, which is made again when a temp cleaner removed it.
func TestCommandRunsInWorkDir(t *testing.T) {
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Fatal("ffmpeg is not installed: run `make test-deps`")
	}
	wd, err := WorkDir()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(wd); err != nil { // as a temp cleaner would
		t.Fatal(err)
	}
	f, err := CreateInput("upload-*")
	if err != nil {
		t.Fatal(err)
	}
	defer os.Remove(f.Name())
	f.Close()
	if msg, err := exec.Command("ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=d=0.5", "-metadata", "title=t",
		"-f", "mp3", f.Name()).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, msg)
	}
	in, err := AudioFile(f.Name(), time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out.wav")
	cmd, err := Command(context.Background(), "ffmpeg", in, Output{Args: []string{"-f", "wav"}, Target: out, MaxBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if cmd.Dir != wd || !filepath.IsAbs(wd) || filepath.Dir(f.Name()) == wd {
		t.Fatalf("dir %q, work dir %q, input %q", cmd.Dir, wd, f.Name())
	}
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("transcode: %v %s", err, msg)
	}
	if st, err := os.Stat(out); err != nil || st.Size() < 40000 {
		t.Fatalf("output: %v %v", st, err)
	}
	if entries, _ := os.ReadDir(wd); len(entries) != 0 {
		t.Fatalf("work dir not empty: %v", entries)
	}
}

func TestLimiter(t *testing.T) {
	l := NewLimiter(Limits{Server: 3, PerCustomer: 2, Wait: 150 * time.Millisecond})
	ctx := context.Background()
	var held []func()
	for range 2 {
		r, err := l.Acquire(ctx, 1)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, r)
	}
	start := time.Now()
	if _, err := l.Acquire(ctx, 1); !errors.Is(err, ErrBusy) || time.Since(start) < 150*time.Millisecond {
		t.Fatalf("a customer's third slot: %v after %v, want ErrBusy after the wait", err, time.Since(start))
	}
	rb, err := l.Acquire(ctx, 2) // another customer still gets the server's last slot
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Acquire(ctx, 3); !errors.Is(err, ErrBusy) {
		t.Fatalf("past the server's slots: %v", err)
	}
	// a waiter gets the slot given back within its wait
	var wg sync.WaitGroup
	wg.Go(func() {
		r, err := l.Acquire(ctx, 1)
		if err != nil {
			t.Errorf("queued: %v", err)
			return
		}
		r()
	})
	probe.Eventually(t, 5*time.Second, "two holders and the waiter", func() bool { return holders(l, 1) == 3 })
	held[0]()
	held[0]() // twice: no effect
	wg.Wait()
	held[1]()
	rb()
	if l.Running() != 0 || len(l.custs) != 0 || len(l.server) != 0 {
		t.Fatalf("running %d, customers %d, server %d after all released", l.Running(), len(l.custs), len(l.server))
	}
	if l.Refused() != 2 {
		t.Fatalf("refused %d", l.Refused())
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	r, _ := l.Acquire(ctx, 1)
	r2, _ := l.Acquire(ctx, 1)
	if _, err := l.Acquire(cctx, 1); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	r()
	r2()
}

// holders is how many requests of a customer hold or wait for its slots.
func holders(l *Limiter, customer int64) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	if c := l.custs[customer]; c != nil {
		return c.refs
	}
	return 0
}

func FuzzSniffAudio(f *testing.F) {
	f.Add(frames(2))
	f.Add(append(id3(10, true), frames(2)...))
	f.Add(append(id3(0, false), playlist...))
	f.Add([]byte("RIFF\x24\x00\x00\x00WAVEfmt "))
	f.Add([]byte("OggS\x00"))
	f.Add([]byte("fLaC"))
	f.Add([]byte("ID3\x04\x00\x10\x7f\x7f\x7f\x7f"))
	f.Fuzz(func(t *testing.T, data []byte) {
		got := SniffAudio(bytes.NewReader(data))
		switch got {
		case "", FormatWAV, FormatOgg, FormatFLAC:
		case FormatMP3:
			// an MP3 is a frame header where its tags end, whatever came before
			var off int64
			r := bytes.NewReader(data)
			for range maxID3Tags {
				n, ok := id3Size(r, off)
				if !ok {
					break
				}
				off += n
			}
			for off < int64(len(data)) && data[off] == 0 {
				off++
			}
			if _, ok := frameAt(r, off); !ok {
				t.Fatalf("MP3 without a frame at %d", off)
			}
		default:
			t.Fatalf("format %q", got)
		}
		if bytes.Contains(data, []byte("#EXTM3U")) && got == FormatMP3 && bytes.HasPrefix(data, []byte("ID3")) &&
			bytes.Index(data, []byte("#EXTM3U")) < 14 {
			t.Fatal("a tag followed by a playlist is MP3")
		}
	})
}

func FuzzInputArgs(f *testing.F) {
	f.Add(uint8(1), "file:/tmp/x", "mp3", "file", "rtsp://cam/live", false, int64(0), "-c:a")
	f.Add(uint8(2), "rtsps://u:p@cam:322/x", "rtsp", "rtsp,rtp,tcp,udp,tls", "rtsps://u:p@cam:322/x", true, int64(5), "-f")
	f.Add(uint8(3), "pipe:0", "h264", "pipe", "rtsp://u%0d%0aX:1@cam/x", false, int64(-1), "-i")
	f.Add(uint8(2), "rtsp://cam/x", "rtsp", "rtsp,file,http", "file:///etc/passwd", false, int64(1), "-protocol_whitelist")
	f.Add(uint8(1), "file:../recordings/1/a.ogg", "hls", "file,http,crypto", "rtsp://cam/x%0a", true, int64(7), "copy")
	f.Fuzz(func(t *testing.T, kind uint8, src, format, whitelist, raw string, udp bool, dur int64, outArg string) {
		out := Output{Args: []string{outArg}, Target: "pipe:1"}
		// a hand-made Input: Args accepts only what a constructor would have made
		in := Input{kind: Kind(kind), format: format, whitelist: strings.Split(whitelist, ","), url: src, MaxDuration: time.Duration(dur)}
		if args, err := Args(in, out); err == nil {
			checkArgs(t, in, args)
		}
		if cam, err := CameraURL(raw, udp, time.Duration(dur)); err == nil {
			args, err := Args(cam, out)
			if err == nil {
				checkArgs(t, cam, args)
			} else if outArg != "-i" && !strings.HasPrefix(outArg, "-protocol_whitelist") {
				t.Fatalf("camera %q refused: %v", raw, err)
			}
		}
		if p, err := Pipe(format, time.Duration(dur)); err == nil {
			if args, err := Args(p, out); err == nil {
				checkArgs(t, p, args)
			}
		}
	})
}
