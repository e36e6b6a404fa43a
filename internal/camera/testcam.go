package camera

// Simulated cameras: GStreamer's RTSP server (run through Debian's python3-gi, testcams.py) serving a moving
// test pattern per mount point. The demo starts it for its customers' cameras; the tests pull from it.

import (
	"bufio"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"tenfour/internal/media/ffchild"
	"tenfour/internal/platform/db"
	"tenfour/internal/tenant"
)

//go:embed testcams.py
var testcamsPy []byte

// TestCameras is a running simulated-camera RTSP server.
type TestCameras struct {
	Port   int
	cmd    *exec.Cmd
	dir    string
	done   chan struct{}
	stderr *ffchild.Tail
}

// testPython is the interpreter with GStreamer's GObject bindings (Debian's python3-gi).
func testPython() string {
	for _, p := range []string{"/usr/bin/python3", "python3"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	return ""
}

// CheckTestCameras tells whether simulated cameras can run here; the error says what is missing.
func CheckTestCameras() error {
	py := testPython()
	if py == "" {
		return errors.New("python3 is missing")
	}
	dir, err := os.MkdirTemp("", "tenfour-testcams-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	script := filepath.Join(dir, "testcams.py")
	if err := os.WriteFile(script, testcamsPy, 0o644); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, py, script, "--check").CombinedOutput()
	if err != nil {
		return fmt.Errorf("GStreamer's RTSP server is not usable (%v): %s", err, strings.TrimSpace(lastLine(string(out))))
	}
	return nil
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// StartTestCameras runs the RTSP server on 127.0.0.1:port with the given mount points and waits until it
// listens. Stop ends it.
func StartTestCameras(port int, mounts []string) (*TestCameras, error) {
	py := testPython()
	if py == "" {
		return nil, errors.New("python3 is missing")
	}
	dir, err := os.MkdirTemp("", "tenfour-testcams-")
	if err != nil {
		return nil, err
	}
	script := filepath.Join(dir, "testcams.py")
	if err := os.WriteFile(script, testcamsPy, 0o644); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	cmd := exec.Command(py, append([]string{script, fmt.Sprint(port)}, mounts...)...)
	ffchild.Attrs(cmd)
	stderr := &ffchild.Tail{}
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	tc := &TestCameras{Port: port, cmd: cmd, dir: dir, done: make(chan struct{}), stderr: stderr}
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		ok := false
		for sc.Scan() {
			if !ok && sc.Text() == "ready" {
				ok = true
				ready <- true
			}
		}
		if !ok {
			ready <- false
		}
	}()
	go func() {
		_ = cmd.Wait()
		close(tc.done)
	}()
	select {
	case ok := <-ready:
		if !ok {
			<-tc.done
			os.RemoveAll(dir)
			return nil, fmt.Errorf("simulated cameras did not start: %s", strings.TrimSpace(stderr.String()))
		}
	case <-time.After(30 * time.Second):
		tc.Stop()
		return nil, errors.New("simulated cameras did not start within 30 s")
	}
	return tc, nil
}

// URL is the address of a mount point.
func (tc *TestCameras) URL(mount string) string {
	return fmt.Sprintf("rtsp://127.0.0.1:%d/%s", tc.Port, mount)
}

// Stop ends the server and waits for it.
func (tc *TestCameras) Stop() {
	_ = tc.cmd.Process.Kill()
	<-tc.done
	os.RemoveAll(tc.dir)
}

// DemoCameras is how many simulated cameras each demo customer gets.
const DemoCameras = 4

// RunDemo gives each demo customer DemoCameras simulated cameras (registered once, stream ids cam1…cam4) and
// serves them on 127.0.0.1:port until ctx ends. Without ffmpeg or GStreamer it says so and runs without them.
func (s *Service) RunDemo(ctx context.Context, port int, customers []string) {
	if !s.HasTool() {
		slog.Warn("demo: no simulated cameras: ffmpeg is not installed (make test-deps, or apt-get install ffmpeg)")
		return
	}
	if err := CheckTestCameras(); err != nil {
		slog.Warn("demo: no simulated cameras ("+err.Error()+"); `make test-deps` installs GStreamer's RTSP server",
			"err", err)
		return
	}
	var mounts []string
	for _, name := range customers {
		id, err := tenant.ByName(ctx, s.db, name)
		if errors.Is(err, db.ErrNotFound) {
			continue
		}
		if err != nil {
			slog.Error("demo cameras", "err", err)
			return
		}
		for i := 1; i <= DemoCameras; i++ {
			mount := fmt.Sprintf("c%d-cam%d", id, i)
			mounts = append(mounts, mount)
			c := Camera{customerID: id, StreamID: fmt.Sprintf("cam%d", i), Name: fmt.Sprintf("Camera %d", i),
				StreamURL: fmt.Sprintf("rtsp://127.0.0.1:%d/%s", port, mount), Protocol: (i + 1) % 2, App: DefaultApp,
				CreatedAt: time.Now().UnixMilli()}
			if _, err := s.store.ByStream(ctx, id, c.StreamID); errors.Is(err, db.ErrNotFound) {
				if _, err := s.store.Add(ctx, c, s.opts.MaxPerCustomer); err != nil {
					slog.Warn("demo camera", "stream", c.StreamID, "err", err)
				}
			}
		}
	}
	if len(mounts) == 0 {
		return
	}
	var tc *TestCameras
	backoff := time.Second
	for ctx.Err() == nil {
		var err error
		if tc, err = StartTestCameras(port, mounts); err != nil {
			slog.Warn("demo: simulated cameras", "port", port, "err", err, "retry_in", backoff)
		} else {
			slog.Info("demo: simulated cameras", "rtsp", fmt.Sprintf("rtsp://127.0.0.1:%d/", port), "cameras", len(mounts))
			select {
			case <-ctx.Done():
				tc.Stop()
				return
			case <-tc.done:
				slog.Warn("demo: simulated cameras stopped; restarting", "stderr", tc.stderr.String())
				os.RemoveAll(tc.dir)
				backoff = time.Second
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, time.Minute)
	}
}
