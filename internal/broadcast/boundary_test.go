package broadcast_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tenfour/internal/config"
	"tenfour/internal/media/ffchild"
	"tenfour/internal/testkit"
)

// musicFiles lists the library directory.
func musicFiles(t *testing.T, w *world) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(w.s.Cfg.DataDir, "broadcast"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestUploadPlaylistRefused (issue 30 H1): an "MP3" that is a 10-byte ID3 header followed by an HLS playlist
// naming another customer's voice recording — by a relative path that reaches a real Ogg file from where the
// upload is kept, by its absolute path and as a file:// URL — is refused with the coded bad-audio error
// (1008), and nothing is stored: no row, no library file.
func TestUploadPlaylistRefused(t *testing.T) {
	testkit.NeedFFmpeg(t)
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := newWorld(t, engine)
		ogg := convert(t, testkit.ToneWAV(660, 3*time.Second), "ogg")
		// a recording where the old upload directory's ../recordings led, and where the new one's does
		victim := filepath.Join(w.s.Cfg.DataDir, "recordings", "1", "2026", "11", "28", "call.ogg")
		wd, err := ffchild.WorkDir()
		if err != nil {
			t.Fatal(err)
		}
		near := filepath.Join(filepath.Dir(wd), "recordings", "1", "call.ogg")
		for _, p := range []string{victim, near} {
			if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, ogg, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		t.Cleanup(func() { os.RemoveAll(filepath.Join(filepath.Dir(wd), "recordings")) })
		id3 := []byte{'I', 'D', '3', 4, 0, 0, 0, 0, 0, 0}
		for _, seg := range []string{"../recordings/1/2026/11/28/call.ogg", "../recordings/1/call.ogg", victim, "file://" + victim} {
			var list strings.Builder
			list.WriteString("#EXTM3U\n#EXT-X-TARGETDURATION:3\n")
			for range 100 { // one file 100 times: the 6 KB upload that became 9 minutes
				fmt.Fprintf(&list, "#EXTINF:3,\n%s\n", seg)
			}
			list.WriteString("#EXT-X-ENDLIST\n")
			before, files := testkit.Snapshot(t, w.s.DB, "bc_files"), musicFiles(t, w)
			r := w.upload(w.tokA, "song.mp3", append(id3, list.String()...), 0)
			if r.Code != "1008" || r.Key != "broadcast.errors.badAudio" {
				t.Fatalf("playlist of %s: code %s %s, want 1008", seg, r.Code, r.Msg)
			}
			if testkit.Snapshot(t, w.s.DB, "bc_files") != before || len(musicFiles(t, w)) != len(files) {
				t.Fatalf("playlist of %s: something was stored", seg)
			}
		}
		if in, _ := os.ReadDir(filepath.Join(filepath.Dir(wd), "in")); len(in) != 0 {
			t.Fatalf("uploads left behind: %v", in)
		}
	})
}

// TestUploadFormats: MP3 (bare and with an ID3v2.4 tag, a cover-sized body and a footer), WAV, Ogg and FLAC are
// still accepted through the boundary, each about its length.
func TestUploadFormats(t *testing.T) {
	testkit.NeedFFmpeg(t)
	w := newWorld(t, "sqlite")
	wav := testkit.ToneWAV(440, 2*time.Second)
	mp3 := convert(t, wav, "mp3")
	tagged := append([]byte{'I', 'D', '3', 4, 0, 0x10, 0, 0x08, 0, 0}, make([]byte, 1<<17)...) // 128 KiB of tag
	tagged = append(tagged, '3', 'D', 'I', 4, 0, 0x10, 0, 0x08, 0, 0)
	tagged = append(tagged, mp3...)
	for _, c := range []struct {
		name string
		data []byte
	}{{"a.mp3", mp3}, {"tagged.mp3", tagged}, {"a.wav", wav}, {"a.ogg", convert(t, wav, "ogg")}, {"a.flac", convert(t, wav, "flac")}} {
		r := w.upload(w.tokA, c.name, c.data, 0)
		if r.Code != "200" {
			t.Fatalf("%s: %s %s", c.name, r.Code, r.Msg)
		}
		var f struct{ Length, Size int64 }
		r.Into(t, &f)
		if f.Length < 1900 || f.Length > 2200 || f.Size < 30000 {
			t.Fatalf("%s: %+v, want about 2000 ms at 16 bytes per ms", c.name, f)
		}
	}
}

// TestParallelUploads (issue 30 M2): 12 uploads at once from one customer run at most the limiter's ffmpeg
// children; each is stored or answered the coded "system busy" (101), never a 500; another customer's upload is
// served meanwhile.
func TestParallelUploads(t *testing.T) {
	testkit.NeedFFmpeg(t)
	w := newWorld(t, "sqlite", func(c *config.Config) {
		c.FFmpegJobs = config.FFmpegJobs{Server: 2, PerCustomer: 1, Wait: 300 * time.Millisecond}
	})
	w.login2()
	wav := testkit.ToneWAV(440, 40*time.Second)
	var most atomic.Int64
	stop := make(chan struct{})
	var watch sync.WaitGroup
	watch.Go(func() {
		for {
			if n := int64(testkit.Children("ffmpeg")); n > most.Load() {
				most.Store(n)
			}
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	})
	var wg sync.WaitGroup
	replies := make([]testkit.Reply, 12)
	for i := range replies {
		wg.Go(func() { replies[i] = w.upload(w.tokA, fmt.Sprintf("tone%d.wav", i), wav, 0) })
	}
	testkit.Eventually(t, 30*time.Second, "a transcode of the burst", func() bool { return most.Load() > 0 })
	start := time.Now()
	other := w.upload(w.tokB, "theirs.wav", testkit.ToneWAV(330, 2*time.Second), 0)
	otherTook := time.Since(start)
	wg.Wait()
	close(stop)
	watch.Wait()
	if other.Code != "200" {
		t.Fatalf("another customer's upload during the burst: %s %s", other.Code, other.Msg)
	}
	stored, busy := 0, 0
	for _, r := range replies {
		switch {
		case r.Code == "200":
			stored++
		case r.Code == "101" && r.Status == http.StatusServiceUnavailable:
			busy++
		default:
			t.Fatalf("an upload answered HTTP %d, code %s %s", r.Status, r.Code, r.Msg)
		}
	}
	var rows int
	if err := w.s.DB.QueryRow(t.Context(), `SELECT COUNT(*) FROM bc_files WHERE customer_id = ?`, w.custA).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if most.Load() > 2 || stored == 0 || busy == 0 || rows != stored {
		t.Fatalf("%d ffmpeg children at most, %d stored (%d rows), %d busy", most.Load(), stored, rows, busy)
	}
	t.Logf("12 parallel uploads: %d stored, %d busy, %d ffmpeg children at most; another customer's upload in %v",
		stored, busy, most.Load(), otherTook.Round(time.Millisecond))
}
