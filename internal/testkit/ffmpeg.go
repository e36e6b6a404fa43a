package testkit

import (
	"os/exec"
	"testing"
)

// NeedFFmpeg fails the test when ffmpeg is not installed: a media test must not pass by skipping its work.
func NeedFFmpeg(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Fatal("ffmpeg is not installed: run `make test-deps`")
	}
}
