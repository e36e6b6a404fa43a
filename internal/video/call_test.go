package video_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"tenfour/internal/config"
	"tenfour/internal/oplog"
	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
	"tenfour/internal/video"
)

// A console calls an app terminal: every state in order, the codec the terminal has, frames and audio both
// ways, bye; the call is stored and logged (128).
func TestConsoleCallsTerminalFramesBothWays(t *testing.T) {
	for _, codec := range []string{"VP8", "H264"} {
		t.Run(codec, func(t *testing.T) {
			w := newWorld(t)
			ctx := w.Ctx()
			con := w.console("10000001")
			term := w.term("10000101", nil)
			id := invite(t, ctx, con, "10000101") // the console offers VP8 then H.264
			got, inv := invited(t, ctx, term)
			if got != id || inv["status"].(float64) != video.StTrying || inv["resolution"] != "720p" {
				t.Fatalf("invite event %v", inv)
			}
			state(t, ctx, con, id, video.StateTrying, video.StTrying)
			if c := answer(t, ctx, term, id, codec); c != codec {
				t.Fatalf("codec %s, want the terminal's only one %s", c, codec)
			}
			state(t, ctx, con, id, video.StateRinging, video.StRinging)
			a, b := connect(t, ctx, con, term, id, codec)
			state(t, ctx, term, id, video.StateMedia, video.StSelfTrying)
			sa, err := a.WaitFrames(ctx, 20)
			must(t, err)
			sb, err := b.WaitFrames(ctx, 20)
			must(t, err)
			if sa.Keyframes == 0 || sb.Keyframes == 0 {
				t.Fatalf("keyframes: console %d, terminal %d", sa.Keyframes, sb.Keyframes)
			}
			go func() { _ = b.Talk(ctx, termclient.Silence(30), 20*time.Millisecond) }()
			go func() { _ = a.Talk(ctx, termclient.Silence(30), 20*time.Millisecond) }()
			must(t, a.WaitAudio(ctx, 10))
			must(t, b.WaitAudio(ctx, 10))
			// frames keep coming: the picture moves
			n := a.Stats().Frames
			if _, err := a.WaitFrames(ctx, n+10); err != nil {
				t.Fatal(err)
			}
			if err := term.Call(ctx, "video.bye", map[string]any{"callId": id}, nil); err != nil {
				t.Fatal(err)
			}
			v := state(t, ctx, con, id, video.StateEnded, video.StOK)
			if v.By != "10000101" || v.Codec != codec {
				t.Fatalf("ended %+v", v)
			}
			w.svc().Wait()
			if w.logs(int(oplog.VideoCall)) != 1 {
				t.Fatal("log 128 not written")
			}
			from, to := testkit.RecentRange()
			r := w.Do(http.MethodGet, "/ds/video/sessions", w.Session("10000001"), map[string]any{"sTime": from, "eTime": to})
			var page struct{ List []video.Record }
			r.Into(t, &page)
			if len(page.List) != 1 || page.List[0].Status != 200 || page.List[0].DurationMs <= 0 || page.List[0].Codec != codec ||
				page.List[0].CalleeID != "10000101" {
				t.Fatalf("sessions %+v", page.List)
			}
		})
	}
}

// A terminal calls the dispatch desk: every online dispatcher rings, the first to answer takes it, the other
// is told; frames flow both ways.
func TestTerminalCallsDispatchDesk(t *testing.T) {
	w := newWorld(t)
	ctx := w.Ctx()
	c1, c2 := w.console("10000001"), w.console("10000002")
	term := w.term("10000102", nil)
	var r video.InviteReply
	must(t, term.Call(ctx, "video.invite", map[string]any{"codecs": []string{"H264", "VP8"}}, &r))
	id1, _ := invited(t, ctx, c1)
	id2, _ := invited(t, ctx, c2)
	if id1 != r.CallID || id2 != r.CallID {
		t.Fatal("both dispatchers should ring")
	}
	codec := answer(t, ctx, c2, r.CallID, "VP8", "H264")
	if codec != "H264" {
		t.Fatalf("codec %s: the caller's preference comes first", codec)
	}
	if _, err := c1.WaitEvent(ctx, "video.answered", nil); err != nil {
		t.Fatal(err)
	}
	if err := c1.Call(ctx, "video.status", map[string]any{"callId": r.CallID, "status": 200}, nil); code(err) != "409" {
		t.Fatalf("a second answer: %v", err)
	}
	a, b := connect(t, ctx, term, c2, r.CallID, codec)
	if _, err := a.WaitFrames(ctx, 15); err != nil {
		t.Fatal(err)
	}
	if _, err := b.WaitFrames(ctx, 15); err != nil {
		t.Fatal(err)
	}
	// the console asks for a smaller picture: the terminal is told and switches its camera
	must(t, c2.Call(ctx, "video.resolution", map[string]any{"callId": r.CallID, "resolution": "QCIF"}, nil))
	e, err := term.WaitEvent(ctx, "video.resolution", nil)
	must(t, err)
	var res struct {
		Resolution    string
		Width, Height int
	}
	must(t, e.Decode(&res))
	if res.Resolution != "QCIF" || res.Width != 176 || res.Height != 144 {
		t.Fatalf("resolution event %+v", res)
	}
	must(t, a.StartCamera(res.Width, res.Height))
	if a.CameraSize().Name != "QCIF" {
		t.Fatalf("camera %v", a.CameraSize())
	}
	must(t, c2.Call(ctx, "video.byeMyself", map[string]any{"callId": r.CallID}, nil))
	state(t, ctx, term, r.CallID, video.StateEnded, video.StOK)
}

// Every way a call is refused or ends other than by bye, with its status code.
func TestCallRefusalsAndEndings(t *testing.T) {
	w := newWorld(t, func(c *config.Config) { c.Voice.RingTimeout = 1500 * time.Millisecond })
	ctx := w.Ctx()
	con := w.console("10000001")
	con2 := w.console("10000002")
	t1 := w.term("10000101", nil)
	t2 := w.term("10000102", nil)
	w.term("10000110", nil) // a radio

	refuse := func(c *termclient.Client, req map[string]any, want string) {
		t.Helper()
		if err := c.Call(ctx, "video.invite", req, nil); code(err) != want {
			t.Fatalf("invite %v: %v, want %s", req, err, want)
		}
	}
	refuse(con, map[string]any{"msId": "99999999"}, "404")
	refuse(con, map[string]any{"msId": "10000001"}, "5")
	refuse(con, map[string]any{"msId": "10000002"}, "606") // console to console
	refuse(con, map[string]any{"msId": "10000110"}, "606") // a radio has no camera: device not supported
	refuse(con, map[string]any{"msId": "10000120"}, "606") // a camera takes no calls (monitor it)
	refuse(con, map[string]any{"msId": "10000103"}, "101") // offline
	refuse(con, map[string]any{"msId": "10000101", "resolution": "4K"}, "400")
	refuse(con, map[string]any{"msId": "10000101", "codecs": []string{"AV1"}}, "606")
	refuse(t1, map[string]any{"msId": "10000102"}, "606") // terminal to terminal
	if err := t1.Call(ctx, "video.monitorStart", map[string]any{"msId": "10000120"}, nil); code(err) != "107" {
		t.Fatalf("a terminal monitoring: %v", err)
	}
	for _, verb := range []string{"video.ack", "video.cancel", "video.bye", "video.byeMyself"} {
		if err := con.Call(ctx, verb, map[string]any{"callId": "nope"}, nil); code(err) != "503" {
			t.Fatalf("%s of an unknown session: %v", verb, err)
		}
	}
	if err := con.Call(ctx, "video.offer", map[string]any{"callId": "nope", "sdp": "v=0"}, nil); code(err) != "503" {
		t.Fatalf("offer of an unknown session: %v", err)
	}

	// killed terminal
	w.SetCallSet("10000102", 0)
	refuse(con, map[string]any{"msId": "10000102"}, "606")
	w.SetCallSet("10000102", 8)

	// decline 603, busy 486, camera busy 201: the caller sees the call end with the callee's status
	for _, st := range []int{video.StDecline, video.StBusy, video.StCameraBusy} {
		id := invite(t, ctx, con, "10000101")
		invited(t, ctx, t1)
		must(t, t1.Call(ctx, "video.status", map[string]any{"callId": id, "status": st}, nil))
		state(t, ctx, con, id, video.StateEnded, st)
	}
	// cancel 487 (and the callee is told)
	id := invite(t, ctx, con, "10000101")
	invited(t, ctx, t1)
	if err := con.Call(ctx, "video.bye", map[string]any{"callId": id}, nil); code(err) != "409" {
		t.Fatalf("bye before the answer: %v", err)
	}
	if err := t1.Call(ctx, "video.cancel", map[string]any{"callId": id}, nil); code(err) != "107" {
		t.Fatalf("the callee cancelling: %v", err)
	}
	must(t, con.Call(ctx, "video.cancel", map[string]any{"callId": id}, nil))
	state(t, ctx, t1, id, video.StateEnded, video.StCancel)
	// no common codec: the terminal has only H.264, the console only VP8 (606)
	id = invite(t, ctx, con, "10000101", "VP8")
	invited(t, ctx, t1)
	if err := t1.Call(ctx, "video.status", map[string]any{"callId": id, "status": 200, "codecs": []string{"H264"}}, nil); code(err) != "606" {
		t.Fatalf("answer without a common codec: %v", err)
	}
	state(t, ctx, con, id, video.StateEnded, video.StNotAcceptable)
	// 403 repeat, 486 busy (callee in a call; caller in a call)
	id = invite(t, ctx, con, "10000101")
	invited(t, ctx, t1)
	refuse(con, map[string]any{"msId": "10000101"}, "403")
	refuse(con2, map[string]any{"msId": "10000101"}, "486")
	refuse(con, map[string]any{"msId": "10000102"}, "486")
	// no answer: 408
	state(t, ctx, con, id, video.StateEnded, video.StTimeout)
	// answered, acknowledged, but no media comes: 502
	w.svc().SetMediaTimeout(time.Second)
	id = invite(t, ctx, con, "10000101")
	invited(t, ctx, t1)
	if err := con.Call(ctx, "video.offer", map[string]any{"callId": id, "sdp": "v=0"}, nil); code(err) != "409" {
		t.Fatalf("offer before the codec is fixed: %v", err)
	}
	answer(t, ctx, t1, id)
	for _, sdp := range []string{"not sdp", "v=0\r\no=- 1 1 IN IP4 0.0.0.0\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=rtpmap:111 opus/48000/2\r\n"} {
		if err := con.Call(ctx, "video.offer", map[string]any{"callId": id, "sdp": sdp}, nil); code(err) != "400" {
			t.Fatalf("bad offer %q: %v", sdp, err)
		}
	}
	if err := t2.Call(ctx, "video.offer", map[string]any{"callId": id, "sdp": "v=0"}, nil); code(err) != "107" {
		t.Fatalf("an offer by someone else: %v", err)
	}
	state(t, ctx, con, id, video.StateAnswered, video.StOK)
	must(t, con.Call(ctx, "video.ack", map[string]any{"callId": id}, nil))
	state(t, ctx, con, id, video.StateMedia, video.StSelfTrying)
	state(t, ctx, con, id, video.StateEnded, video.StNoStream)
	// a party goes offline during the call: 101
	w.svc().SetMediaTimeout(15 * time.Second)
	id = invite(t, ctx, con, "10000102")
	invited(t, ctx, t2)
	codec := answer(t, ctx, t2, id)
	connect(t, ctx, con, t2, id, codec)
	t2.Close()
	state(t, ctx, con, id, video.StateEnded, video.StOffline)
}

// The customer's limits: concurrent calls (406), maximum duration (418), credit running out (402) and none
// left (402) — stored and spent on both engines.
func TestLimits(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		{
			w := newWorldOn(t, engine)
			ctx := w.Ctx()
			con, con2 := w.console("10000001"), w.console("10000002")
			t1, t2 := w.term("10000101", nil), w.term("10000102", nil)

			w.limits(video.Limits{MaxCalls: 1, MaxMonitors: 16, MaxDuration: 1, CreditMs: -1})
			id := invite(t, ctx, con, "10000101")
			invited(t, ctx, t1)
			if err := con2.Call(ctx, "video.invite", map[string]any{"msId": "10000102"}, nil); code(err) != "406" {
				t.Fatalf("second call past the maximum: %v", err)
			}
			codec := answer(t, ctx, t1, id)
			connect(t, ctx, con, t1, id, codec)
			v := state(t, ctx, con, id, video.StateEnded, video.StMaxDuration)
			if v.MaxDurationMs != 1000 {
				t.Fatalf("maxDurationMs %d", v.MaxDurationMs)
			}

			// 1.5 s of credit: the call ends 402 when it is spent, then nothing is left
			w.svc().Wait() // the first call's row is written (it spent nothing: the credit was unlimited)
			w.limits(video.Limits{MaxCalls: 4, MaxMonitors: 16, MaxDuration: 3600, CreditMs: 1500})
			id = invite(t, ctx, con2, "10000102")
			invited(t, ctx, t2)
			codec = answer(t, ctx, t2, id)
			connect(t, ctx, con2, t2, id, codec)
			state(t, ctx, con2, id, video.StateEnded, video.StNoCredit)
			w.svc().Wait()
			l, err := w.svc().Store().Limits(context.Background(), w.Customer)
			must(t, err)
			if l.CreditMs != 0 {
				t.Fatalf("credit left %d", l.CreditMs)
			}
			if err := con.Call(ctx, "video.invite", map[string]any{"msId": "10000101"}, nil); code(err) != "402" {
				t.Fatalf("invite without credit: %v", err)
			}
			r := w.Do(http.MethodGet, "/ds/video/limits", w.Session("10000001"), nil)
			var lim struct {
				MaxCalls int
				CreditMs int64
			}
			r.Into(t, &lim)
			if lim.MaxCalls != 4 || lim.CreditMs != 0 {
				t.Fatalf("limits %+v", lim)
			}
			if w.logs(int(oplog.VideoCall)) != 2 {
				t.Fatalf("log 128: %d", w.logs(int(oplog.VideoCall)))
			}
		}
	})
}
