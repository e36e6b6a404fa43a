package media

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/pion/rtp"
)

// vp8Key is a VP8 RTP payload that starts a keyframe (descriptor S=1, then the key bit 0); vp8Delta one that does not.
var (
	vp8Key   = []byte{0x10, 0x00, 0x9d, 0x01, 0x2a}
	vp8Delta = []byte{0x10, 0x01, 0x00, 0x00}
)

func files(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	_ = filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// A recording that never sees a keyframe writes nothing and says so; no file, no child.
func TestVideoRecorderWithoutKeyframeLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	f := &Feed{video: true, id: 1}
	r := StartVideoRecorder(VideoRecordOptions{FFmpeg: "ffmpeg", Path: filepath.Join(dir, "x", "a.webm"), Codec: VP8}, f, nil)
	for i := range 50 {
		r.push(true, 1, &rtp.Header{SequenceNumber: uint16(i), Timestamp: uint32(i * 6000), Marker: true}, vp8Delta, int64(i))
	}
	if _, err := r.Finish(); !errors.Is(err, ErrNoKeyframe) {
		t.Fatalf("finish: %v", err)
	}
	if got := files(t, dir); len(got) != 0 {
		t.Fatalf("files left: %v", got)
	}
	if f.rec.Load() != nil {
		t.Fatal("the feed still hands packets to a finished recorder")
	}
}

// A muxer that cannot start (no such executable) fails the recording: an error, no file, no .part, no SDP.
func TestVideoRecorderFailedStartLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	f := &Feed{video: true, id: 1}
	r := StartVideoRecorder(VideoRecordOptions{FFmpeg: filepath.Join(dir, "no-such-ffmpeg"), Path: filepath.Join(dir, "a.webm"),
		Codec: VP8}, f, nil)
	r.push(true, 1, &rtp.Header{SequenceNumber: 1, Timestamp: 0, Marker: true}, vp8Key, 0)
	r.push(true, 1, &rtp.Header{SequenceNumber: 2, Timestamp: 6000, Marker: true}, vp8Delta, 1)
	if _, err := r.Finish(); err == nil || errors.Is(err, ErrNoKeyframe) {
		t.Fatalf("finish: %v", err)
	}
	if got := files(t, dir); len(got) != 0 {
		t.Fatalf("files left: %v", got)
	}
}

// A full queue drops (counted) instead of blocking the feed's read loop.
func TestVideoRecorderQueueDropsWhenFull(t *testing.T) {
	dir := t.TempDir()
	f := &Feed{video: true, id: 1}
	// a party whose microphone has not sent yet keeps the recorder waiting for it (1 s) while packets come
	r := StartVideoRecorder(VideoRecordOptions{FFmpeg: "sleep", Path: filepath.Join(dir, "a.webm"), Codec: VP8, Queue: 8}, f,
		&Feed{id: 2})
	r.push(true, 1, &rtp.Header{SequenceNumber: 0, Marker: true}, vp8Key, 0)
	for i := 1; i <= 100; i++ {
		r.push(true, 1, &rtp.Header{SequenceNumber: uint16(i), Timestamp: uint32(i * 6000), Marker: true}, vp8Delta, int64(i))
	}
	if r.q.Dropped() < 80 {
		t.Fatalf("dropped %d of 100 with a queue of 8", r.q.Dropped())
	}
	res, err := r.Finish()
	if err == nil || res.Dropped < 80 {
		t.Fatalf("finish: %+v, %v", res, err)
	}
	if got := files(t, dir); len(got) != 0 {
		t.Fatalf("files left: %v", got)
	}
}
