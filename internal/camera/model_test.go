package camera

import (
	"errors"
	"testing"
)

func TestCheckURL(t *testing.T) {
	for _, ok := range []string{"rtsp://10.0.0.5/x", "rtsp://user:p%40ss@cam.local:554/Streaming/Channels/101", "rtsps://h:322/a?b=c"} {
		if _, err := checkURL("u", ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "http://h/x", "rtsp:///x", "rtsp://h/x y", "rtsp://h:0/x", "rtsp://h:70000/x",
		"rtsp:h", "file:///etc/passwd", "rtsp://h/\x00", "-i rtsp://h"} {
		if _, err := checkURL("u", bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestCheckStream(t *testing.T) {
	for _, bad := range []string{"", "a b", "../x", "a/b", "ä", string(make([]byte, 65))} {
		if _, err := checkStream("s", bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if v, err := checkStream("s", " cam-1.main_2 "); err != nil || v != "cam-1.main_2" {
		t.Fatalf("%q %v", v, err)
	}
}

func TestKeyframeStart(t *testing.T) {
	cases := []struct {
		name string
		p    []byte
		want bool
	}{
		{"SPS", []byte{0x67, 0x42}, true},
		{"IDR slice", []byte{0x65, 0x88}, true},
		{"P slice", []byte{0x41, 0x9a}, false},
		{"PPS alone", []byte{0x68, 0xce}, false},
		{"STAP-A with SPS", []byte{0x78, 0x00, 0x02, 0x67, 0x42, 0x00, 0x02, 0x68, 0xce}, true},
		{"STAP-A with SEI only", []byte{0x78, 0x00, 0x02, 0x06, 0x05}, false},
		{"FU-A start of IDR", []byte{0x7c, 0x85, 0x00}, true},
		{"FU-A middle of IDR", []byte{0x7c, 0x05, 0x00}, false},
		{"FU-A start of P", []byte{0x7c, 0x81, 0x00}, false},
		{"empty", nil, false},
	}
	for _, c := range cases {
		if got := isKeyframeStart(c.p); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestClassify(t *testing.T) {
	for _, c := range []struct {
		stderr string
		want   error
	}{
		{"[rtsp @ 0x1] method DESCRIBE failed: 404 Not Found", ErrNoStream},
		{"method DESCRIBE failed: 401 Unauthorized", ErrUnauthorized},
		{"method SETUP failed: 453 Not Enough Bandwidth", ErrBusy},
		{"Codec 'hevc' (173) is not supported by the bitstream filter 'h264_mp4toannexb'", ErrNotSupported},
		{"Connection to tcp://10.0.0.9:554?timeout=5000000 failed: Connection refused", ErrOffline},
		{"", ErrOffline},
	} {
		if got := classify(&pullError{stderr: c.stderr, err: errors.New("exit status 1")}); got != c.want {
			t.Errorf("%q: %v, want %v", c.stderr, got, c.want)
		}
	}
	if got := classify(&pullError{err: errNoMedia}); got != ErrNoMedia {
		t.Errorf("no media: %v", got)
	}
}

// Control characters percent-encoded anywhere in the address (ffmpeg decodes the user info into RTSP headers).
func TestCheckURLDecoded(t *testing.T) {
	for _, bad := range []string{"rtsp://admin%0d%0aX-Injected:%201@10.0.0.5/x", "rtsp://a:b%0a@h/x", "rtsp://h/x%00", "rtsp://h/x%7f"} {
		if _, err := checkURL("u", bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
