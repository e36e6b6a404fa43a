package message

import (
	"strings"
	"testing"
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
