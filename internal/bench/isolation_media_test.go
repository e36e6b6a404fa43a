package bench_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/camera"
	"tenfour/internal/testkit"
)

// mediaAbuser is a second customer of the load-isolation server whose dispatcher asks for ffmpeg work as fast
// as it can (issue 30 M2): 40 parallel snapshots of one of its cameras and 12 parallel broadcast uploads, again
// and again. The PTT user measured beside it belongs to another customer.
type mediaAbuser struct {
	base        string
	console, bc string // the dispatcher's console token, its broadcast token
	wav         []byte
	cams        *camera.TestCameras

	snaps, snapsOK, snapsBusy, uploads, uploadsOK, uploadsBusy, other atomic.Int64
}

const (
	isoSnapshots = 40
	isoUploads   = 12
)

// newMediaAbuser provisions the customer, its camera (a simulated RTSP camera) and its broadcast sign-in. It
// fails the test when ffmpeg or GStreamer's RTSP server is missing: the phase is a row of `make bench`.
func newMediaAbuser(t *testing.T, w *world) *mediaAbuser {
	t.Helper()
	testkit.NeedFFmpeg(t)
	if err := camera.CheckTestCameras(); err != nil {
		t.Fatalf("simulated cameras: %v (run `make test-deps`)", err)
	}
	cams, err := camera.StartTestCameras(testkit.FreePort(t), []string{"iso"})
	if err != nil {
		t.Fatalf("simulated cameras: %v", err)
	}
	t.Cleanup(cams.Stop)
	cust := testkit.Customer(t, w.s.DB, "Bench media")
	const disp = "43900000"
	testkit.Account(t, w.s.DB, auth.NewAccount{CustomerID: cust, ID: disp, Type: auth.DispatcherType, Name: "Media desk", Group: "All"})
	m := &mediaAbuser{base: w.s.URL, console: w.s.Token(disp, cust), wav: testkit.ToneWAV(440, 20*time.Second), cams: cams}
	if r := w.s.Do(http.MethodPost, "/ds/camera/add", m.console, map[string]any{"streamId": "iso", "streamUrl": cams.URL("iso"),
		"protocol": camera.TransportTCP}); r.Code != "0" {
		t.Fatalf("camera add: %s %s", r.Code, r.Msg)
	}
	r := w.s.Do(http.MethodPost, "/broadcast/v1/login", m.console, map[string]any{"username": disp, "password": "{secret}"})
	if r.Code != "200" {
		t.Fatalf("broadcast login: %s %s", r.Code, r.Msg)
	}
	var res struct{ Token string }
	r.Into(t, &res)
	m.bc = res.Token
	// one snapshot before the measurements: the camera answers (a phase of refusals only would measure nothing)
	testkit.Eventually(t, 30*time.Second, "a first snapshot of the abuser's camera", func() bool {
		ok, _ := m.snap(context.Background())
		return ok
	})
	return m
}

// run asks for isoSnapshots snapshots and isoUploads uploads at once, round after round, until ctx ends.
func (m *mediaAbuser) run(ctx context.Context) {
	for ctx.Err() == nil {
		var wg sync.WaitGroup
		m.ask(ctx, &wg, isoSnapshots, m.snap, &m.snaps, &m.snapsOK, &m.snapsBusy)
		m.ask(ctx, &wg, isoUploads, m.upload, &m.uploads, &m.uploadsOK, &m.uploadsBusy)
		wg.Wait()
	}
}

// ask starts n requests of one kind (do) at once, each counted as asked, then by its answer (count).
func (m *mediaAbuser) ask(ctx context.Context, wg *sync.WaitGroup, n int, do func(context.Context) (ok, busy bool),
	asked, okN, busyN *atomic.Int64) {
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			asked.Add(1)
			ok, busy := do(ctx)
			if ctx.Err() != nil && !ok { // cut by the phase's end, not answered
				asked.Add(-1)
				return
			}
			count(ok, busy, okN, busyN, &m.other)
		}()
	}
}

// count files an answer: served, refused busy, or anything else (a 500, a broken connection: the phase's
// failures, reported in the row). A request the phase's end cut is not counted at all.
func count(ok, busy bool, okN, busyN, other *atomic.Int64) {
	switch {
	case ok:
		okN.Add(1)
	case busy:
		busyN.Add(1)
	default:
		other.Add(1)
	}
}

// envelope is the answer's HTTP status, code and result.
func envelope(res *http.Response, err error) (status int, code string, result json.RawMessage) {
	if err != nil {
		return 0, "", nil
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var e struct {
		Code   json.RawMessage `json:"code"`
		Result json.RawMessage `json:"result"`
	}
	_ = json.Unmarshal(raw, &e)
	return res.StatusCode, string(bytes.Trim(e.Code, `"`)), e.Result
}

// snap is one GET /ds/apiZlmk/snap: served (0) or busy (101).
func (m *mediaAbuser) snap(ctx context.Context) (ok, busy bool) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, m.base+"/ds/apiZlmk/snap?"+url.Values{"stream": {"iso"}}.Encode(), nil)
	req.Header.Set("token", m.console)
	status, code, _ := envelope(http.DefaultClient.Do(req))
	return status == http.StatusOK && code == "0", code == "101"
}

// upload is one POST /broadcast/v1/upload of a 20 s WAV (a transcode each): served (200) or busy (101).
func (m *mediaAbuser) upload(ctx context.Context) (ok, busy bool) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", "bench.wav")
	_, _ = fw.Write(m.wav)
	_ = mw.Close()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, m.base+"/broadcast/v1/upload", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("token", m.bc)
	status, code, result := envelope(http.DefaultClient.Do(req))
	ok = status == http.StatusOK && code == "200"
	var f struct {
		ID int64 `json:"id"`
	}
	if ok && json.Unmarshal(result, &f) == nil && f.ID > 0 { // keep the library from filling: the phase measures transcodes
		d, _ := http.NewRequest(http.MethodDelete, fmt.Sprintf("%s/broadcast/v1/file/%d", m.base, f.ID), nil)
		d.Header.Set("token", m.bc)
		if r, err := http.DefaultClient.Do(d); err == nil {
			r.Body.Close()
		}
	}
	return ok, code == "101"
}
