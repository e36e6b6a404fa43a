package auth

import (
	"strings"
	"testing"
	"time"

	"tenfour/internal/config"
)

func TestValidNewPassword(t *testing.T) {
	for pw, want := range map[string]bool{
		"Abcdef1#":                       true,
		"Abcdef1_":                       true,
		"aB3%aaaa":                       true,
		"aB3@aaaa":                       true,
		"aB3&aaaa":                       true,
		"aB3*aaaa":                       true,
		"aB3!aaaa":                       true,
		"Pässwort1#":                     true, // other printable characters are allowed, as in the console
		strings.Repeat("Aa1#", 16):       true,
		strings.Repeat("Aa1#", 16) + "a": false,
		"Abcde1#":                        false, // 7
		"abcdef1#":                       false,
		"ABCDEF1#":                       false,
		"Abcdefg#":                       false,
		"Abcdefg1":                       false,
		"Abcdef1$":                       false, // $ is not one of the specials
		"Abcdef1#\n":                     false,
		"123456":                         false,
		"":                               false,
		"Abc\xffdef1#":                   false,
	} {
		if got := ValidNewPassword(pw); got != want {
			t.Errorf("ValidNewPassword(%q) = %v", pw, got)
		}
	}
	for pw, want := range map[string]bool{"123456": true, "000000": true, "12345": false, "1234567": false, "12345a": false, "１２３４５６": false} {
		if got := ValidOriginalPassword(pw); got != want {
			t.Errorf("ValidOriginalPassword(%q) = %v", pw, got)
		}
	}
}

func TestValidAccountID(t *testing.T) {
	for id, want := range map[string]bool{"10000001": true, "00000000": true, "1000000": false, "100000001": false,
		"1000000a": false, "": false, " 10000001": false, "1000000١": false} {
		if got := ValidAccountID(id); got != want {
			t.Errorf("ValidAccountID(%q) = %v", id, got)
		}
	}
}

func TestNormalizeEmail(t *testing.T) {
	for in, want := range map[string]string{
		"Bob@Example.com":                  "bob@example.com",
		" bob@example.com ":                "bob@example.com",
		"Bob <bob@example.com>":            "",
		"bob":                              "",
		"bob@":                             "",
		"":                                 "",
		strings.Repeat("a", 250) + "@x.io": "",
	} {
		got, ok := NormalizeEmail(in)
		if got != want || ok != (want != "") {
			t.Errorf("NormalizeEmail(%q) = %q, %v", in, got, ok)
		}
	}
}

func TestMailLanguage(t *testing.T) {
	for in, want := range map[string]string{"en-US": "en-US", "zh-CN": "zh-CN", "ZH-cn": "zh-CN", "zh_CN": "zh-CN",
		"zh": "zh-CN", "zh-TW": "zh-CN", "tr": "tr-TR", "es-MX": "es-ES", "fr-CA": "fr-FR", "ru": "ru-RU",
		"de-DE": "en-US", "": "en-US", "en-GB": "en-US"} {
		if got := MailLanguage(in); got != want {
			t.Errorf("MailLanguage(%q) = %q, want %q", in, got, want)
		}
	}
	// Every language has every purpose.
	for lang, m := range mailTexts {
		for _, p := range []string{PurposeBind, PurposeReset, PurposeLogin} {
			mail := verificationMail("a@example.com", "10000001", p, "654321", lang)
			if !strings.Contains(mail.Text, "654321") || !strings.Contains(mail.Text, "10000001") || mail.Subject != m.Subject {
				t.Errorf("%s/%s: %+v", lang, p, mail)
			}
		}
	}
}

func TestKeyedLimiter(t *testing.T) {
	l := newKeyedLimiter(time.Second, 2)
	now := time.Now()
	if first, second, third := l.take("a", now), l.take("a", now), l.take("a", now); !first || !second || third {
		t.Fatal("burst of 2")
	}
	if !l.take("b", now) {
		t.Fatal("addresses are independent")
	}
	if !l.take("a", now.Add(time.Second)) {
		t.Fatal("refill")
	}
	// Buckets that are full again are swept.
	l.take("c", now.Add(time.Hour))
	if n := l.size(); n != 1 {
		t.Fatalf("%d buckets after the sweep, want 1", n)
	}
}

func TestLimitsFromFlags(t *testing.T) {
	if got := limitsFrom(config.SignIn{}); got != DefaultLimits() {
		t.Fatalf("no flags: %+v, want the defaults", got)
	}
	got := limitsFrom(config.SignIn{BurstPerAddress: 50, IntervalPerAddress: time.Second, BurstPerAccount: 40})
	want := DefaultLimits()
	want.PerAddress = Rate{50, time.Second}
	want.PerAccount = Rate{40, AccountEvery}
	if got != want {
		t.Fatalf("flags: %+v, want %+v", got, want)
	}
}
