package video_test

import (
	"context"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
	"tenfour/internal/video"
)

// probe is what ffprobe says of a recording: its container and streams, with the video frames counted by
// decoding them (-count_frames).
type probe struct {
	Format struct {
		FormatName string `json:"format_name"`
		Duration   string `json:"duration"`
	} `json:"format"`
	Streams []struct {
		CodecType     string `json:"codec_type"`
		CodecName     string `json:"codec_name"`
		Width         int    `json:"width"`
		Height        int    `json:"height"`
		NbReadFrames  string `json:"nb_read_frames"`
		DecodedFrames int
	} `json:"streams"`
}

func ffprobe(t *testing.T, path string) probe {
	t.Helper()
	out, err := exec.Command("ffprobe", "-v", "error", "-count_frames", "-show_format", "-show_streams", "-of", "json",
		path).Output()
	if err != nil {
		t.Fatalf("ffprobe %s: %v (make test-deps installs ffmpeg)", path, err)
	}
	var p probe
	if err := json.Unmarshal(out, &p); err != nil {
		t.Fatal(err)
	}
	for i := range p.Streams {
		p.Streams[i].DecodedFrames, _ = strconv.Atoi(p.Streams[i].NbReadFrames)
	}
	return p
}

func (p probe) stream(kind string) (codec string, frames, w, h int, ok bool) {
	for _, s := range p.Streams {
		if s.CodecType == kind {
			return s.CodecName, s.DecodedFrames, s.Width, s.Height, true
		}
	}
	return "", 0, 0, 0, false
}

func recordFiles(t *testing.T, w *world) []video.RecordFile {
	t.Helper()
	from, to := testkit.RecentRange()
	r := w.Do(http.MethodGet, "/ds/video/records", w.Session("10000001"), map[string]any{"sTime": from, "eTime": to})
	var page struct {
		Total int
		List  []video.RecordFile
	}
	r.Into(t, &page)
	if page.Total != len(page.List) {
		t.Fatalf("total %d, list %d", page.Total, len(page.List))
	}
	return page.List
}

// files lists what is under the data directory's video-records.
func files(t *testing.T, w *world) []string {
	t.Helper()
	var out []string
	root := filepath.Join(w.Cfg.DataDir, "video-records")
	_ = filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// A real video call with recording on: the terminal's camera and microphone end up in a file the browser plays
// (VP8 → WebM, H.264 → MP4), with the frames sent and about the call's length; the row says who, which
// terminal, when, how long, how big and which codec; the file is served ranged. With recording off: no file.
func TestCallRecording(t *testing.T) {
	for _, codec := range []string{"VP8", "H264"} {
		t.Run(codec, func(t *testing.T) {
			w := newWorld(t)
			ctx := w.Ctx()
			w.limits(video.Limits{MaxCalls: 8, MaxMonitors: 16, MaxDuration: 3600, CreditMs: -1, Record: true})
			con := w.console("10000001")
			term := w.term("10000101", nil)
			id := invite(t, ctx, con, "10000101")
			invited(t, ctx, term)
			answer(t, ctx, term, id, codec)
			a, b := connect(t, ctx, con, term, id, codec)
			go func() { _ = b.Talk(ctx, termclient.Silence(150), 20*time.Millisecond) }() // the terminal's microphone
			if _, err := a.WaitFrames(ctx, 45); err != nil {                              // 3 s of 15 fps
				t.Fatal(err)
			}
			if n := testkit.Children("ffmpeg"); n != 1 {
				t.Fatalf("%d ffmpeg children while recording, want the recorder's one", n)
			}
			must(t, con.Call(ctx, "video.bye", map[string]any{"callId": id}, nil))
			v := state(t, ctx, con, id, video.StateEnded, video.StOK)
			w.svc().Wait()
			if n := testkit.Children("ffmpeg"); n != 0 {
				t.Fatalf("%d ffmpeg children left after the call", n)
			}
			sent := b.FramesSent() // an upper bound of what the server got

			list := recordFiles(t, w)
			if len(list) != 1 {
				t.Fatalf("records %+v", list)
			}
			f := list[0]
			wantType := map[string]string{"VP8": "video/webm", "H264": "video/mp4"}[codec]
			if f.CallID != id || f.Kind != "call" || f.MsID != "10000101" || f.MsName != "Name 10000101" ||
				f.ByID != "10000001" || f.Codec != codec || f.Type != wantType || !f.Audio || f.Bytes < 10_000 ||
				f.Dropped != 0 || f.StartTime < v.Connected-1000 || f.StartTime > v.Connected+3000 {
				t.Fatalf("record %+v (connected %d)", f, v.Connected)
			}
			got := files(t, w)
			if len(got) != 1 || !strings.HasSuffix(got[0], map[string]string{"VP8": ".webm", "H264": ".mp4"}[codec]) {
				t.Fatalf("files %v", got)
			}
			p := ffprobe(t, got[0])
			vc, frames, width, height, ok := p.stream("video")
			wantFmt := map[string]string{"VP8": "matroska,webm", "H264": "mov,mp4,m4a,3gp,3g2,mj2"}[codec]
			if !ok || vc != strings.ToLower(codec) || p.Format.FormatName != wantFmt || width != 640 || height != 360 {
				t.Fatalf("probe %+v", p)
			}
			if ac, _, _, _, ok := p.stream("audio"); !ok || ac != "opus" {
				t.Fatalf("no Opus audio: %+v", p)
			}
			// every frame the terminal sent after the first recorded keyframe (keyframe each second) is there
			// (the last frame may be cut off by the stop: ffmpeg ends at its signal)
			if frames < 30 || int64(frames) > f.Frames || f.Frames-int64(frames) > 2 || uint64(f.Frames) > sent {
				t.Fatalf("decoded %d frames, row %d, sent %d", frames, f.Frames, sent)
			}
			dur, _ := strconv.ParseFloat(p.Format.Duration, 64)
			if math.Abs(dur*1000-float64(f.DurationMs)) > 500 || f.DurationMs < 2000 || f.DurationMs > 15000 {
				t.Fatalf("duration: file %.2f s, row %d ms", dur, f.DurationMs)
			}

			// played ranged, like the browser seeks
			req, _ := http.NewRequest(http.MethodGet, w.URL+f.URL, nil)
			req.Header.Set("token", w.Session("10000001"))
			req.Header.Set("Range", "bytes=0-99")
			resp, err := http.DefaultClient.Do(req)
			must(t, err)
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusPartialContent || len(body) != 100 || resp.Header.Get("Content-Type") != wantType {
				t.Fatalf("recordFile: %d %q %d bytes", resp.StatusCode, resp.Header.Get("Content-Type"), len(body))
			}
		})
	}
	t.Run("off", func(t *testing.T) {
		w := newWorld(t)
		ctx := w.Ctx()
		con := w.console("10000001")
		term := w.term("10000101", nil)
		id := invite(t, ctx, con, "10000101")
		invited(t, ctx, term)
		codec := answer(t, ctx, term, id)
		a, _ := connect(t, ctx, con, term, id, codec)
		if _, err := a.WaitFrames(ctx, 20); err != nil {
			t.Fatal(err)
		}
		must(t, con.Call(ctx, "video.bye", map[string]any{"callId": id}, nil))
		state(t, ctx, con, id, video.StateEnded, video.StOK)
		w.svc().Wait()
		if l := recordFiles(t, w); len(l) != 0 {
			t.Fatalf("records with recording off: %+v", l)
		}
		if f := files(t, w); len(f) != 0 {
			t.Fatalf("files with recording off: %v", f)
		}
	})
}

// A monitoring is recorded too (the terminal's camera; the viewer is "by").
func TestMonitorRecording(t *testing.T) {
	w := newWorld(t)
	ctx := w.Ctx()
	w.limits(video.Limits{MaxCalls: 8, MaxMonitors: 16, MaxDuration: 3600, CreditMs: -1, Record: true})
	c1 := w.console("10000001")
	cam := w.camera("10000120", "H264")
	go cam.serve(ctx, "H264")
	var r video.MonitorReply
	must(t, c1.Call(ctx, "video.monitorStart", map[string]any{"msId": "10000120", "resolution": "CIF"}, &r))
	v1, err := c1.StartVideo(ctx, r.CallID, r.Codec)
	must(t, err)
	defer v1.Close()
	if _, err := v1.WaitFrames(ctx, 40); err != nil {
		t.Fatal(err)
	}
	must(t, c1.Call(ctx, "video.monitorStop", map[string]any{"msId": "10000120"}, nil))
	state(t, ctx, c1, r.CallID, video.StateEnded, 0)
	w.svc().Wait()
	list := recordFiles(t, w)
	if len(list) != 1 || list[0].Kind != "monitor" || list[0].MsID != "10000120" || list[0].ByID != "10000001" ||
		list[0].Audio || list[0].Codec != "H264" {
		t.Fatalf("records %+v", list)
	}
	got := files(t, w)
	if len(got) != 1 {
		t.Fatalf("files %v", got)
	}
	p := ffprobe(t, got[0])
	if c, frames, width, _, ok := p.stream("video"); !ok || c != "h264" || frames < 20 || width != 352 {
		t.Fatalf("probe %+v", p)
	}
}

// The store of recordings on both engines: rows listed by time and terminal, retention deletes files and rows
// together, orphan files (a .part of a crash, a finished file without a row) are removed, files with a row kept.
func TestRecordStoreAndRetention(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := newWorldOn(t, engine)
		svc := w.svc()
		dir := w.Cfg.DataDir
		now := time.Now()
		mk := func(rel string) {
			p := filepath.Join(dir, rel)
			must(t, os.MkdirAll(filepath.Dir(p), 0o755))
			must(t, os.WriteFile(p, []byte("x"), 0o644))
		}
		old := video.NewTestRecordFile(w.Customer, "vold", "10000101", "video-records/1/old.webm", now.Add(-48*time.Hour))
		cur := video.NewTestRecordFile(w.Customer, "vnew", "10000102", "video-records/1/new.mp4", now.Add(-time.Minute))
		for _, f := range []video.RecordFile{old, cur} {
			mk(video.RecordPathOf(f))
			_, err := svc.Store().AddRecordFile(context.Background(), f)
			must(t, err)
		}
		mk("video-records/1/crash.webm.part")
		mk("video-records/1/crash.webm.sdp")
		mk("video-records/1/norow.mp4")
		list, total, err := svc.Store().RecordFiles(context.Background(), w.Customer, video.RecordFileQuery{
			From: now.Add(-72 * time.Hour).UnixMilli(), To: now.UnixMilli(), Limit: 10})
		must(t, err)
		if total != 2 || len(list) != 2 || list[0].CallID != "vnew" || list[0].Type != "video/mp4" || list[1].Type != "video/webm" {
			t.Fatalf("list %+v", list)
		}
		list, _, err = svc.Store().RecordFiles(context.Background(), w.Customer, video.RecordFileQuery{MsID: "10000101",
			From: now.Add(-72 * time.Hour).UnixMilli(), To: now.UnixMilli(), Limit: 10})
		must(t, err)
		if len(list) != 1 || list[0].CallID != "vold" {
			t.Fatalf("by terminal %+v", list)
		}
		n, err := svc.RemoveOrphanFiles(context.Background())
		must(t, err)
		if n != 3 {
			t.Fatalf("orphans removed %d", n)
		}
		n, err = svc.PruneRecordFiles(context.Background(), now.Add(-24*time.Hour))
		must(t, err)
		if n != 1 {
			t.Fatalf("pruned %d", n)
		}
		got := files(t, w)
		if len(got) != 1 || !strings.HasSuffix(got[0], "new.mp4") {
			t.Fatalf("files left %v", got)
		}
		list, total, err = svc.Store().RecordFiles(context.Background(), w.Customer, video.RecordFileQuery{
			From: 0, To: now.UnixMilli(), Limit: 10})
		must(t, err)
		if total != 1 || list[0].CallID != "vnew" {
			t.Fatalf("after retention %+v", list)
		}
		// another customer's (or an unknown) recording is not served
		other := w.NewCustomer("other")
		w.AccountIn(other, "20000001", "20")
		tok, err := w.Sessions.Create(context.Background(), "20000001", other)
		must(t, err)
		if r := w.Do(http.MethodGet, "/ds/video/recordFile", tok, map[string]any{"id": list[0].ID}); r.Code != "404" {
			t.Fatalf("another customer's recording: %q", r.Code)
		}
		if l, n, err := svc.Store().RecordFiles(context.Background(), other, video.RecordFileQuery{To: now.UnixMilli(), Limit: 10}); err != nil || n != 0 || len(l) != 0 {
			t.Fatalf("another customer lists %v %d %v", l, n, err)
		}
		r := w.Do(http.MethodGet, "/ds/video/records", w.Session("10000001"), map[string]any{"msId": strings.Repeat("1", 33)})
		if r.Code != "400" {
			t.Fatalf("bad msId: %s", r.Code)
		}
	})
}
