package bench

import (
	"context"
	"io"
	"strconv"
)

// CameraClick measures "camera click → first decoded frame" in Chromium: a fresh demo server (its simulated RTSP
// cameras, no fleet) and tests/e2e/camera-bench.mjs against it. It returns the script's BENCH figures
// (camera_click_p50_ms, camera_click_p95_ms, camera_click_n).
func CameraClick(ctx context.Context, root, bin string, log io.Writer) (map[string]float64, error) {
	rtsp, err := freePort()
	if err != nil {
		return nil, err
	}
	return browserBench(ctx, root, bin, log, "camera-bench.mjs", "--demo-fleet", "0", "--demo-rtsp-port", strconv.Itoa(rtsp))
}
