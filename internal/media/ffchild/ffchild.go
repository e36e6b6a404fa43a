// Package ffchild holds what the server's ffmpeg children share (camera pulls, snapshots and recordings in
// internal/camera, video-session recordings in internal/media): a child that dies with the server, the tail of
// its error output, and the input of a recorder's child: a pipe it inherits, carrying Matroska (docs/adr/0031).
package ffchild

import (
	"bytes"
	"os"
	"os/exec"
	"sync"
	"time"
)

// Tail keeps the last 4 KiB written to it (a child's stderr: what to log when it fails).
type Tail struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (t *Tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf.Write(p)
	if t.buf.Len() > 4096 {
		b := t.buf.Bytes()
		keep := append([]byte(nil), b[len(b)-4096:]...)
		t.buf.Reset()
		t.buf.Write(keep)
	}
	return len(p), nil
}

func (t *Tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.String()
}

// Feed is the write end of the pipe a recorder's child reads its input from ("pipe:3"; docs/adr/0031):
// inherited at its start, so nothing else can take it in between, and closed to end the input (ffmpeg then
// finishes its file and exits).
type Feed struct {
	f *os.File
}

// FeedArgs are ffmpeg's input options for a Feed carrying Matroska (what a recorder writes): the demuxer forced,
// the pipe the only protocol.
var FeedArgs = []string{"-protocol_whitelist", "pipe", "-f", "matroska", "-i", "pipe:3"}

// feedStall is how long a write may wait for a child that stopped reading before it fails.
const feedStall = 5 * time.Second

// StartFed starts cmd with a pipe as its file descriptor 3 and returns the pipe's write end.
func StartFed(cmd *exec.Cmd) (*Feed, error) {
	r, w, err := os.Pipe() // both ends close on exec: only the child's copy of r crosses over, as its fd 3
	if err != nil {
		return nil, err
	}
	cmd.ExtraFiles = append([]*os.File{r}, cmd.ExtraFiles...)
	err = cmd.Start()
	r.Close()
	if err != nil {
		w.Close()
		return nil, err
	}
	return &Feed{f: w}, nil
}

// Write writes all of p or fails: the child exited, or read nothing for feedStall.
func (f *Feed) Write(p []byte) (int, error) {
	_ = f.f.SetWriteDeadline(time.Now().Add(feedStall))
	return f.f.Write(p)
}

// Close ends the child's input.
func (f *Feed) Close() error { return f.f.Close() }
