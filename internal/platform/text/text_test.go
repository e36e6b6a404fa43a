package text

import "testing"

func TestName(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{"  Patrol North ", "Patrol North", true},
		{"İstanbul 1", "İstanbul 1", true},
		{"Café", "Caf\u00e9", true},       // already composed
		{"Cafe\u0301", "Caf\u00e9", true}, // e + combining acute: normalised to one character
		{"巡逻一组", "巡逻一组", true},            // CJK
		{"Дежурный", "Дежурный", true},    // Cyrillic
		{"gpj.\u202eexe", "", false},      // right-to-left override
		{"Radio\u200b1", "", false},       // zero-width space
		{"Radio\u200d1", "", false},       // zero-width joiner
		{"\ufeffRadio", "", false},        // byte-order mark
		{"Radio\u200f", "", false},        // right-to-left mark
		{"Radio\u2066x\u2069", "", false}, // isolate
		{"Radio\u00ad1", "", false},       // soft hyphen
		{"Line\nbreak", "", false},        // control
		{"Tab\there", "", false},          // control
		{"Bell\a", "", false},             // control
		{"bad \xff byte", "", false},      // invalid UTF-8
		{"replacement \ufffd", "", false}, // what JSON makes of invalid UTF-8
		{"para\u2029graph", "", false},    // paragraph separator
		{"", "", true},                    // emptiness is the caller's rule
	} {
		got, ok := Name(c.in)
		if ok != c.ok || got != c.want {
			t.Errorf("Name(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestIllegalRuneKeepsLineBreaks(t *testing.T) {
	for _, r := range "\n\tA é 巡" {
		if IllegalRune(r) {
			t.Errorf("free text refuses %U", r)
		}
	}
	for _, r := range "\r\x00\u0085\ufeff\u202e\u2067\ufffd\uffff" {
		if !IllegalRune(r) {
			t.Errorf("free text accepts %U", r)
		}
	}
}

// FuzzName holds the name rule's invariants on any input: an accepted name is valid UTF-8, in NFC, trimmed,
// free of illegal characters, and accepted again unchanged.
func FuzzName(f *testing.F) {
	for _, s := range []string{"Patrol North", "Cafe\u0301", "gpj.\u202eexe", "\xff", " a ", "\u0344", "ﷺ", "\u1100\u1161\u11a8"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		name, ok := Name(s)
		if !ok {
			return
		}
		for _, r := range name {
			if IllegalNameRune(r) {
				t.Fatalf("Name(%q) = %q holds %U", s, name, r)
			}
		}
		again, ok2 := Name(name)
		if !ok2 || again != name {
			t.Fatalf("Name(%q) = %q, but Name of that = %q, %v", s, name, again, ok2)
		}
	})
}
