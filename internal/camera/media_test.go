package camera_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pion/interceptor"
	"github.com/pion/webrtc/v4"

	"tenfour/internal/camera"
	"tenfour/internal/testkit"
)

// TestStreamScenarios pulls real RTSP streams (GStreamer's RTSP server, TCP and UDP transport) through every
// apiZlmk call on both engines: proxy, isOnline, snap, record start/stop, the records list and the file; bad
// input — an unreachable camera, a stream the camera does not have, another customer's stream — gets its coded
// error, leaves no pull running and no ffmpeg child behind.
func TestStreamScenarios(t *testing.T) {
	cams := rtsp(t)
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		e := newEnv(t, engine, 8)
		from, to := testkit.RecentRange()
		before := ffmpegChildren(t)
		if before != 0 {
			t.Fatalf("%d ffmpeg children before the test", before)
		}
		tcpCam := e.add(t, e.tok, "tcp", cams.URL("a"), camera.TransportTCP)
		e.add(t, e.tok, "udp", cams.URL("b"), camera.TransportUDP)
		e.add(t, e.tok, "down", fmt.Sprintf("rtsp://127.0.0.1:%d/x", testkit.FreePort(t)), 0)
		e.add(t, e.tok, "missing", cams.URL("nosuch"), 0)
		e.add(t, e.other, "theirs", cams.URL("c"), 0)
		var rec, listed camera.Record
		testkit.APITest{Server: e.s, Token: func(a string) string {
			if a == "B" {
				return e.other
			}
			return e.tok
		}, State: []string{"cameras", "camera_records"}}.Run(t, []testkit.Scenario{
			{Name: "proxy an unreachable camera", Method: "GET", Path: "/ds/apiZlmk/proxy", Token: "A", Code: "502",
				Params: map[string]any{"stream": "down"}, Check: func(t *testing.T, r testkit.Reply) {
					key("surveillance.errors.offline")(t, r)
					noChildren(t, e.s)
					online(t, e, "down", false, camera.StateIdle)
				}},
			{Name: "proxy a stream the camera does not have", Method: "GET", Path: "/ds/apiZlmk/proxy", Token: "A", Code: "502",
				Params: map[string]any{"stream": "missing"}, Check: func(t *testing.T, r testkit.Reply) {
					key("surveillance.errors.noStream")(t, r)
					noChildren(t, e.s)
				}},
			{Name: "snap an unreachable camera", Method: "GET", Path: "/ds/apiZlmk/snap", Token: "A", Code: "502",
				Params: map[string]any{"stream": "down"}, Check: func(t *testing.T, r testkit.Reply) { noChildren(t, e.s) }},
			{Name: "record an unreachable camera", Method: "GET", Path: "/ds/apiZlmk/record", Token: "A", Code: "502",
				Params: map[string]any{"stream": "down", "type": 0}, Check: func(t *testing.T, r testkit.Reply) { noChildren(t, e.s) }},
			{Name: "proxy another customer's stream", Method: "GET", Path: "/ds/apiZlmk/proxy", Token: "A", Code: "404",
				Params: map[string]any{"stream": "theirs"}, Check: func(t *testing.T, r testkit.Reply) { noChildren(t, e.s) }},
			{Name: "proxy over TCP", Method: "GET", Path: "/ds/apiZlmk/proxy", Token: "A", Code: "0",
				Params: map[string]any{"stream": "tcp"}, Contains: []string{`"state":"playing"`}},
			{Name: "proxy over UDP", Method: "GET", Path: "/ds/apiZlmk/proxy", Token: "A", Code: "0",
				Params: map[string]any{"stream": "udp"}, Contains: []string{`"state":"playing"`}},
			{Name: "isOnline", Method: "GET", Path: "/ds/apiZlmk/isOnline", Token: "A", Code: "0",
				Params: map[string]any{"stream": "udp"}, Contains: []string{`"online":true`}},
			{Name: "snap", Method: "GET", Path: "/ds/apiZlmk/snap", Token: "A", Code: "0",
				Params: map[string]any{"stream": "tcp"}, Check: func(t *testing.T, r testkit.Reply) {
					var res struct {
						Data, Type, Name string
					}
					r.Into(t, &res)
					jpg, err := base64.StdEncoding.DecodeString(res.Data)
					if err != nil || len(jpg) < 1000 || !bytes.HasPrefix(jpg, []byte{0xff, 0xd8}) || res.Type != "image/jpeg" ||
						!strings.HasPrefix(res.Name, "tcp-") {
						t.Fatalf("snap: %d bytes, %q %q %v", len(jpg), res.Type, res.Name, err)
					}
				}},
			// a snapshot is kept in the media cloud under the name the console gives it, with its camera and time,
			// for this customer only
			{Name: "snap under the console's name", Method: "GET", Path: "/ds/apiZlmk/snap", Token: "A", Code: "0",
				Params: map[string]any{"stream": "tcp", "path": "Gate-20260101-120000.jpg"}, Check: func(t *testing.T, r testkit.Reply) {
					var res struct {
						At   int64
						Item struct{ ID, Camera, CameraName, Kind, Name string }
					}
					r.Into(t, &res)
					if res.Item.ID == "" || res.Item.Camera != "tcp" || res.Item.CameraName != "tcp" || res.Item.Kind != "image" ||
						res.Item.Name != "Gate-20260101-120000.jpg" {
						t.Fatalf("snap's media-cloud item: %s", r.Result)
					}
					type kept struct {
						Camera, Name, URL string
						Time              int64
					}
					cloud := func(tok string) []kept {
						var page struct{ List []kept }
						e.do(t, http.MethodPost, "/ds/mediaLib/list", tok, map[string]any{"sTime": res.At - 60_000, "eTime": res.At + 60_000}).Into(t, &page)
						return page.List
					}
					if got := cloud(e.tok); len(got) != 2 || got[0].Camera != "tcp" || got[0].Name != "Gate-20260101-120000.jpg" ||
						got[0].Time != res.At || got[0].URL == "" {
						t.Fatalf("the media cloud after two snapshots: %+v", got)
					}
					if got := cloud(e.other); len(got) != 0 {
						t.Fatalf("another customer's media cloud: %+v", got)
					}
				}},
			{Name: "record start", Method: "GET", Path: "/ds/apiZlmk/record", Token: "A", Code: "0",
				Params: map[string]any{"stream": "tcp", "type": 0, "remark": "gate incident"}, Check: func(t *testing.T, r testkit.Reply) {
					r.Into(t, &rec)
					if rec.ID == 0 || rec.App != "monitor" || rec.Remark != "gate incident" || rec.EndTime != 0 {
						t.Fatalf("record %+v", rec)
					}
				}},
			{Name: "record start again", Method: "GET", Path: "/ds/apiZlmk/record", Token: "A", Code: "403",
				Params: map[string]any{"stream": "tcp", "type": 0}, Check: key("surveillance.errors.alreadyRecording")},
			{Name: "the stream is not switchable while recording", Method: "PUT", Path: "/ds/camera/update", Token: "A", Code: "403",
				Params: map[string]any{"id": tcpCam.ID, "streamUrl": cams.URL("b")}, Check: key("surveillance.errors.alreadyRecording")},
			{Name: "record stop", Method: "GET", Path: "/ds/apiZlmk/record", Token: "A", Code: "0",
				Params: map[string]any{"stream": "tcp", "type": 1}, Check: func(t *testing.T, r testkit.Reply) {
					var done camera.Record
					r.Into(t, &done)
					if done.ID != rec.ID || done.EndTime < done.StartTime || done.Bytes < 1000 {
						t.Fatalf("stopped %+v", done)
					}
				}},
			{Name: "records", Method: "GET", Path: "/ds/camera/records", Token: "A", Code: "0",
				Params: map[string]any{"stream": "tcp", "sTime": from, "eTime": to},
				Check: func(t *testing.T, r testkit.Reply) {
					var res struct {
						Total int             `json:"total"`
						List  []camera.Record `json:"list"`
					}
					r.Into(t, &res)
					if res.Total != 1 || res.List[0].ID != rec.ID || res.List[0].URL == "" {
						t.Fatalf("records %s", r.Result)
					}
					listed = res.List[0]
				}},
			{Name: "another customer's records", Method: "GET", Path: "/ds/camera/records", Token: "B", Code: "0",
				Params:   map[string]any{"sTime": from, "eTime": to},
				Contains: []string{`"total":0`}},
		})
		// the recording plays: an MP4 with a video stream, served in ranges; the list's duration is the one its
		// player shows (the file's, not the wall time from start to stop)
		if played := playable(t, e, rec.ID); listed.Duration < played-50 || listed.Duration > played+50 {
			t.Fatalf("the list says %d ms, the file plays %d ms", listed.Duration, played)
		}
		// another customer cannot fetch it
		if res := get(t, e.s.URL+fmt.Sprintf("/ds/camera/recordFile?id=%d", rec.ID), e.other, ""); res.StatusCode != http.StatusNotFound {
			t.Fatalf("another customer's recording: HTTP %d", res.StatusCode)
		}
		// retention: a recording older than the cutoff goes, file and row
		if n, err := e.s.Cameras.PruneRecords(t.Context(), time.Now().Add(time.Hour)); err != nil || n != 1 {
			t.Fatalf("prune: %d %v", n, err)
		}
		if res := get(t, e.s.URL+fmt.Sprintf("/ds/camera/recordFile?id=%d", rec.ID), e.tok, ""); res.StatusCode != http.StatusNotFound {
			t.Fatalf("a pruned recording: HTTP %d", res.StatusCode)
		}
		if files, _ := filepath.Glob(filepath.Join(e.s.Cfg.DataDir, "camera-records", "*", "*", "*", "*", "*")); len(files) != 0 {
			t.Fatalf("files left after pruning: %v", files)
		}
		// deleting a camera stops its pull and its child
		list := cameraList(t, e)
		for _, c := range list {
			if c.StreamID == "udp" {
				if r := e.do(t, http.MethodDelete, "/ds/camera/delete", e.tok, map[string]any{"id": c.ID}); r.Code != "0" {
					t.Fatalf("delete: %s", r.Code)
				}
			}
		}
		testkit.Eventually(t, 10*time.Second, "one pull left", func() bool { return ffmpegChildren(t) == 1 })
		e.s.Cameras.Close() // shutdown: every child ends
		noChildren(t, e.s)
	})
}

func cameraList(t *testing.T, e *env) []camera.CameraState {
	t.Helper()
	var res struct {
		List []camera.CameraState `json:"list"`
	}
	e.do(t, http.MethodGet, "/ds/camera/list", e.tok, nil).Into(t, &res)
	return res.List
}

func online(t *testing.T, e *env, stream string, want bool, state camera.State) {
	t.Helper()
	var st camera.CameraState
	e.do(t, http.MethodGet, "/ds/apiZlmk/isOnline", e.tok, map[string]any{"stream": stream}).Into(t, &st)
	if st.Online != want || st.State != state {
		t.Fatalf("isOnline %s: %+v, want online %v state %s", stream, st, want, state)
	}
}

func get(t *testing.T, url, tok, rng string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("token", tok)
	if rng != "" {
		req.Header.Set("Range", rng)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return res
}

// playable checks a recording plays and returns its duration (ms) as ffprobe reads it.
func playable(t *testing.T, e *env, id camera.RecordID) int64 {
	t.Helper()
	url := e.s.URL + fmt.Sprintf("/ds/camera/recordFile?id=%d", id)
	res := get(t, url, e.tok, "bytes=0-99")
	if res.StatusCode != http.StatusPartialContent || res.Header.Get("Content-Type") != "video/mp4" {
		t.Fatalf("ranged recording: HTTP %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	res = get(t, url+"&download=1", e.tok, "")
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK || !strings.Contains(res.Header.Get("Content-Disposition"), "attachment") {
		t.Fatalf("download: HTTP %d", res.StatusCode)
	}
	// ffprobe reads it: H.264 video, a positive duration, the index first (faststart: moov before mdat)
	cmd := exec.Command("ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
		"stream=codec_name,width:format=duration", "-of", "json", "pipe:0")
	cmd.Stdin = bytes.NewReader(body)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ffprobe: %v", err)
	}
	var probe struct {
		Streams []struct {
			Codec string `json:"codec_name"`
			Width int    `json:"width"`
		} `json:"streams"`
		Format struct {
			Duration string `json:"duration"`
		} `json:"format"`
	}
	_ = json.Unmarshal(out, &probe)
	d, _ := strconv.ParseFloat(probe.Format.Duration, 64)
	if len(probe.Streams) != 1 || probe.Streams[0].Codec != "h264" || probe.Streams[0].Width != 640 || d <= 0 {
		t.Fatalf("recording: %s", out)
	}
	moov, mdat := bytes.Index(body, []byte("moov")), bytes.Index(body, []byte("mdat"))
	if moov < 0 || mdat < 0 || moov > mdat {
		t.Fatalf("recording not seekable at once: moov at %d, mdat at %d", moov, mdat)
	}
	return int64(d * 1000)
}

// TestWatchOverWebRTC: a pion viewer (as a browser) offers receive-only H.264, gets the camera's video over
// WebRTC from the media server and decodes frames: the first packet it gets starts a keyframe, frames keep
// coming (marker bits), and the time from the offer to the first keyframe is logged.
func TestWatchOverWebRTC(t *testing.T) {
	cams := rtsp(t)
	e := newEnv(t, "sqlite", 4)
	e.add(t, e.tok, "gate", cams.URL("a"), 0)

	me := &webrtc.MediaEngine{}
	if err := me.RegisterCodec(webrtc.RTPCodecParameters{RTPCodecCapability: webrtc.RTPCodecCapability{
		MimeType: webrtc.MimeTypeH264, ClockRate: 90000,
		SDPFmtpLine: "level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f"}, PayloadType: 102},
		webrtc.RTPCodecTypeVideo); err != nil {
		t.Fatal(err)
	}
	ir := &interceptor.Registry{}
	api := webrtc.NewAPI(webrtc.WithMediaEngine(me), webrtc.WithInterceptorRegistry(ir))
	pc, err := api.NewPeerConnection(webrtc.Configuration{})
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	if _, err := pc.AddTransceiverFromKind(webrtc.RTPCodecTypeVideo,
		webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionRecvonly}); err != nil {
		t.Fatal(err)
	}
	type got struct {
		first    bool
		firstKey bool
		frames   int
		at       time.Time
	}
	ch := make(chan got, 1)
	pc.OnTrack(func(tr *webrtc.TrackRemote, _ *webrtc.RTPReceiver) {
		g := got{}
		for {
			pkt, _, err := tr.ReadRTP()
			if err != nil {
				return
			}
			if !g.first {
				g.first = true
				g.firstKey = keyStart(pkt.Payload)
				g.at = time.Now()
			}
			if pkt.Marker {
				g.frames++
			}
			if g.frames == 30 {
				ch <- g
				return
			}
		}
	})
	offer, err := pc.CreateOffer(nil)
	if err != nil {
		t.Fatal(err)
	}
	gathered := webrtc.GatheringCompletePromise(pc)
	if err := pc.SetLocalDescription(offer); err != nil {
		t.Fatal(err)
	}
	<-gathered
	start := time.Now()
	r := e.do(t, http.MethodPost, "/ds/camera/play", e.tok, map[string]any{"stream": "gate", "sdp": pc.LocalDescription().SDP})
	if r.Code != "0" {
		t.Fatalf("play: %s %s", r.Code, r.Msg)
	}
	var ans struct {
		SDP string `json:"sdp"`
	}
	r.Into(t, &ans)
	if err := pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeAnswer, SDP: ans.SDP}); err != nil {
		t.Fatal(err)
	}
	select {
	case g := <-ch:
		if !g.firstKey {
			t.Fatal("the first packet a viewer gets does not start a keyframe")
		}
		t.Logf("offer → first keyframe packet %v (cold pull, camera GOP 8 frames at 15 fps); 30 frames by %v",
			g.at.Sub(start).Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	case <-time.After(20 * time.Second):
		t.Fatal("no 30 frames over WebRTC within 20 s")
	}
	// one pulled stream, one ffmpeg child
	if n := ffmpegChildren(t); n != 1 {
		t.Fatalf("%d ffmpeg children for one watched stream", n)
	}
	// the viewer leaves: its pull stays until idle (IdleStop), then ends with its child
	pc.Close()
}

// keyStart tells whether an H.264 RTP payload starts a keyframe (SPS, IDR, or a STAP-A/FU-A carrying them).
func keyStart(p []byte) bool {
	if len(p) < 2 {
		return false
	}
	switch p[0] & 0x1f {
	case 5, 7:
		return true
	case 24:
		return len(p) > 3 && (p[3]&0x1f == 7 || p[3]&0x1f == 5)
	case 28:
		return p[1]&0x80 != 0 && p[1]&0x1f == 5
	}
	return false
}

// TestReachWithoutPull: the camera list says whether each camera answers before anyone opens it (issue 33: every
// dot stayed grey until its camera was shown): one that answers RTSP is online, one nothing listens for is
// offline, and asking pulls nothing (no ffmpeg child).
func TestReachWithoutPull(t *testing.T) {
	cams := rtsp(t)
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		e := newEnv(t, engine, 8)
		e.add(t, e.tok, "up", cams.URL("a"), camera.TransportTCP)
		e.add(t, e.tok, "down", fmt.Sprintf("rtsp://127.0.0.1:%d/x", testkit.FreePort(t)), 0)
		reach := map[string]camera.Reach{}
		testkit.Eventually(t, 15*time.Second, "both cameras asked", func() bool {
			for _, c := range cameraList(t, e) {
				reach[c.StreamID] = c.Reach
				if c.State != camera.StateIdle {
					t.Fatalf("%s is %s: asking must not pull", c.StreamID, c.State)
				}
			}
			return reach["up"] != camera.ReachUnknown && reach["down"] != camera.ReachUnknown
		})
		if reach["up"] != camera.ReachOnline || reach["down"] != camera.ReachOffline {
			t.Fatalf("reach %v, want up online and down offline", reach)
		}
		if n := ffmpegChildren(t); n != 0 {
			t.Fatalf("%d ffmpeg children: asking must not pull", n)
		}
	})
}
