package camera

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pion/rtp"

	"tenfour/internal/media/ffchild"
)

// A snapshot's decode that runs out of time answers the coded "busy, try again" (101), never an internal error:
// ffmpeg starved of CPU past the deadline (a stand-in that never finishes), and no ffmpeg slot free before it.
func TestSnapshotDecodeOutOfTimeIsBusy(t *testing.T) {
	idr, err := (&rtp.Packet{Header: rtp.Header{Version: 2, Marker: true, PayloadType: 96},
		Payload: []byte{0x65, 0x88, 0x84, 0x00}}).Marshal() // one IDR slice: ffmpeg never gets to decode it
	if err != nil {
		t.Fatal(err)
	}
	stuck := filepath.Join(t.TempDir(), "ffmpeg")
	if err := os.WriteFile(stuck, []byte("#!/bin/sh\nexec sleep 30\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	jobs := ffchild.NewLimiter(ffchild.Limits{Server: 1, PerCustomer: 1, Wait: time.Minute})
	s := &Service{ffmpeg: stuck, opts: Options{Jobs: jobs}}

	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := s.decodeKeyframe(ctx, 1, [][]byte{idr}); !errors.Is(err, ErrServerBusy) {
		t.Fatalf("a decode past its deadline: %v, want ErrServerBusy", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("the stuck decode was given up after %v", took)
	}
	if n := s.children.Load(); n != 0 {
		t.Fatalf("%d ffmpeg children counted after the decode ended", n)
	}

	release, err := s.opts.Jobs.Acquire(t.Context(), 2) // the only slot, held by another customer's decode
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	ctx, cancel = context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	if _, err := s.decodeKeyframe(ctx, 1, [][]byte{idr}); !errors.Is(err, ErrServerBusy) {
		t.Fatalf("no slot before the deadline: %v, want ErrServerBusy", err)
	}
}
