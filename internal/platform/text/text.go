// Package text holds the one rule for what people type that others read: names (terminals, groups, dispatchers,
// customers, fences, marks, tones, uploaded files' names) and free text (messages). A name or text that reads
// differently from what it is — a right-to-left override turning "gpj.exe" into "exe.jpg", a zero-width space
// making two names that look alike differ, a byte-order mark — spoofs the tree, the map and the operation log
// (issue 14 L5).
package text

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// IllegalRune is the set free text (a message) may not hold (docs/console-socket.md "sms.send"): control
// characters other than line feed and tab (C0, DEL, C1 — a lone carriage return included), the replacement
// character U+FFFD (what invalid UTF-8 decodes to: JSON decoding turns bad bytes into it silently), the
// byte-order mark U+FEFF, the bidirectional embedding, override and isolate controls U+202A-U+202E and
// U+2066-U+2069 (they make a text read differently from what it says), and the noncharacters U+FFFE and
// U+FFFF.
func IllegalRune(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r == utf8.RuneError, r == 0xfeff, r == 0xfffe, r == 0xffff:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// IllegalNameRune is the set a name may not hold: IllegalRune's, line feed and tab, the line and paragraph
// separators U+2028 and U+2029, and every format character (Unicode category Cf: zero-width space and
// joiners, the left-to-right and right-to-left marks, the Arabic letter mark, soft hyphen, word joiner,
// invisible operators, tag characters).
func IllegalNameRune(r rune) bool {
	return r == '\n' || r == '\t' || r == '\u2028' || r == '\u2029' || IllegalRune(r) || unicode.Is(unicode.Cf, r)
}

// Name is a name as it is stored: blanks trimmed, in Unicode normal form C (so "é" typed as e + combining
// accent and as one character is the same name). ok is false when s is not valid UTF-8 or holds an
// IllegalNameRune; the caller answers with its domain's "invalid characters" code and checks the length of
// the returned name.
func Name(s string) (name string, ok bool) {
	if !utf8.ValidString(s) || strings.ContainsFunc(s, IllegalNameRune) {
		return "", false
	}
	return strings.TrimSpace(norm.NFC.String(s)), true
}
