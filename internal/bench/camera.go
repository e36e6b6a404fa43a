package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"
)

// CameraClick measures "camera click → first decoded frame" in Chromium: a fresh demo server (its simulated RTSP
// cameras, no fleet) and tests/e2e/camera-bench.mjs against it. It returns the script's BENCH figures
// (camera_click_p50_ms, camera_click_p95_ms, camera_click_n).
func CameraClick(ctx context.Context, root, bin string, log io.Writer) (map[string]float64, error) {
	dir, err := os.MkdirTemp("", "tenfour-camclick-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	rtsp, err := freePort()
	if err != nil {
		return nil, err
	}
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	serve, err := start(log, bin, "serve", "--demo", "--demo-fleet", "0", "--data", filepath.Join(dir, "data"),
		"--addr", "127.0.0.1:"+strconv.Itoa(port), "--media-udp-port", "0", "--demo-rtsp-port", strconv.Itoa(rtsp),
		"--log-level", "warn")
	if err != nil {
		return nil, err
	}
	defer stop(serve)
	if err := waitHTTP(ctx, base+"/healthz", 60*time.Second); err != nil {
		return nil, fmt.Errorf("server did not start: %w", err)
	}
	cmd := exec.CommandContext(ctx, "node", "camera-bench.mjs")
	cmd.Dir = filepath.Join(root, "tests", "e2e")
	cmd.Env = append(os.Environ(), "TENFOUR_URL="+base)
	out, err := cmd.CombinedOutput()
	fmt.Fprintf(log, "%s\n", out)
	figs := ParseBenchLines(string(out))
	if err != nil {
		return figs, fmt.Errorf("camera-bench.mjs: %v", err)
	}
	return figs, nil
}
