package ffchild

// ffmpeg as a boundary (docs/adr/0030): whatever a client hands the server that ffmpeg reads — an uploaded file,
// a camera's address, a camera's keyframe — becomes an Input here, and Command is the one way to run ffmpeg on
// it. An Input names the demuxer ffmpeg must use (chosen by a real sniff, never by ffmpeg's own probing, which
// would follow an HLS playlist or a concat list to other files), the protocols that input needs and nothing
// else (-protocol_whitelist: "file" for an upload, "rtsp,rtp,tcp,udp" for a camera, "pipe" for stdin), how
// much of it may be read (-t); an Output caps what is written (-fs); the child runs in an empty working
// directory outside the data directory, so a relative path inside anything it reads names nothing of ours.

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Kind is where an Input's bytes come from.
type Kind int

// The kinds of input.
const (
	// KindFile is a file a client uploaded, saved by the server (CreateInput): read with the file protocol only.
	KindFile Kind = iota + 1
	// KindCamera is a camera's rtsp:// or rtsps:// address a client registered: RTSP and its transports only.
	KindCamera
	// KindPipe is bytes the server writes to the child's stdin (a camera's keyframe): the pipe protocol only.
	KindPipe
)

// Input is one thing ffmpeg reads; only the constructors below make one (AudioFile, CameraURL, Pipe).
type Input struct {
	kind      Kind
	format    string   // the forced demuxer (-f)
	whitelist []string // -protocol_whitelist
	url       string   // -i
	opts      []string // demuxer options of this kind (RTSP transport, timeouts)
	// MaxDuration caps how much of the input is read (-t before -i); 0 reads it all (a live camera pull).
	MaxDuration time.Duration
}

// Errors of the constructors.
var (
	// ErrNotAudio: an upload is none of the audio formats (SniffAudio).
	ErrNotAudio = errors.New("ffchild: not an MP3, WAV, Ogg or FLAC file")
	// ErrBadURL: a camera address is not rtsp:// or rtsps:// with a host, or carries control characters
	// (raw or percent-encoded: ffmpeg decodes the user name and password into RTSP headers).
	ErrBadURL = errors.New("ffchild: not a plain rtsp:// or rtsps:// address")
)

// The protocols each kind may use. tls only for rtsps://.
var (
	fileProtocols   = []string{"file"}
	cameraProtocols = []string{"rtsp", "rtp", "tcp", "udp"}
	pipeProtocols   = []string{"pipe"}
	pipeFormats     = []string{"h264"}
	audioFormats    = []string{FormatMP3, FormatWAV, FormatOgg, FormatFLAC}
)

// AudioFile is an uploaded file at path (absolute: the server saved it, see CreateInput), read as the audio
// format SniffAudio finds in it; ErrNotAudio when it finds none.
func AudioFile(path string, maxDuration time.Duration) (Input, error) {
	if !filepath.IsAbs(path) {
		return Input{}, fmt.Errorf("ffchild: input path %q is not absolute", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return Input{}, err
	}
	format := SniffAudio(f)
	f.Close()
	if format == "" {
		return Input{}, ErrNotAudio
	}
	// "file:" says which protocol even for a path with a colon in it
	return Input{kind: KindFile, format: format, whitelist: fileProtocols, url: "file:" + path, MaxDuration: maxDuration}, nil
}

// CameraURL is a camera's address pulled over RTSP (interleaved in TCP, or RTP over UDP when udp), each
// connection and read bounded by timeout.
func CameraURL(raw string, udp bool, timeout time.Duration) (Input, error) {
	if err := CheckCameraURL(raw); err != nil {
		return Input{}, err
	}
	transport := "tcp"
	if udp {
		transport = "udp"
	}
	opts := []string{"-fflags", "nobuffer", "-flags", "low_delay", "-probesize", "32", "-analyzeduration", "0",
		"-rtsp_transport", transport}
	if timeout > 0 {
		opts = append(opts, "-timeout", strconv.FormatInt(timeout.Microseconds(), 10))
	}
	return Input{kind: KindCamera, format: "rtsp", whitelist: cameraWhitelist(raw), url: raw, opts: opts}, nil
}

// cameraWhitelist is the protocols of a camera's address: RTSP's, and tls for rtsps://.
func cameraWhitelist(raw string) []string {
	if strings.HasPrefix(strings.ToLower(raw), "rtsps:") {
		return append(slices.Clone(cameraProtocols), "tls")
	}
	return cameraProtocols
}

// CheckCameraURL accepts rtsp:// and rtsps:// addresses with a host and without control characters or spaces,
// raw or percent-encoded anywhere (user name, password, path, query): ffmpeg decodes the user info into the
// RTSP request's headers, so "%0d%0a" there would add headers of the caller's choosing.
func CheckCameraURL(raw string) error {
	if raw == "" || !utf8.ValidString(raw) || hasControl(raw) {
		return ErrBadURL
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "rtsp" && u.Scheme != "rtsps") || u.Hostname() == "" || u.Opaque != "" {
		return ErrBadURL
	}
	dec, err := url.PathUnescape(raw)
	if err != nil || hasControl(dec) || !utf8.ValidString(dec) {
		return ErrBadURL
	}
	if u.User != nil {
		pw, _ := u.User.Password()
		if hasControl(u.User.Username()) || hasControl(pw) {
			return ErrBadURL
		}
	}
	return nil
}

func hasControl(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r == 0x7f || (r >= 0x80 && r < 0xa0) })
}

// Pipe is bytes of a format the server writes to stdin (KindPipe): "h264", a camera's Annex-B keyframe (the only
// pipe since a SIP call's audio is transcoded in process, docs/adr/0037).
func Pipe(format string, maxDuration time.Duration) (Input, error) {
	if !slices.Contains(pipeFormats, format) {
		return Input{}, fmt.Errorf("ffchild: no pipe format %q", format)
	}
	return Input{kind: KindPipe, format: format, whitelist: pipeProtocols, url: "pipe:0", MaxDuration: maxDuration}, nil
}

// Output is what ffmpeg writes: Args (the server's own codec, filter and muxer options, never another -i and
// never text a client chose), its Target (an
// absolute path, "pipe:1", or an rtp:// address of ours), at most MaxBytes (-fs; 0: a live output, no cap).
type Output struct {
	Args     []string
	Target   string
	MaxBytes int64
}

// Args is ffmpeg's command line for in → out: the common options, the input's own, -protocol_whitelist, -f and
// -t, then -i, then the output's options, -fs and the target. It refuses an Input no constructor made and an
// Output that would open another input.
func Args(in Input, out Output) ([]string, error) {
	if err := in.valid(); err != nil {
		return nil, err
	}
	for _, a := range out.Args {
		if a == "-i" || strings.HasPrefix(a, "-protocol_whitelist") {
			return nil, fmt.Errorf("ffchild: output option %q", a)
		}
	}
	if out.Target == "" || strings.HasPrefix(out.Target, "-") {
		return nil, fmt.Errorf("ffchild: output target %q", out.Target)
	}
	args := []string{"-hide_banner", "-loglevel", "error"}
	if in.kind != KindPipe {
		args = append(args, "-nostdin")
	}
	args = append(args, in.opts...)
	args = append(args, "-protocol_whitelist", strings.Join(in.whitelist, ","), "-f", in.format)
	if in.MaxDuration > 0 {
		args = append(args, "-t", strconv.FormatFloat(in.MaxDuration.Seconds(), 'f', 3, 64))
	}
	args = append(args, "-i", in.url)
	args = append(args, out.Args...)
	if out.MaxBytes > 0 {
		args = append(args, "-fs", strconv.FormatInt(out.MaxBytes, 10))
	}
	return append(args, out.Target), nil
}

// valid tells whether an Input is one a constructor made (kind, format, protocols and URL agree).
func (in Input) valid() error {
	bad := fmt.Errorf("ffchild: input %d %q %q not made by a constructor", in.kind, in.format, in.url)
	if in.MaxDuration < 0 || in.url == "" || strings.HasPrefix(in.url, "-") {
		return bad
	}
	switch in.kind {
	case KindFile:
		if !slices.Contains(audioFormats, in.format) || !slices.Equal(in.whitelist, fileProtocols) ||
			!strings.HasPrefix(in.url, "file:/") {
			return bad
		}
	case KindCamera:
		if in.format != "rtsp" || !slices.Equal(in.whitelist, cameraWhitelist(in.url)) || CheckCameraURL(in.url) != nil {
			return bad
		}
	case KindPipe:
		if !slices.Contains(pipeFormats, in.format) || !slices.Equal(in.whitelist, pipeProtocols) || in.url != "pipe:0" {
			return bad
		}
	default:
		return bad
	}
	return nil
}

// BatchNice is the CPU priority (nice) of batch work — an upload's transcode, a snapshot's decode: it runs on the
// cores voice needs, so it takes what voice leaves (the load-isolation row of `make bench`: at the default
// priority, two transcodes on two cores added ~45 ms to another customer's PTT access p95; a snapshot's decode at
// nice 5 measured +21 ms in one of two runs, against +1–4 ms at 15). On a machine busy at the default priority a
// decode may so get no CPU before its deadline: the snapshot then answers "busy" (internal/camera). Camera pulls
// copy a live stream without decoding it and keep the default priority.
const BatchNice = 15

// Command is the one way the server runs ffmpeg on what a client supplied: the arguments from Args, the child
// tied to the server's life (Attrs), run in WorkDir. Batch work (a file or a pipe, not a camera pull) runs
// single-threaded at BatchNice, through the system's nice(1) when it has one. The caller sets
// Stdin/Stdout/Stderr and runs it.
func Command(ctx context.Context, ffmpeg string, in Input, out Output) (*exec.Cmd, error) {
	args, err := Args(in, out)
	if err != nil {
		return nil, err
	}
	dir, err := WorkDir()
	if err != nil {
		return nil, err
	}
	name := ffmpeg
	if in.kind != KindCamera {
		args = append([]string{"-threads", "1"}, args...) // a global option: ahead of everything Args checked
		if nice, err := exec.LookPath("nice"); err == nil {
			name, args = nice, append([]string{"-n", strconv.Itoa(BatchNice), ffmpeg}, args...)
		}
	}
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	Attrs(cmd)
	cmd.WaitDelay = 2 * time.Second
	return cmd, nil
}

// The process's own scratch space under the system temp directory ($TMPDIR; never the data directory): run/ is
// the children's empty working directory, in/ holds uploads while they are transcoded. Both are made again when
// missing (a temp cleaner may remove them from a long-running server).
var scratch struct {
	once sync.Once
	base string
	err  error
}

func scratchDir(sub string) (string, error) {
	scratch.once.Do(func() {
		base, err := os.MkdirTemp("", "tenfour-ffmpeg-")
		if err == nil {
			base, err = filepath.Abs(base)
		}
		scratch.base, scratch.err = base, err
	})
	if scratch.err != nil {
		return "", scratch.err
	}
	dir := filepath.Join(scratch.base, sub)
	return dir, os.MkdirAll(dir, 0o700)
}

// WorkDir is the empty directory every child of Command runs in.
func WorkDir() (string, error) { return scratchDir("run") }

// CreateInput creates a file for an upload ffmpeg will read, outside the data directory (the caller removes it).
func CreateInput(pattern string) (*os.File, error) {
	dir, err := scratchDir("in")
	if err != nil {
		return nil, err
	}
	return os.CreateTemp(dir, pattern)
}
