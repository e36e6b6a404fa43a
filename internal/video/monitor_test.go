package video_test

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"tenfour/internal/oplog"
	"tenfour/internal/termclient"
	"tenfour/internal/video"
)

// camera is a monitored terminal's side: it agrees to video.monitorStart with the first codec it has of the
// ones asked (or refuses with code), then opens its session and sends its camera.
type camera struct {
	t      testing.TB
	c      *termclient.Client
	code   atomic.Value // string: its answer to monitorStart ("0" or a refusal)
	asked  atomic.Int32
	codecs []string
}

func (w *world) camera(id string, codecs ...string) *camera {
	cam := &camera{t: w.t, codecs: codecs}
	cam.code.Store("0")
	cam.c = w.term(id, func(typ string, data json.RawMessage) (string, any) {
		if typ != "video.monitorStart" {
			return "0", struct{}{}
		}
		cam.asked.Add(1)
		var req struct{ Codecs []string }
		_ = json.Unmarshal(data, &req)
		if c := cam.code.Load().(string); c != "0" {
			return c, struct{}{}
		}
		for _, want := range req.Codecs {
			for _, have := range cam.codecs {
				if want == have {
					return "0", map[string]string{"codec": have}
				}
			}
		}
		return "606", struct{}{}
	})
	return cam
}

// serve waits for the monitorStart request and opens the camera's session in codec (run in a goroutine: it
// reports failures with Errorf).
func (cam *camera) serve(ctx context.Context, codec string) {
	e, err := cam.c.WaitEvent(ctx, "request:video.monitorStart", nil)
	if err != nil {
		cam.t.Errorf("camera: %v", err)
		return
	}
	var req struct {
		CallID        string
		Width, Height int
	}
	_ = e.Decode(&req)
	v, err := cam.c.StartVideo(ctx, req.CallID, codec)
	if err != nil {
		cam.t.Errorf("camera session: %v", err)
		return
	}
	cam.t.Cleanup(func() { v.Close() })
	if err := v.StartCamera(req.Width, req.Height); err != nil {
		cam.t.Errorf("camera: %v", err)
	}
}

// Dispatchers watch a terminal's camera without it answering; a second dispatcher shares the one stream; the
// limits and refusals; the terminal stops when the last one stops; log 130.
func TestMonitor(t *testing.T) {
	w := newWorld(t)
	ctx := w.Ctx()
	c1, c2 := w.console("10000001"), w.console("10000002")
	cam := w.camera("10000120", "H264")
	app := w.camera("10000101", "VP8", "H264")
	w.term("10000110", nil) // a radio

	var r video.MonitorReply
	go cam.serve(ctx, "H264")
	must(t, c1.Call(ctx, "video.monitorStart", map[string]any{"msId": "10000120", "resolution": "CIF"}, &r))
	if r.Codec != "H264" || r.Status != video.StSelfTrying || r.Resolution != "CIF" {
		t.Fatalf("reply %+v", r)
	}
	v1, err := c1.StartVideo(ctx, r.CallID, r.Codec)
	must(t, err)
	defer v1.Close()
	state(t, ctx, c1, r.CallID, video.StateConnected, video.StConnected)
	if _, err := v1.WaitFrames(ctx, 15); err != nil {
		t.Fatal(err)
	}

	// the second dispatcher joins the same stream: the terminal is not asked again
	var r2 video.MonitorReply
	must(t, c2.Call(ctx, "video.monitorStart", map[string]any{"msId": "10000120"}, &r2))
	if r2.CallID != r.CallID || r2.Status != video.StConnected {
		t.Fatalf("second viewer %+v", r2)
	}
	v2, err := c2.StartVideo(ctx, r2.CallID, r2.Codec)
	must(t, err)
	defer v2.Close()
	if _, err := v2.WaitFrames(ctx, 15); err != nil {
		t.Fatal(err)
	}
	if cam.asked.Load() != 1 {
		t.Fatalf("terminal asked %d times", cam.asked.Load())
	}
	if err := c1.Call(ctx, "video.monitorStart", map[string]any{"msId": "10000120"}, nil); code(err) != "403" {
		t.Fatalf("already monitoring: %v", err)
	}
	for msID, want := range map[string]string{"99999999": "404", "10000001": "404", "10000110": "606", "10000103": "101"} {
		if err := c1.Call(ctx, "video.monitorStart", map[string]any{"msId": msID}, nil); code(err) != want {
			t.Fatalf("monitor %s: %v, want %s", msID, err, want)
		}
	}
	// 3 entries allowed: two on the camera, the third on the app; a fourth is refused (406)
	w.limits(video.Limits{MaxCalls: 8, MaxMonitors: 3, MaxDuration: 3600, CreditMs: -1})
	app.code.Store("201")
	if err := c1.Call(ctx, "video.monitorStart", map[string]any{"msId": "10000101"}, nil); code(err) != "201" {
		t.Fatalf("camera busy: %v", err)
	}
	if _, err := app.c.WaitEvent(ctx, "request:video.monitorStart", nil); err != nil { // the refused one
		t.Fatal(err)
	}
	app.code.Store("0")
	go app.serve(ctx, "VP8")
	var r3 video.MonitorReply
	must(t, c1.Call(ctx, "video.monitorStart", map[string]any{"msId": "10000101"}, &r3))
	if err := c2.Call(ctx, "video.monitorStart", map[string]any{"msId": "10000101"}, nil); code(err) != "406" {
		t.Fatalf("past the maximum: %v", err)
	}
	// the first viewer stops: the other still sees the camera; the last stops: the terminal is told
	n := v2.Stats().Frames
	must(t, c1.Call(ctx, "video.monitorStop", map[string]any{"msId": "10000120"}, nil))
	if _, err := v2.WaitFrames(ctx, n+10); err != nil {
		t.Fatal(err)
	}
	must(t, c2.Call(ctx, "video.byeMyself", map[string]any{"callId": r.CallID}, nil))
	if _, err := cam.c.WaitEvent(ctx, "video.monitorStop", nil); err != nil {
		t.Fatal(err)
	}
	if err := c2.Call(ctx, "video.monitorStop", map[string]any{"msId": "10000120"}, nil); code(err) != "503" {
		t.Fatalf("stop twice: %v", err)
	}
	// the monitored app goes offline: its viewer sees the session end (101)
	app.c.Close()
	state(t, ctx, c1, r3.CallID, video.StateEnded, video.StOffline)
	w.svc().Wait()
	// starts: 2 (camera) + 1 (app); stops: 2 + 1
	if got := w.logs(int(oplog.VideoMonitoring)); got != 6 {
		t.Fatalf("log 130 entries: %d", got)
	}
}

// A terminal that agrees but never sends its camera: the monitoring ends 502 (stream not found).
func TestMonitorNoStream(t *testing.T) {
	w := newWorld(t)
	ctx := w.Ctx()
	w.svc().SetMediaTimeout(time.Second)
	con := w.console("10000001")
	w.camera("10000120", "VP8")
	var r video.MonitorReply
	must(t, con.Call(ctx, "video.monitorStart", map[string]any{"msId": "10000120"}, &r))
	state(t, ctx, con, r.CallID, video.StateEnded, video.StNoStream)
}
