package camera_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/camera"
	"tenfour/internal/config"
	"tenfour/internal/testkit"
)

// The simulated cameras (GStreamer's RTSP server) are shared by the package's tests.
var (
	camsOnce sync.Once
	cams     *camera.TestCameras
	camsErr  error
)

func TestMain(m *testing.M) {
	testkit.CheapHashes() // accounts made through auth (testkit.Account)
	code := m.Run()
	if cams != nil {
		cams.Stop()
	}
	os.Exit(code)
}

// rtsp returns the simulated cameras' server; without ffmpeg or GStreamer the test fails and says what to install.
func rtsp(t *testing.T) *camera.TestCameras {
	t.Helper()
	testkit.NeedFFmpeg(t)
	camsOnce.Do(func() {
		if camsErr = camera.CheckTestCameras(); camsErr != nil {
			return
		}
		cams, camsErr = camera.StartTestCameras(testkit.FreePort(t), []string{"a", "b", "c"})
	})
	if camsErr != nil {
		t.Fatalf("simulated cameras: %v (run `make test-deps`)", camsErr)
	}
	return cams
}

// ffmpegChildren counts this process's ffmpeg children (the test server runs in-process).
func ffmpegChildren(t *testing.T) int {
	t.Helper()
	return testkit.Children("ffmpeg")
}

// noChildren waits until no ffmpeg child runs (the service reaps them as it stops streams).
func noChildren(t *testing.T, s *testkit.Server) {
	t.Helper()
	testkit.Eventually(t, 10*time.Second, "no ffmpeg child left", func() bool {
		return ffmpegChildren(t) == 0 && s.Cameras.Children() == 0
	})
}

type env struct {
	s          *testkit.Server
	tok, other string
	term       string
	dispatcher string
}

var nextID int64 = 31000000

func newEnv(t *testing.T, engine string, max int) *env {
	s := testkit.StartOn(t, engine, func(c *config.Config) {
		c.Camera.MaxPerCustomer = max
	})
	e := &env{s: s}
	mk := func(name string) (int64, string) {
		nextID += 10
		cust := testkit.Customer(t, s.DB, name)
		d := strconv.FormatInt(nextID, 10)
		testkit.Account(t, s.DB, auth.NewAccount{CustomerID: cust, ID: d, Type: auth.DispatcherType, Name: "D " + name})
		return cust, d
	}
	cust, d := mk("Cams A")
	e.dispatcher = d
	e.tok = s.Token(d, cust)
	ocust, od := mk("Cams B")
	e.other = s.Token(od, ocust)
	term := strconv.FormatInt(nextID+1, 10)
	testkit.Account(t, s.DB, auth.NewAccount{CustomerID: cust, ID: term, Type: "10", Name: "Unit"})
	e.term = s.Token(term, cust)
	return e
}

func (e *env) do(t *testing.T, method, path, tok string, params map[string]any) testkit.Reply {
	t.Helper()
	return e.s.Do(method, path, tok, params)
}

func (e *env) add(t *testing.T, tok, stream, url string, protocol int) camera.Camera {
	t.Helper()
	r := e.do(t, http.MethodPost, "/ds/camera/add", tok, map[string]any{"streamId": stream, "streamUrl": url, "protocol": protocol})
	if r.Code != "0" {
		t.Fatalf("add %s: %s %s", stream, r.Code, r.Msg)
	}
	var c camera.Camera
	r.Into(t, &c)
	return c
}

// TestCameraCRUDScenarios: every camera call and refusal, on both engines; a refusal leaves the store as it was.
func TestCameraCRUDScenarios(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		e := newEnv(t, engine, 3)
		theirs := e.add(t, e.other, "theirs", "rtsp://127.0.0.1:1/theirs", 0)
		first := e.add(t, e.tok, "gate", "rtsp://user:pw@10.0.0.5:554/Streaming/101", 1)
		tok := func(a string) string {
			switch a {
			case "B":
				return e.other
			case "T":
				return e.term
			case "":
				return ""
			}
			return e.tok
		}
		testkit.APITest{Server: e.s, Token: tok, State: []string{"cameras", "camera_records"}}.Run(t, []testkit.Scenario{
			{Name: "add", Method: "POST", Path: "/ds/camera/add", Token: "A", Code: "0",
				Params: map[string]any{"streamId": "yard", "streamUrl": "rtsp://10.0.0.7/yard", "protocol": "udp", "name": "Yard"},
				Check: func(t *testing.T, r testkit.Reply) {
					var c camera.Camera
					r.Into(t, &c)
					if c.StreamID != "yard" || c.Protocol != 1 || c.Name != "Yard" || c.App != "monitor" || c.ID == 0 {
						t.Fatalf("added %+v", c)
					}
				}},
			{Name: "add without a session", Method: "POST", Path: "/ds/camera/add", Code: "105",
				Params: map[string]any{"streamId": "x", "streamUrl": "rtsp://h/x"}},
			{Name: "add from a terminal", Method: "POST", Path: "/ds/camera/add", Token: "T", Code: "107",
				Params: map[string]any{"streamId": "x", "streamUrl": "rtsp://h/x"}},
			{Name: "add a malformed url", Method: "POST", Path: "/ds/camera/add", Token: "A", Code: "400", Contains: []string{"streamUrl"},
				Params: map[string]any{"streamId": "x", "streamUrl": "http://10.0.0.5/x"}},
			{Name: "add a url without host", Method: "POST", Path: "/ds/camera/add", Token: "A", Code: "400",
				Params: map[string]any{"streamId": "x", "streamUrl": "rtsp:///x"}},
			{Name: "add a url with spaces", Method: "POST", Path: "/ds/camera/add", Token: "A", Code: "400",
				Params: map[string]any{"streamId": "x", "streamUrl": "rtsp://h/x y"}},
			{Name: "add a url with a bad port", Method: "POST", Path: "/ds/camera/add", Token: "A", Code: "400",
				Params: map[string]any{"streamId": "x", "streamUrl": "rtsp://h:99999/x"}},
			{Name: "add without stream id", Method: "POST", Path: "/ds/camera/add", Token: "A", Code: "400", Contains: []string{"streamId"},
				Params: map[string]any{"streamUrl": "rtsp://h/x"}},
			{Name: "add a malformed stream id", Method: "POST", Path: "/ds/camera/add", Token: "A", Code: "400",
				Params: map[string]any{"streamId": "a b/../c", "streamUrl": "rtsp://h/x"}},
			{Name: "add an unknown protocol", Method: "POST", Path: "/ds/camera/add", Token: "A", Code: "400", Contains: []string{"protocol"},
				Params: map[string]any{"streamId": "x", "streamUrl": "rtsp://h/x", "protocol": "2"}},
			{Name: "add a stream id twice", Method: "POST", Path: "/ds/camera/add", Token: "A", Code: "409",
				Params: map[string]any{"streamId": "gate", "streamUrl": "rtsp://h/x"}},
			{Name: "another customer may use the same stream id", Method: "POST", Path: "/ds/camera/add", Token: "B", Code: "0",
				Params: map[string]any{"streamId": "gate", "streamUrl": "rtsp://h/x"}},
			{Name: "add a third", Method: "POST", Path: "/ds/camera/add", Token: "A", Code: "0",
				Params: map[string]any{"streamId": "dock", "streamUrl": "rtsp://h/dock"}},
			{Name: "add past the maximum concurrent connections", Method: "POST", Path: "/ds/camera/add", Token: "A", Code: "107",
				Contains: []string{"maximum concurrent connections"},
				Params:   map[string]any{"streamId": "roof", "streamUrl": "rtsp://h/roof"}},
			{Name: "list", Method: "GET", Path: "/ds/camera/list", Token: "A", Code: "0",
				Check: func(t *testing.T, r testkit.Reply) {
					var res struct {
						Total int                  `json:"total"`
						List  []camera.CameraState `json:"list"`
					}
					r.Into(t, &res)
					if res.Total != 3 || res.List[0].StreamID != "dock" || res.List[0].State != camera.StateIdle {
						t.Fatalf("list %s", r.Result)
					}
					for _, c := range res.List {
						if c.StreamID == "theirs" {
							t.Fatal("another customer's camera listed")
						}
					}
				}},
			{Name: "update", Method: "PUT", Path: "/ds/camera/update", Token: "A", Code: "0",
				Params: map[string]any{"id": first.ID, "streamUrl": "rtsp://10.0.0.6/main", "protocol": "tcp", "name": "Main gate"},
				Check: func(t *testing.T, r testkit.Reply) {
					var c camera.Camera
					r.Into(t, &c)
					if c.StreamURL != "rtsp://10.0.0.6/main" || c.Protocol != 0 || c.Name != "Main gate" || c.StreamID != "gate" {
						t.Fatalf("updated %+v", c)
					}
				}},
			{Name: "update another customer's camera", Method: "PUT", Path: "/ds/camera/update", Token: "A", Code: "404",
				Params: map[string]any{"id": theirs.ID, "name": "mine"}},
			{Name: "update onto a taken stream id", Method: "PUT", Path: "/ds/camera/update", Token: "A", Code: "409",
				Params: map[string]any{"id": first.ID, "streamId": "yard"}},
			{Name: "update with a malformed url", Method: "PUT", Path: "/ds/camera/update", Token: "A", Code: "400",
				Params: map[string]any{"id": first.ID, "streamUrl": "rtsp//x"}},
			{Name: "update without id", Method: "PUT", Path: "/ds/camera/update", Token: "A", Code: "400",
				Params: map[string]any{"name": "x"}},
			{Name: "delete another customer's camera", Method: "DELETE", Path: "/ds/camera/delete", Token: "A", Code: "404",
				Params: map[string]any{"id": theirs.ID}},
			{Name: "delete a malformed id", Method: "DELETE", Path: "/ds/camera/delete", Token: "A", Code: "400",
				Params: map[string]any{"id": "x"}},
			{Name: "proxy an unknown stream", Method: "GET", Path: "/ds/apiZlmk/proxy", Token: "A", Code: "404",
				Check: key("surveillance.errors.streamNotFound"), Params: map[string]any{"stream": "nosuch"}},
			{Name: "proxy another customer's stream", Method: "GET", Path: "/ds/apiZlmk/proxy", Token: "A", Code: "404",
				Params: map[string]any{"stream": "theirs"}},
			{Name: "proxy a malformed url", Method: "GET", Path: "/ds/apiZlmk/proxy", Token: "A", Code: "400",
				Params: map[string]any{"stream": "gate", "url": "file:///etc/passwd"}},
			{Name: "isOnline of an unknown stream", Method: "GET", Path: "/ds/apiZlmk/isOnline", Token: "A", Code: "404",
				Params: map[string]any{"stream": "nosuch"}},
			{Name: "isOnline of an idle stream", Method: "GET", Path: "/ds/apiZlmk/isOnline", Token: "A", Code: "0",
				Contains: []string{`"online":false`, `"state":"idle"`}, Params: map[string]any{"stream": "yard"}},
			{Name: "snap of an unknown stream", Method: "GET", Path: "/ds/apiZlmk/snap", Token: "A", Code: "404",
				Params: map[string]any{"stream": "nosuch"}},
			{Name: "record an unknown stream", Method: "GET", Path: "/ds/apiZlmk/record", Token: "A", Code: "404",
				Params: map[string]any{"stream": "nosuch", "type": 0}},
			{Name: "record with an unknown type", Method: "GET", Path: "/ds/apiZlmk/record", Token: "A", Code: "400",
				Params: map[string]any{"stream": "gate", "type": 2}},
			{Name: "stop a recording that does not run", Method: "GET", Path: "/ds/apiZlmk/record", Token: "A", Code: "404",
				Check: key("surveillance.errors.notRecording"), Params: map[string]any{"stream": "gate", "type": 1}},
			{Name: "records need a time range", Method: "GET", Path: "/ds/camera/records", Token: "A", Code: "400",
				Params: map[string]any{"stream": "gate"}},
			{Name: "records across months", Method: "GET", Path: "/ds/camera/records", Token: "A", Code: "95",
				Params: map[string]any{"sTime": time.Date(2026, 1, 20, 0, 0, 0, 0, time.UTC).UnixMilli(),
					"eTime": time.Date(2026, 2, 2, 0, 0, 0, 0, time.UTC).UnixMilli()}},
			{Name: "records start after end", Method: "GET", Path: "/ds/camera/records", Token: "A", Code: "93",
				Params: map[string]any{"sTime": 2000, "eTime": 1000}},
			{Name: "play an unknown stream", Method: "POST", Path: "/ds/camera/play", Token: "A", Code: "404",
				Params: map[string]any{"stream": "nosuch", "sdp": "v=0"}},
			{Name: "delete", Method: "DELETE", Path: "/ds/camera/delete", Token: "A", Code: "0",
				Params: map[string]any{"id": first.ID}},
			{Name: "delete twice", Method: "DELETE", Path: "/ds/camera/delete", Token: "A", Code: "404",
				Params: map[string]any{"id": first.ID}},
		})
	})
}

// key checks a refusal's i18n key.
func key(k string) func(t *testing.T, r testkit.Reply) {
	return func(t *testing.T, r testkit.Reply) {
		t.Helper()
		if r.Key != k {
			t.Fatalf("key %q, want %q (%s)", r.Key, k, r.Body)
		}
	}
}

// TestRestoreClosesOpenRecordings: a recording the last run left open (the server stopped while writing it) is
// closed at start-up with its file's last change as its end and its size, and a recorder's leftover SDP file is
// removed; on both engines.
func TestRestoreClosesOpenRecordings(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		e := newEnv(t, engine, 4)
		var cust int64
		if err := e.s.DB.QueryRow(t.Context(), `SELECT customer_id FROM accounts WHERE id = ?`, e.dispatcher).Scan(&cust); err != nil {
			t.Fatal(err)
		}
		rel := filepath.Join("camera-records", "open.mp4")
		if err := os.MkdirAll(filepath.Join(e.s.Cfg.DataDir, "camera-records"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(e.s.Cfg.DataDir, rel), make([]byte, 5000), 0o644); err != nil {
			t.Fatal(err)
		}
		leftover := filepath.Join(e.s.Cfg.DataDir, rel+".sdp")
		if err := os.WriteFile(leftover, []byte("v=0"), 0o644); err != nil {
			t.Fatal(err)
		}
		start := time.Now().Add(-time.Minute).UnixMilli()
		if _, err := e.s.DB.Exec(t.Context(), `INSERT INTO camera_records (customer_id, camera_id, stream, path, start_at)
			VALUES (?, 1, 'gate', ?, ?)`, cust, rel, start); err != nil {
			t.Fatal(err)
		}
		// one another node of a cluster is writing: not this node's to close
		if _, err := e.s.DB.Exec(t.Context(), `INSERT INTO camera_records (customer_id, camera_id, stream, path, start_at, node_id)
			VALUES (?, 1, 'yard', 'camera-records/elsewhere.mp4', ?, 'n2')`, cust, start); err != nil {
			t.Fatal(err)
		}
		if err := e.s.Cameras.Restore(t.Context()); err != nil {
			t.Fatal(err)
		}
		var end, size int64
		if err := e.s.DB.QueryRow(t.Context(), `SELECT end_at, bytes FROM camera_records WHERE path = ?`, rel).Scan(&end, &size); err != nil {
			t.Fatal(err)
		}
		if end < start || size != 5000 {
			t.Fatalf("restored: end %d (start %d), bytes %d", end, start, size)
		}
		if err := e.s.DB.QueryRow(t.Context(), `SELECT end_at FROM camera_records WHERE node_id = 'n2'`).Scan(&end); err != nil || end != 0 {
			t.Fatalf("another node's open recording was closed by this node's restart: end %d (%v)", end, err)
		}
		if _, err := os.Stat(leftover); !os.IsNotExist(err) {
			t.Fatalf("a recorder's SDP file outlived the restart: %v", err)
		}
	})
}

// TestCloseOrphansClosesOnlyDeadNodesRecordings: in a cluster the recordings a node left open when it died for
// good are closed by the sweep (the file on this machine: its last change and size; elsewhere: now, the size
// kept), those of live nodes and of a node alone (empty node id) stay open, and a second sweep finds nothing; on both
// engines.
func TestCloseOrphansClosesOnlyDeadNodesRecordings(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		e := newEnv(t, engine, 4)
		var cust int64
		if err := e.s.DB.QueryRow(t.Context(), `SELECT customer_id FROM accounts WHERE id = ?`, e.dispatcher).Scan(&cust); err != nil {
			t.Fatal(err)
		}
		rel := filepath.Join("camera-records", "shared.mp4") // the dead node's file on shared storage
		if err := os.MkdirAll(filepath.Join(e.s.Cfg.DataDir, "camera-records"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(e.s.Cfg.DataDir, rel), make([]byte, 7000), 0o644); err != nil {
			t.Fatal(err)
		}
		start := time.Now().Add(-time.Minute).UnixMilli()
		for _, r := range []struct{ path, node string }{{rel, "dead"}, {"camera-records/far.mp4", "dead"},
			{"camera-records/live.mp4", "n1"}, {"camera-records/alone.mp4", ""}} {
			if _, err := e.s.DB.Exec(t.Context(), `INSERT INTO camera_records (customer_id, camera_id, stream, path, start_at, bytes, node_id)
				VALUES (?, 1, 'gate', ?, ?, 123, ?)`, cust, r.path, start, r.node); err != nil {
				t.Fatal(err)
			}
		}
		before := time.Now().UnixMilli()
		n, err := e.s.Cameras.CloseOrphans(t.Context(), map[string]bool{"n1": true})
		if err != nil || n != 2 {
			t.Fatalf("closed %d (%v), want the dead node's 2", n, err)
		}
		row := func(path string) (end, size int64) {
			t.Helper()
			if err := e.s.DB.QueryRow(t.Context(), `SELECT end_at, bytes FROM camera_records WHERE path = ?`, path).Scan(&end, &size); err != nil {
				t.Fatal(err)
			}
			return
		}
		if end, size := row(rel); end < start || end > time.Now().UnixMilli() || size != 7000 {
			t.Fatalf("the dead node's recording on shared storage: end %d (start %d), bytes %d", end, start, size)
		}
		if end, size := row("camera-records/far.mp4"); end < before || size != 123 {
			t.Fatalf("the dead node's recording on its own disk: end %d (sweep at %d), bytes %d (want kept 123)", end, before, size)
		}
		for _, p := range []string{"camera-records/live.mp4", "camera-records/alone.mp4"} {
			if end, _ := row(p); end != 0 {
				t.Fatalf("%s was closed: a live node's (or a node alone's) recording", p)
			}
		}
		if n, err := e.s.Cameras.CloseOrphans(t.Context(), map[string]bool{"n1": true}); err != nil || n != 0 {
			t.Fatalf("a second sweep closed %d (%v)", n, err)
		}
	})
}

// TestCookieOnlyCameraCallsWithEffectsAreRefused: an <img> or link on another page carries the session cookie
// alone; the camera calls that start pulls or recordings, or change cameras, need the token (docs/adr/0009),
// while a recording's file plays with the cookie (a <video> element).
func TestCookieOnlyCameraCallsWithEffectsAreRefused(t *testing.T) {
	e := newEnv(t, "sqlite", 4)
	e.add(t, e.tok, "gate", "rtsp://127.0.0.1:1/gate", 0)
	for _, c := range []struct{ method, path string }{
		{http.MethodGet, "/ds/apiZlmk/record?type=0&stream=gate"},
		{http.MethodGet, "/ds/apiZlmk/proxy?stream=gate&url=rtsp://10.0.0.9/x"},
		{http.MethodGet, "/ds/apiZlmk/snap?stream=gate"},
		{http.MethodDelete, "/ds/camera/delete?id=1"},
	} {
		req, _ := http.NewRequest(c.method, e.s.URL+c.path, nil)
		req.AddCookie(&http.Cookie{Name: "token", Value: e.tok})
		req.Header.Set("Sec-Fetch-Dest", "image")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var env struct{ Code string }
		_ = json.NewDecoder(res.Body).Decode(&env)
		res.Body.Close()
		if env.Code != "105" {
			t.Errorf("%s %s with the cookie alone: code %q, want 105", c.method, c.path, env.Code)
		}
	}
	if n := len(cameraList(t, e)); n != 1 || ffmpegChildren(t) != 0 {
		t.Fatalf("cookie-only calls had effects: %d cameras, %d ffmpeg children", n, ffmpegChildren(t))
	}
}
