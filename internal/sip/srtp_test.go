package sip_test

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emiago/sipgo/sip"
	"github.com/pion/sdp/v3"
	"github.com/pion/srtp/v3"

	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

// phoneSRTP is the test phone's SRTP keyed with SDES (RFC 4568): its own key in the offer's a=crypto, the
// server's from the answer's, pion/srtp's contexts both ways. A nil one is plain RTP.
type phoneSRTP struct {
	suite   string
	profile srtp.ProtectionProfile
	mu      sync.Mutex // the phone's media goroutines seal and open while a re-INVITE rekeys
	key     []byte
	out, in *srtp.Context
}

// rekey gives the phone a new key for its next offer (a re-INVITE's); its packets use the old keys until the
// answer comes (answered).
func (s *phoneSRTP) rekey() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.key = make([]byte, 30)
	_, _ = rand.Read(s.key)
}

// newPhoneSRTP keys a phone for a suite; an unknown suite gets a 30-byte key, the length of the common one.
func newPhoneSRTP(t *testing.T, suite string) *phoneSRTP {
	t.Helper()
	s := &phoneSRTP{suite: suite, key: make([]byte, 30), profile: srtp.ProtectionProfileAes128CmHmacSha1_80}
	if suite == "AES_CM_128_HMAC_SHA1_32" {
		s.profile = srtp.ProtectionProfileAes128CmHmacSha1_32
	}
	_, _ = rand.Read(s.key)
	return s
}

func (s *phoneSRTP) protocol() string {
	if s == nil {
		return "RTP/AVP"
	}
	return "RTP/SAVP"
}

func (s *phoneSRTP) crypto() string {
	if s == nil {
		return ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return fmt.Sprintf("a=crypto:1 %s inline:%s|2^31\r\n", s.suite, base64.StdEncoding.EncodeToString(s.key))
}

// answered takes the answer's stream: plain RTP for a plain phone; RTP/SAVP with an a=crypto of the offer's tag
// and suite and a key of the server's own for an SRTP one.
func (s *phoneSRTP) answered(md *sdp.MediaDescription) (err error) {
	protos := strings.Join(md.MediaName.Protos, "/")
	if protos != s.protocol() {
		return fmt.Errorf("answered on %s, want %s", protos, s.protocol())
	}
	if s == nil {
		return nil
	}
	v, ok := md.Attribute("crypto")
	f := strings.Fields(v)
	if !ok || len(f) != 3 || f[0] != "1" || f[1] != s.suite || !strings.HasPrefix(f[2], "inline:") {
		return fmt.Errorf("answer's a=crypto %q, want tag 1, suite %s and an inline key", v, s.suite)
	}
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(f[2], "inline:"))
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil || len(key) != 30 || string(key) == string(s.key) {
		return fmt.Errorf("answer's key %q: want 30 bytes of the server's own (%v)", f[2], err)
	}
	if s.in, err = srtp.CreateContext(key[:16], key[16:], s.profile); err != nil {
		return err
	}
	s.out, err = srtp.CreateContext(s.key[:16], s.key[16:], s.profile)
	return err
}

// serverKey is the server's a=crypto in an answer: tag, suite and its inline key.
func serverKey(md *sdp.MediaDescription) string {
	v, _ := md.Attribute("crypto")
	return v
}

func (s *phoneSRTP) seal(b []byte) []byte {
	if s == nil {
		return b
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sealed, err := s.out.EncryptRTP(nil, b, nil)
	if err != nil {
		panic(err)
	}
	return sealed
}

func (s *phoneSRTP) open(b []byte) ([]byte, bool) {
	if s == nil {
		return b, true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	opened, err := s.in.DecryptRTP(nil, b, nil)
	return opened, err == nil
}

// A phone registered over TLS calls its group offering SRTP (sips and SDES): an offer whose only key is of a suite
// the server does not take is refused 488 (never answered in the clear); one with AES_CM_128_HMAC_SHA1_80 is
// answered on RTP/SAVP with the server's key, and the call works both ways through SRTP: the phone takes the
// floor with `*` (itself an SRTP packet), its tone reaches the group's terminal, and the terminal's talk reaches
// the phone, which decrypts and authenticates every packet it counts. The phone then rekeys with a re-INVITE
// (RFC 4568 §7.1.4): the answer has a new key of the server's, and the call goes on through the new keys both ways;
// a re-INVITE moving the call to plain RTP is 488.
func TestSecureCallIntoGroup(t *testing.T) {
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Skip("no ffmpeg")
	}
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		ctx, w, gid := callWorld(t, engine, 60*time.Second)
		c := w.listenTLS(t)
		if res := w.register(t, c, "TLS", phone, testkit.Password, 300); res.StatusCode != sip.StatusOK {
			t.Fatalf("REGISTER over TLS: %d", res.StatusCode)
		}
		secure := func(suite string) *softphone {
			p := newSoftphone(t, w)
			p.c, p.transport, p.sec = c, "TLS", newPhoneSRTP(t, suite)
			return p
		}
		if code := secure("F8_128_HMAC_SHA1_80").call(gid); code != sip.StatusNotAcceptableHere {
			t.Fatalf("an SRTP offer with a suite the server does not take: %d, want 488", code)
		}
		term := w.groupTerminal(ctx, t)
		p := secure("AES_CM_128_HMAC_SHA1_80")
		if code := p.call(gid); code != sip.StatusOK {
			t.Fatalf("INVITE with SRTP over TLS: %d, want 200", code)
		}
		p.talkAndHear(ctx, term, gid)

		code, refreshed := p.reinviteAnswer(p.offer()) // a refresh: the same key, the server's kept
		if code != sip.StatusOK {
			t.Fatalf("a refresh of the SRTP call: %d", code)
		}
		p.sec.rekey()
		code, rekeyed := p.reinviteAnswer(p.offer())
		if code != sip.StatusOK {
			t.Fatalf("a re-INVITE with a new key: %d, want 200", code)
		}
		if serverKey(rekeyed.MediaDescriptions[0]) == serverKey(refreshed.MediaDescriptions[0]) {
			t.Fatal("the answer to a new key kept the server's old key")
		}
		if err := p.sec.answered(rekeyed.MediaDescriptions[0]); err != nil {
			t.Fatal(err)
		}
		if err := term.ReleaseFloor(ctx, ""); err != nil { // the terminal still talks from the first round
			t.Fatal(err)
		}
		floorTalker(ctx, t, term, gid, "")
		p.talkAndHear(ctx, term, gid)

		plain := regexp.MustCompile(`a=crypto:[^\r]*\r\n`).ReplaceAllString(strings.Replace(string(p.offer()), "RTP/SAVP", "RTP/AVP", 1), "")
		if code, _ := p.reinviteAnswer([]byte(plain)); code != sip.StatusNotAcceptableHere {
			t.Fatalf("a re-INVITE to plain RTP: %d, want 488", code)
		}
	})
}

// talkAndHear is a round of half duplex in group gid: the phone takes the floor with `*` (the group's terminal
// sees the SIP account talk), its tone is heard, it releases the floor with `#`, and hears the terminal talk.
func (p *softphone) talkAndHear(ctx context.Context, term *termclient.Client, gid string) {
	p.t.Helper()
	p.press('*')
	floorTalker(ctx, p.t, term, gid, phone)
	p.talkToGroup(ctx, term)
	p.press('#')
	floorTalker(ctx, p.t, term, gid, "")
	p.hearGroup(ctx, term, gid)
}
