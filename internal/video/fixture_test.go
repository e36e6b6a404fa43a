package video_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/config"
	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
	"tenfour/internal/video"
)

const password = "Secret_123"

var (
	hashOnce sync.Once
	pwHash   string
)

func hash(t testing.TB) string {
	hashOnce.Do(func() {
		h, err := auth.HashPassword(password)
		if err != nil {
			t.Fatal(err)
		}
		pwHash = h
	})
	return pwHash
}

// world is a running server with one customer: dispatchers 10000001–2, app terminals 10000101–3, a radio
// 10000110 and a camera 10000120.
type world struct {
	t    testing.TB
	s    *testkit.Server
	cust int64
}

func newWorld(t testing.TB, opts ...func(*config.Config)) *world {
	return newWorldOn(t, "sqlite", opts...)
}

func newWorldOn(t testing.TB, engine string, opts ...func(*config.Config)) *world {
	t.Helper()
	all := append([]func(*config.Config){func(c *config.Config) { c.Voice.Interfaces = []string{"lo"} }}, opts...)
	w := &world{t: t, s: testkit.StartOn(t, engine, all...)}
	w.cust = testkit.Customer(t, w.s.DB, "acme")
	for id, typ := range map[string]string{"10000001": "20", "10000002": "20", "10000101": "10", "10000102": "10",
		"10000103": "10", "10000110": "6", "10000120": "camera"} {
		w.account(w.cust, id, typ)
	}
	return w
}

func (w *world) account(cust int64, id, typ string) {
	if _, err := w.s.DB.Exec(context.Background(), `INSERT INTO accounts (id, customer_id, type, name, password_hash,
		created_at) VALUES (?, ?, ?, ?, ?, ?)`, id, cust, typ, "Name "+id, hash(w.t), time.Now().UnixMilli()); err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	w.t.Cleanup(cancel)
	return ctx
}

func (w *world) svc() *video.Service { return w.s.App.Video }

// term logs a terminal in (no voice media); onReq answers server requests (nil: "0").
func (w *world) term(id string, onReq func(typ string, data json.RawMessage) (string, any)) *termclient.Client {
	w.t.Helper()
	return w.dial(termclient.Options{URL: w.s.URL, UID: id, Password: password, OnRequest: onReq,
		Media: termclient.MediaOptions{Loopback: true}})
}

// console signs a dispatcher in.
func (w *world) console(id string) *termclient.Client {
	w.t.Helper()
	return w.dial(termclient.Options{URL: w.s.URL, Token: w.token(id), Media: termclient.MediaOptions{Loopback: true}})
}

func (w *world) token(id string) string {
	tok, err := w.s.Sessions.Create(context.Background(), id, w.cust)
	if err != nil {
		w.t.Fatal(err)
	}
	return tok
}

func (w *world) dial(o termclient.Options) *termclient.Client {
	w.t.Helper()
	c, err := termclient.Dial(w.ctx(), o)
	if err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(func() { c.Close() })
	return c
}

func (w *world) limits(l video.Limits) {
	w.t.Helper()
	if err := w.svc().Store().SetLimits(context.Background(), w.cust, l, time.Now().UnixMilli()); err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) logs(typ int) int {
	w.t.Helper()
	var n int
	if err := w.s.DB.QueryRow(context.Background(), `SELECT COUNT(*) FROM oplog WHERE customer_id = ? AND type = ?`,
		w.cust, typ).Scan(&n); err != nil {
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
