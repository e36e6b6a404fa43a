package broadcast_test

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/broadcast"
	"tenfour/internal/config"
	"tenfour/internal/sim"
	"tenfour/internal/testkit"
)

// world is a running server with two customers: A (a dispatcher console) and B (another tenant).
type world struct {
	t     *testing.T
	s     *testkit.Server
	custA int64
	custB int64
	dispA string // dispatcher of A (caster ensured at first use)
	consA string // A's console session token
	consB string
	dispB string
	tokA  string // A's broadcast token (POST /v1/login with '{secret}' and the console session)
	tokB  string
	clock *testkit.Clock
}

var seq int

// newWorld starts the server on engine, with opts applied to its configuration.
func newWorld(t *testing.T, engine string, opts ...func(*config.Config)) *world {
	t.Helper()
	s := testkit.StartOn(t, engine, opts...)
	w := &world{t: t, s: s, clock: testkit.NewClock(testkit.Noon())}
	s.Broadcast.SetClock(w.clock.Now)
	w.custA, w.dispA, w.consA = w.customer("Bcast A")
	w.custB, w.dispB, w.consB = w.customer("Bcast B")
	w.tokA = w.login(w.dispA, w.consA)
	return w
}

// newLiveWorld is newWorld on SQLite for a test with speakers: they play by the real clock. The context ends
// with the test, and the simulated speakers with it.
func newLiveWorld(t *testing.T) (*world, context.Context) {
	t.Helper()
	w := newWorld(t, "sqlite")
	w.s.Broadcast.SetClock(nil)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return w, ctx
}

// at moves the clock by d and runs a scheduler pass.
func (w *world) at(d time.Duration) {
	w.t.Helper()
	w.clock.Add(d)
	if err := w.s.Broadcast.Tick(context.Background()); err != nil {
		w.t.Fatal(err)
	}
}

// customer creates a customer with one dispatcher and returns its console token.
func (w *world) customer(name string) (int64, string, string) {
	w.t.Helper()
	seq++
	c := testkit.Customer(w.t, w.s.DB, name)
	id := fmt.Sprintf("7%03d%04d", c%1000, seq)
	testkit.Account(w.t, w.s.DB, auth.NewAccount{CustomerID: c, ID: id, Type: auth.DispatcherType, Name: name + " desk", Group: "All"})
	tok, err := auth.NewSessions(w.s.DB, nil).Create(context.Background(), id, c)
	if err != nil {
		w.t.Fatal(err)
	}
	return c, id, tok
}

// login signs in to the broadcast service with the console session ('{secret}').
func (w *world) login(account, console string) string {
	w.t.Helper()
	var res struct{ Token string }
	w.ok(http.MethodPost, "/broadcast/v1/login", console, map[string]any{"username": account, "password": "{secret}"}, &res)
	return res.Token
}

func (w *world) doHdr(method, path, tok string, params map[string]any) testkit.Reply {
	w.t.Helper()
	return testkit.Do(w.t, w.s.URL, method, path, tok, params)
}

// ok calls and requires code 200, decoding the result into v (if not nil).
func (w *world) ok(method, path, tok string, params map[string]any, v any) testkit.Reply {
	w.t.Helper()
	return w.doHdr(method, path, tok, params).Want(w.t, "200", v)
}

func md5hex(s string) string { h := md5.Sum([]byte(s)); return hex.EncodeToString(h[:]) }

// sineWAV is testkit.ToneWAV, for the one caller not moved yet (quota_test.go).
func sineWAV(freq float64, d time.Duration) []byte { return testkit.ToneWAV(freq, d) }

// convert makes a file of another format from a WAV with ffmpeg (the test's fixtures of MP3, Ogg and FLAC).
func convert(t *testing.T, wav []byte, ext string) []byte {
	t.Helper()
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.wav"), filepath.Join(dir, "out."+ext)
	if err := os.WriteFile(in, wav, 0o600); err != nil {
		t.Fatal(err)
	}
	if b, err := exec.Command("ffmpeg", "-nostdin", "-v", "error", "-i", in, out).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg %s: %v %s", ext, err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// speakerOrg adds to customer A an organisation (name; its code the name in lower case; callNumber; org password
// pass) with n devices coded "<code>-0"…, each played by a simulated speaker until ctx ends. It returns the org
// and the devices' ids and speakers, in order.
func (w *world) speakerOrg(ctx context.Context, name, callNumber, pass string, n int) (broadcast.Org, []int64, []*sim.Speaker) {
	w.t.Helper()
	code := strings.ToLower(name)
	var org broadcast.Org
	w.ok("POST", "/broadcast/api/v1/org", w.tokA, map[string]any{"name": name, "code": code, "call_number": callNumber,
		"password": pass}, &org)
	ids, speakers := make([]int64, n), make([]*sim.Speaker, n)
	for i := range n {
		var d broadcast.Device
		dc := fmt.Sprintf("%s-%d", code, i)
		w.ok("POST", "/broadcast/v1/device", w.tokA, map[string]any{"org_id": org.ID, "name": dc, "code": dc}, &d)
		sp := &sim.Speaker{URL: w.s.URL, OrgID: org.ID, Code: dc, Password: pass}
		ids[i], speakers[i] = d.ID, sp
		go func() { _ = sp.Run(ctx) }()
	}
	return org, ids, speakers
}

// tone uploads a tone of freq Hz lasting d to customer A's library.
func (w *world) tone(freq float64, d time.Duration) broadcast.File {
	w.t.Helper()
	r := w.upload(w.tokA, "tone.wav", testkit.ToneWAV(freq, d), 0)
	if r.Code != "200" {
		w.t.Fatalf("upload: %s %s", r.Code, r.Msg)
	}
	var f broadcast.File
	r.Into(w.t, &f)
	return f
}

// upload posts a file to /broadcast/v1/upload.
func (w *world) upload(tok, name string, data []byte, groupID int64) testkit.Reply {
	w.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	if groupID != 0 {
		_ = mw.WriteField("group_id", fmt.Sprint(groupID))
	}
	fw, _ := mw.CreateFormFile("file", name)
	_, _ = fw.Write(data)
	_ = mw.Close()
	req, _ := http.NewRequest(http.MethodPost, w.s.URL+"/broadcast/v1/upload", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("token", tok)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	r := testkit.Reply{Status: res.StatusCode, Body: raw}
	if err := json.Unmarshal(raw, &r); err != nil {
		w.t.Fatalf("upload: not an envelope: %s", raw)
	}
	return r
}

func has(s, sub string) bool { return strings.Contains(s, sub) }
