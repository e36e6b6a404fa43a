package camera_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/camera"
	"tenfour/internal/config"
	"tenfour/internal/testkit"
)

// TestParallelSnapshots (issue 30 M2): 40 snapshots at once of one customer's camera start no ffmpeg per request
// — they share the pull and one decode of its keyframe, in a slot of the server's ffmpeg limiter — and every
// answer is a JPEG or the coded "system busy" (101), never a 500; another customer's snapshot is served
// meanwhile.
func TestParallelSnapshots(t *testing.T) {
	cams := rtsp(t)
	s := testkit.Start(t, func(c *config.Config) {
		c.FFmpegJobs = config.FFmpegJobs{Server: 2, PerCustomer: 1, Wait: 5 * time.Second}
	})
	var toks []string
	for i, mount := range []string{"a", "c"} {
		cust := testkit.Customer(t, s.DB, "Snap "+mount)
		d := strconv.Itoa(31900000 + 10*i)
		testkit.Account(t, s.DB, auth.NewAccount{CustomerID: cust, ID: d, Type: auth.DispatcherType, Name: "D"})
		tok := s.Token(d, cust)
		if r := s.Do(http.MethodPost, "/ds/camera/add", tok, map[string]any{"streamId": "gate", "streamUrl": cams.URL(mount)}); r.Code != "0" {
			t.Fatalf("add: %s %s", r.Code, r.Msg)
		}
		toks = append(toks, tok)
	}
	// both cameras pulled first: the burst measures snapshots, not the pulls' start
	for _, tok := range toks {
		if r := s.Do(http.MethodGet, "/ds/apiZlmk/proxy", tok, map[string]any{"stream": "gate"}); r.Code != "0" {
			t.Fatalf("proxy: %s %s", r.Code, r.Msg)
		}
	}
	var most atomic.Int64
	stop := make(chan struct{})
	var watch sync.WaitGroup
	watch.Go(func() {
		for {
			if n := int64(ffmpegChildren(t)); n > most.Load() {
				most.Store(n)
			}
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	})
	isJPEG := func(r testkit.Reply) bool {
		var res struct{ Data string }
		r.Into(t, &res)
		jpg, err := base64.StdEncoding.DecodeString(res.Data)
		return err == nil && len(jpg) > 1000 && bytes.HasPrefix(jpg, []byte{0xff, 0xd8})
	}
	var wg sync.WaitGroup
	replies := make([]testkit.Reply, 40)
	for i := range replies {
		wg.Go(func() {
			replies[i] = s.Do(http.MethodGet, "/ds/apiZlmk/snap", toks[0], map[string]any{"stream": "gate"})
		})
	}
	start := time.Now()
	other := s.Do(http.MethodGet, "/ds/apiZlmk/snap", toks[1], map[string]any{"stream": "gate"})
	otherTook := time.Since(start)
	wg.Wait()
	close(stop)
	watch.Wait()
	if other.Code != "0" || !isJPEG(other) {
		t.Fatalf("another customer's snapshot during the burst: %s %s", other.Code, other.Msg)
	}
	images, busy := 0, 0
	for _, r := range replies {
		switch {
		case r.Code == "0" && isJPEG(r):
			images++
		case r.Code == "101" && r.Key == "surveillance.errors.serverBusy" && r.Status == http.StatusServiceUnavailable:
			busy++
		default:
			t.Fatalf("a snapshot answered HTTP %d %s %s", r.Status, r.Code, r.Msg)
		}
	}
	// two pulls and at most the limiter's two slots
	if m := most.Load(); m > 4 || images == 0 {
		t.Fatalf("%d ffmpeg children at most, %d images, %d busy", m, images, busy)
	}
	t.Logf("40 parallel snapshots: %d images, %d busy, %d ffmpeg children at most; another customer's snapshot in %v",
		images, busy, most.Load(), otherTook.Round(time.Millisecond))
}

// TestCameraAddressRules (issue 30 L2, L3): percent-encoded control characters in a camera address are refused
// (ffmpeg would decode them into RTSP headers); with --camera-allow-nets an IP address outside the networks is
// refused at add and update, and a name is checked where it resolves at pull time.
func TestCameraAddressRules(t *testing.T) {
	cams := rtsp(t)
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		s := testkit.StartOn(t, engine, func(c *config.Config) {
			c.Camera.AllowNets = []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("fd00::/8")}
		})
		cust := testkit.Customer(t, s.DB, "Nets")
		testkit.Account(t, s.DB, auth.NewAccount{CustomerID: cust, ID: "31950000", Type: auth.DispatcherType, Name: "D"})
		tok := s.Token("31950000", cust)
		port := cams.Port
		var cam camera.Camera
		testkit.APITest{Server: s, Token: func(string) string { return tok }, State: []string{"cameras"}}.Run(t, []testkit.Scenario{
			{Name: "CR LF in the user name, percent-encoded", Method: "POST", Path: "/ds/camera/add", Token: "A", Code: "400",
				Contains: []string{"streamUrl"}, Params: map[string]any{"streamId": "x", "streamUrl": "rtsp://admin%0d%0aX-Injected:%201@10.0.0.5/x"}},
			{Name: "LF in the password", Method: "POST", Path: "/ds/camera/add", Token: "A", Code: "400",
				Params: map[string]any{"streamId": "x", "streamUrl": "rtsp://admin:pw%0A@10.0.0.5/x"}},
			{Name: "NUL in the path", Method: "POST", Path: "/ds/camera/add", Token: "A", Code: "400",
				Params: map[string]any{"streamId": "x", "streamUrl": "rtsp://10.0.0.5/x%00y"}},
			{Name: "loopback outside the allowed networks", Method: "POST", Path: "/ds/camera/add", Token: "A", Code: "107",
				Check: key("surveillance.errors.networkNotAllowed"), Params: map[string]any{"streamId": "x", "streamUrl": cams.URL("a")}},
			{Name: "link-local outside the allowed networks", Method: "POST", Path: "/ds/camera/add", Token: "A", Code: "107",
				Check: key("surveillance.errors.networkNotAllowed"), Params: map[string]any{"streamId": "x", "streamUrl": "rtsp://169.254.169.254/latest"}},
			{Name: "IPv6 loopback outside", Method: "POST", Path: "/ds/camera/add", Token: "A", Code: "107",
				Params: map[string]any{"streamId": "x", "streamUrl": "rtsp://[::1]:554/x"}},
			{Name: "a camera inside", Method: "POST", Path: "/ds/camera/add", Token: "A", Code: "0",
				Params: map[string]any{"streamId": "inside", "streamUrl": "rtsp://user:p%40ss@10.1.2.3:554/main"},
				Check:  func(t *testing.T, r testkit.Reply) { r.Into(t, &cam) }},
			{Name: "a name: accepted now, checked where it resolves", Method: "POST", Path: "/ds/camera/add", Token: "A", Code: "0",
				Params: map[string]any{"streamId": "named", "streamUrl": fmt.Sprintf("rtsp://localhost:%d/a", port)}},
		})
		testkit.APITest{Server: s, Token: func(string) string { return tok }, State: []string{"cameras"}}.Run(t, []testkit.Scenario{
			{Name: "update to an address outside", Method: "PUT", Path: "/ds/camera/update", Token: "A", Code: "107",
				Check: key("surveillance.errors.networkNotAllowed"), Params: map[string]any{"id": cam.ID, "streamUrl": "rtsp://192.168.1.10/x"}},
			{Name: "proxy to an address outside", Method: "GET", Path: "/ds/apiZlmk/proxy", Token: "A", Code: "107",
				Check: key("surveillance.errors.networkNotAllowed"), Params: map[string]any{"stream": "inside", "url": "rtsp://127.0.0.1/x"}},
			{Name: "a name that resolves outside is not pulled", Method: "GET", Path: "/ds/apiZlmk/proxy", Token: "A", Code: "107",
				Check: func(t *testing.T, r testkit.Reply) {
					key("surveillance.errors.networkNotAllowed")(t, r)
					if n := ffmpegChildren(t); n != 0 {
						t.Fatalf("%d ffmpeg children for a refused address", n)
					}
				}, Params: map[string]any{"stream": "named"}},
		})
	})
	// loopback allowed: the name is resolved, pinned and pulled
	s := testkit.Start(t, func(c *config.Config) { c.Camera.AllowNets = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")} })
	cust := testkit.Customer(t, s.DB, "Nets 2")
	testkit.Account(t, s.DB, auth.NewAccount{CustomerID: cust, ID: "31950010", Type: auth.DispatcherType, Name: "D"})
	tok := s.Token("31950010", cust)
	url := strings.Replace(cams.URL("a"), "127.0.0.1", "localhost", 1)
	if r := s.Do(http.MethodPost, "/ds/camera/add", tok, map[string]any{"streamId": "named", "streamUrl": url}); r.Code != "0" {
		t.Fatalf("add: %s %s", r.Code, r.Msg)
	}
	if r := s.Do(http.MethodGet, "/ds/apiZlmk/proxy", tok, map[string]any{"stream": "named"}); r.Code != "0" || !strings.Contains(string(r.Result), `"playing"`) {
		t.Fatalf("a name inside the allowed networks: %s %s %s", r.Code, r.Msg, r.Result)
	}
	s.Cameras.Close()
	noChildren(t, s)
}
