package security

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"tenfour/internal/media/oggopus"
	"tenfour/internal/testkit"
)

// The probe (issue 14 M3) put one malformed Opus packet in the middle of a burst: listeners heard the burst, but
// it went unrecorded, its partial file stayed on disk and an ERROR was logged. Replayed: the bad packets are
// left out and counted, and the rest of the burst is recorded, indexed and plays.
func TestMediaMalformedPacketKeepsTheRecording(t *testing.T) {
	f := newVoiceFleet(t, "10000001", "10000002")
	console := f.Console(f.dispatcher, f.Customer)
	talker, listener := f.terminal("10000001"), f.terminal("10000002")
	fixture, err := oggopus.ReadFile("../../testdata/audio/reply.ogg")
	if err != nil {
		t.Fatal(err)
	}
	bad := [][]byte{{0x03}, {0xfb, 0x00}, {0xfb, 0x3f, 0xff}} // code 3 with no frame count, no frame, 63 frames
	half := len(fixture.Packets) / 2
	sent := append(append(append([][]byte{}, fixture.Packets[:half]...), bad...), fixture.Packets[half:]...)
	const skipped = "tenfour_voice_record_packets_skipped_total"
	before := testkit.Counter(t, skipped)
	ctx := f.Ctx()
	if _, err := talker.Talk(ctx, "", "", sent, 2*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if _, err := listener.Media.WaitPackets(ctx, len(sent)); err != nil {
		t.Fatalf("the listener did not hear the burst: %v", err)
	}
	ev := console.WaitEvent("voice.recorded", 15*time.Second, nil)
	var rec struct {
		CallID string `json:"callid"`
		BTime  int64  `json:"btime"`
	}
	if err := json.Unmarshal(ev.Data, &rec); err != nil {
		t.Fatal(err)
	}
	rows, err := f.Voice.Store().CallRecords(ctx, f.Customer, rec.CallID, rec.BTime)
	if err != nil || len(rows) != 1 {
		t.Fatalf("record rows %v %v", rows, err)
	}
	got, err := oggopus.ReadFile(filepath.Join(f.Cfg.DataDir, rows[0].Path))
	if err != nil {
		t.Fatalf("the recording does not read as Ogg Opus: %v", err)
	}
	if len(got.Packets) != len(fixture.Packets) || got.Samples() != fixture.Samples() {
		t.Fatalf("recorded %d packets (%d samples), spoken %d (%d)", len(got.Packets), got.Samples(),
			len(fixture.Packets), fixture.Samples())
	}
	for _, p := range got.Packets {
		if !oggopus.Valid(p) {
			t.Fatalf("a malformed packet was recorded: % x", p)
		}
	}
	if d := testkit.Counter(t, skipped) - before; d != float64(len(bad)) {
		t.Fatalf("%s went up by %v, want %d", skipped, d, len(bad))
	}
	// One file, the recorded one: nothing partial was left beside it.
	files, _ := filepath.Glob(filepath.Join(filepath.Dir(filepath.Join(f.Cfg.DataDir, rows[0].Path)), "*"))
	if len(files) != 1 {
		t.Fatalf("recording directory holds %v", files)
	}
	if st, err := os.Stat(files[0]); err != nil || st.Size() != rows[0].Size {
		t.Fatalf("recorded file %v, row says %d bytes", err, rows[0].Size)
	}
}
