package message

import (
	"strings"
	"testing"

	"tenfour/internal/platform/realtime"
)

func TestCleanContent(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		code     string
	}{
		{"hello", "hello", ""},
		{"line one\nline two\ttab", "line one\nline two\ttab", ""},
		{"windows\r\nline", "windows\nline", ""},
		{"emoji 👍🏽 and ZWJ 👩‍🚒, 中文, ğüş", "emoji 👍🏽 and ZWJ 👩‍🚒, 中文, ğüş", ""},
		{"", "", "11"},
		{" \n\t ", "", "11"},
		{"bell\a", "", "10"},
		{"nul\x00", "", "10"},
		{"lone\rreturn", "", "10"},
		{"del\x7f", "", "10"},
		{"c1\u0085", "", "10"},
		{"replacement\ufffd", "", "10"},
		{"bom\ufeff", "", "10"},
		{"rtl override \u202e", "", "10"},
		{"isolate \u2066x\u2069", "", "10"},
		{"nonchar \uffff", "", "10"},
		{"bad utf8 \xff", "", "10"},
		{strings.Repeat("ş", MaxContent), strings.Repeat("ş", MaxContent), ""},
		{strings.Repeat("a", MaxContent+1), "", "400"},
	} {
		got, err := CleanContent(tc.in)
		code := ""
		if err != nil {
			code = err.(interface{ Error() string }).Error()[:strings.Index(err.Error(), ":")]
		}
		if code != tc.code || (err == nil && got != tc.want) {
			t.Errorf("%q: got %q code %q, want %q code %q", tc.in, got, code, tc.want, tc.code)
		}
	}
}

func TestState(t *testing.T) {
	for _, tc := range []struct {
		r, d int
		want string
	}{{1, 0, "pending"}, {1, 1, "delivered"}, {3, 2, "partial"}, {0, 0, "delivered"}} {
		if got := state(tc.r, tc.d); got != tc.want {
			t.Errorf("state(%d,%d) = %s", tc.r, tc.d, got)
		}
	}
}

// A delivery the terminal acknowledged stays claimed: a send and a login's pending delivery that both read the
// message as undelivered find it delivered, and neither sends it again (the CI of 2026-11-30 saw a send wait out
// the acknowledgement time for the duplicate). A failed delivery is free to be tried again at once.
func TestDeliveredFlightStaysClaimed(t *testing.T) {
	s := New(nil, nil, nil)
	f, mine := s.claim(7, "10000101")
	if !mine {
		t.Fatal("the first claim is not mine")
	}
	s.land(7, "10000101", f, nil)
	again, mine := s.claim(7, "10000101")
	if mine || again != f {
		t.Fatal("an acknowledged delivery was claimed again: the message would be sent twice")
	}
	select {
	case <-again.done:
	default:
		t.Fatal("the landed flight is not done")
	}
	if again.err != nil {
		t.Fatalf("the landed flight's outcome: %v", again.err)
	}

	g, _ := s.claim(8, "10000101")
	s.land(8, "10000101", g, realtime.ErrTimeout)
	if _, mine := s.claim(8, "10000101"); !mine {
		t.Fatal("a failed delivery stays claimed: it would not be tried again")
	}
}
