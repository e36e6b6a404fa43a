package video_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"tenfour/internal/config"
	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
	"tenfour/internal/video"
)

// world is the testkit.World of the video tests (media on loopback): dispatchers 10000001–2, app terminals
// 10000101–3, a radio 10000110 and a camera 10000120.
type world struct {
	*testkit.World
	t testing.TB
}

func newWorld(t testing.TB, opts ...func(*config.Config)) *world {
	return newWorldOn(t, "sqlite", opts...)
}

func newWorldOn(t testing.TB, engine string, opts ...func(*config.Config)) *world {
	t.Helper()
	all := append([]func(*config.Config){testkit.LoopbackMedia}, opts...)
	w := &world{World: testkit.NewWorld(t, engine, all...), t: t}
	for id, typ := range map[string]string{"10000001": "20", "10000002": "20", "10000101": "10", "10000102": "10",
		"10000103": "10", "10000110": "6", "10000120": "camera"} {
		w.Account(id, typ)
	}
	return w
}

func (w *world) svc() *video.Service { return w.Video }

// term logs a terminal in (no voice media); onReq answers server requests (nil: "0").
func (w *world) term(id string, onReq func(typ string, data json.RawMessage) (string, any)) *termclient.Client {
	w.t.Helper()
	return w.Client(termclient.Options{UID: id, Password: testkit.Password, OnRequest: onReq,
		Media: termclient.MediaOptions{Loopback: true}})
}

// console signs a dispatcher in.
func (w *world) console(id string) *termclient.Client {
	w.t.Helper()
	return w.Client(termclient.Options{Token: w.Session(id), Media: termclient.MediaOptions{Loopback: true}})
}

func (w *world) limits(l video.Limits) {
	w.t.Helper()
	if err := w.svc().Store().SetLimits(context.Background(), w.Customer, l, time.Now().UnixMilli()); err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) logs(typ int) int {
	w.t.Helper()
	var n int
	if err := w.DB.QueryRow(context.Background(), `SELECT COUNT(*) FROM oplog WHERE customer_id = ? AND type = ?`,
		w.Customer, typ).Scan(&n); err != nil {
		w.t.Fatal(err)
	}
	return n
}

// state waits for a video.state of a session whose state (and status, when not 0) match.
func state(t testing.TB, ctx context.Context, c *termclient.Client, callID, st string, status int) video.View {
	t.Helper()
	var v video.View
	_, err := c.WaitEvent(ctx, "video.state", func(e termclient.Event) bool {
		var x video.View
		if e.Decode(&x) != nil || x.CallID != callID || x.State != st || (status != 0 && x.Status != status) {
			return false
		}
		v = x
		return true
	})
	if err != nil {
		t.Fatalf("%s %d: %v", st, status, err)
	}
	return v
}

// invited waits for the video.invite event of a terminal or console and returns its callId.
func invited(t testing.TB, ctx context.Context, c *termclient.Client) (string, map[string]any) {
	t.Helper()
	e, err := c.WaitEvent(ctx, "video.invite", nil)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	_ = e.Decode(&m)
	return m["callId"].(string), m
}

func code(err error) string { return termclient.Code(err) }

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// invite sends video.invite and returns the call id.
func invite(t testing.TB, ctx context.Context, c *termclient.Client, msID string, codecs ...string) string {
	t.Helper()
	var r video.InviteReply
	req := map[string]any{"msId": msID}
	if len(codecs) > 0 {
		req["codecs"] = codecs
	}
	must(t, c.Call(ctx, "video.invite", req, &r))
	if r.Status != video.StTrying || r.CallID == "" {
		t.Fatalf("invite reply %+v", r)
	}
	return r.CallID
}

// answer is the callee's 180 then 200 with its codecs; it returns the call's codec.
func answer(t testing.TB, ctx context.Context, c *termclient.Client, callID string, codecs ...string) string {
	t.Helper()
	must(t, c.Call(ctx, "video.status", map[string]any{"callId": callID, "status": 180}, nil))
	var r struct{ Codec string }
	must(t, c.Call(ctx, "video.status", map[string]any{"callId": callID, "status": 200, "codecs": codecs}, &r))
	if r.Codec == "" {
		t.Fatal("no codec in the answer's reply")
	}
	return r.Codec
}

// connect opens both sides' media of an answered call (the caller acknowledges first) and starts both
// cameras; it returns the caller's and the callee's sessions once the call is connected.
func connect(t testing.TB, ctx context.Context, caller, callee *termclient.Client, callID, codec string) (*termclient.Video, *termclient.Video) {
	t.Helper()
	state(t, ctx, caller, callID, video.StateAnswered, video.StOK)
	must(t, caller.Call(ctx, "video.ack", map[string]any{"callId": callID}, nil))
	var a, b *termclient.Video
	var ea, eb error
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); a, ea = caller.StartVideo(ctx, callID, codec) }()
	go func() { defer wg.Done(); b, eb = callee.StartVideo(ctx, callID, codec) }()
	wg.Wait()
	must(t, ea)
	must(t, eb)
	t.Cleanup(func() { a.Close(); b.Close() })
	state(t, ctx, caller, callID, video.StateConnected, video.StConnected)
	must(t, a.StartCamera(640, 480))
	must(t, b.StartCamera(640, 480))
	return a, b
}
