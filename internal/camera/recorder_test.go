package camera_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"tenfour/internal/camera"
	"tenfour/internal/testkit"
	"tenfour/internal/testkit/probe"
)

// Six cameras' recordings start at once while other sockets keep taking loopback ports, and every one records
// and plays: the recorder's ffmpeg reads a pipe it inherits, never a port found free and handed over
// (docs/adr/0031).
func TestRecordingsStartTogetherWhilePortsAreTaken(t *testing.T) {
	cams := rtsp(t)
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		e := newEnv(t, engine, 8)
		streams := map[string]string{"r1": "a", "r2": "b", "r3": "c", "r4": "a", "r5": "b", "r6": "c"}
		for name, mount := range streams {
			e.add(t, e.tok, name, cams.URL(mount), camera.TransportTCP)
		}
		each := func(fn func(stream string)) {
			var wg sync.WaitGroup
			for name := range streams {
				wg.Add(1)
				go func() { defer wg.Done(); fn(name) }()
			}
			wg.Wait()
		}
		each(func(stream string) { // the pulls first: only the recorders start under pressure
			// six pulls starting at once on a loaded machine may miss the first wait for media: asked again
			for end := time.Now().Add(60 * time.Second); ; {
				r := e.do(t, http.MethodGet, "/ds/apiZlmk/proxy", e.tok, map[string]any{"stream": stream})
				if r.Code == "0" {
					return
				}
				if time.Now().After(end) {
					t.Errorf("proxy %s: %s %s", stream, r.Code, r.Msg)
					return
				}
			}
		})
		if t.Failed() {
			return
		}

		release := probe.HoldPorts(t, 4000)
		var mu sync.Mutex
		recs := map[string]camera.RecordID{}
		each(func(stream string) {
			r := e.do(t, http.MethodGet, "/ds/apiZlmk/record", e.tok, map[string]any{"stream": stream, "type": 0})
			var rec camera.Record
			if r.Code == "0" {
				r.Into(t, &rec)
			}
			if rec.ID == 0 {
				t.Errorf("record %s: %s %s", stream, r.Code, r.Msg)
				return
			}
			mu.Lock()
			recs[stream] = rec.ID
			mu.Unlock()
		})
		// every file grows (a fragment at each keyframe)
		testkit.Eventually(t, 20*time.Second, "six growing recordings", func() bool {
			files, _ := filepath.Glob(filepath.Join(e.s.Cfg.DataDir, "camera-records", "*", "*", "*", "*", "*.mp4"))
			grown := 0
			for _, f := range files {
				if fi, err := os.Stat(f); err == nil && fi.Size() > 20_000 {
					grown++
				}
			}
			return grown == len(streams)
		})
		release()

		each(func(stream string) {
			r := e.do(t, http.MethodGet, "/ds/apiZlmk/record", e.tok, map[string]any{"stream": stream, "type": 1})
			var done camera.Record
			if r.Code == "0" {
				r.Into(t, &done)
			}
			if done.ID != recs[stream] || done.Bytes < 20_000 {
				t.Errorf("stop %s: %s %s %+v", stream, r.Code, r.Msg, done)
			}
		})
		for stream, id := range recs {
			t.Run(fmt.Sprint(stream), func(t *testing.T) { playable(t, e, id) })
		}
		e.s.Cameras.Close()
		noChildren(t, e.s)
	})
}
