package sip

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"sync/atomic"

	"tenfour/internal/media/ffchild"
)

// A call's audio crosses ffmpeg (docs/adr/0030, 0037 §3): one child per direction, fed through its stdin and read
// from its stdout. What is written to a child waits in a bounded queue; when the child falls behind, what does
// not fit is dropped (a late packet is worth nothing to a listener), never kept.

// transcodeQueue is how many writes (20 ms packets or Ogg pages) wait for a child: over a second of audio.
const transcodeQueue = 64

// The two directions' output options.
var (
	// toOpus: the phone's G.711 → Opus for the group call, 20 ms packets, one per Ogg page, each page written
	// as soon as it is whole.
	toOpus = []string{"-c:a", "libopus", "-b:a", "24k", "-application", "voip", "-frame_duration", "20", "-ac", "1",
		"-page_duration", "20000", "-flush_packets", "1", "-f", "ogg"}
	// toG711 (+ the law's codec and muxer): the group call's Opus → 8 kHz mono G.711 for the phone.
	toG711 = []string{"-ar", "8000", "-ac", "1", "-flush_packets", "1"}
)

// g711Output is toG711 for law (ffchild.FormatMulaw or FormatAlaw).
func g711Output(law string) []string {
	codec := "pcm_mulaw"
	if law == ffchild.FormatAlaw {
		codec = "pcm_alaw"
	}
	return append(append([]string(nil), toG711...), "-c:a", codec, "-f", law)
}

// transcoder is one ffmpeg child: what Write is given (the input format's bytes) comes out of Out.
type transcoder struct {
	cmd     *exec.Cmd
	queue   chan []byte
	done    chan struct{}
	tail    ffchild.Tail
	Out     io.ReadCloser
	dropped atomic.Int64
}

// startTranscoder starts ffmpeg reading format from its stdin, writing what args say to its stdout; it ends
// with ctx.
func startTranscoder(ctx context.Context, ffmpeg, format string, args []string) (*transcoder, error) {
	in, err := ffchild.Pipe(format, 0)
	if err != nil {
		return nil, err
	}
	cmd, err := ffchild.Command(ctx, ffmpeg, in, ffchild.Output{Args: args, Target: "pipe:1"})
	if err != nil {
		return nil, err
	}
	t := &transcoder{cmd: cmd, queue: make(chan []byte, transcodeQueue), done: make(chan struct{})}
	cmd.Stderr = &t.tail
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if t.Out, err = cmd.StdoutPipe(); err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("sip: start ffmpeg: %w", err)
	}
	go t.feed(stdin)
	return t, nil
}

// Write queues a copy of p for the child, or drops it when the queue is full; it never blocks.
func (t *transcoder) Write(p []byte) (int, error) {
	select {
	case t.queue <- bytes.Clone(p):
	default:
		t.dropped.Add(1)
	}
	return len(p), nil
}

func (t *transcoder) feed(w io.WriteCloser) {
	defer w.Close()
	for {
		select {
		case p := <-t.queue:
			if _, err := w.Write(p); err != nil {
				return // the child is gone: its reader ends the call's side
			}
		case <-t.done:
			return
		}
	}
}

// wait ends the feed and waits for the child (killed by its context; its stdout must have been read to the end).
func (t *transcoder) wait() error {
	close(t.done)
	err := t.cmd.Wait()
	if err != nil && t.tail.String() != "" {
		err = fmt.Errorf("%w: %s", err, t.tail.String())
	}
	return err
}
