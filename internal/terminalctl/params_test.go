package terminalctl

import (
	"testing"
	"time"
)

func TestParseInterval(t *testing.T) {
	for _, tc := range []struct {
		in   string
		d    time.Duration
		norm string
		ok   bool
	}{
		{"30s", 30 * time.Second, "30s", true},
		{"5m", 5 * time.Minute, "5m", true},
		{" 2H ", 2 * time.Hour, "2h", true},
		{"005m", 5 * time.Minute, "5m", true},
		{"30", 0, "", false},
		{"30x", 0, "", false},
		{"1.5m", 0, "", false},
		{"-5s", 0, "", false},
		{"5 m", 0, "", false},
		{"m", 0, "", false},
		{"", 0, "", false},
		{"1234567s", 0, "", false},
		{"30ms", 0, "", false},
	} {
		d, norm, ok := ParseInterval(tc.in)
		if ok != tc.ok || d != tc.d || norm != tc.norm {
			t.Errorf("%q: %v %q %v", tc.in, d, norm, ok)
		}
	}
}

func TestCheckParams(t *testing.T) {
	norm, secs, err := CheckParams(map[string]string{"gpsInterval": "30s", "heartbeat": "5M", "statusInterval": "1h"})
	if err != nil || norm["heartbeat"] != "5m" || secs["heartbeat"] != 300 || secs["statusInterval"] != 3600 || secs["gpsInterval"] != 30 {
		t.Fatalf("%v %v %v", norm, secs, err)
	}
	for _, bad := range []map[string]string{
		{},
		{"gpsInterval": "0s"},
		{"gpsInterval": "25h"},
		{"heartbeat": "2s"},
		{"heartbeat": "61m"},
		{"volume": "5s"},
		{"gpsInterval": "10 minutes"},
	} {
		if _, _, err := CheckParams(bad); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}
