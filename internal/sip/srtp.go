package sip

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/pion/sdp/v3"
	"github.com/pion/srtp/v3"
)

// SRTP where the phone offers it (issue 34): an offer on RTP/SAVP keyed with SDES (RFC 4568, a=crypto with the
// key inline in the SDP — hence worth having only over TLS) is answered on RTP/SAVP with a key of this side, and
// the call's RTP both ways goes through github.com/pion/srtp; an offer on RTP/AVP is answered with plain RTP. An
// SAVP offer none of whose keys this side can use is not answered with plain RTP (the phone asked for secrecy):
// that stream is skipped, as one without G.711.

// srtpSuites are the crypto suites of RFC 4568 §6.2 (and RFC 7714's GCM) this side takes, in its preference.
var srtpSuites = map[string]srtp.ProtectionProfile{
	"AES_CM_128_HMAC_SHA1_80": srtp.ProtectionProfileAes128CmHmacSha1_80,
	"AES_CM_128_HMAC_SHA1_32": srtp.ProtectionProfileAes128CmHmacSha1_32,
	"AEAD_AES_128_GCM":        srtp.ProtectionProfileAeadAes128Gcm,
	"AEAD_AES_256_GCM":        srtp.ProtectionProfileAeadAes256Gcm,
}

// sdes is one a=crypto line: its tag, suite and master key and salt.
type sdes struct {
	tag     string
	suite   string
	profile srtp.ProtectionProfile
	key     []byte // the master key followed by the master salt
}

// offeredKeys reads a stream's SRTP keying: nil, true for plain RTP (RTP/AVP); the first usable a=crypto of an
// RTP/SAVP stream; false for an SAVP stream with none (an unknown suite, a key of the wrong length, a master key
// identifier or session parameters, which this side does not take).
func offeredKeys(md *sdp.MediaDescription) (*sdes, bool) {
	if !secure(md.MediaName.Protos) {
		return nil, true
	}
	for _, a := range md.Attributes {
		if a.Key != "crypto" {
			continue
		}
		if k, err := parseCrypto(a.Value); err == nil {
			return k, true
		}
	}
	return nil, false
}

// secure tells whether a stream's protocol is SRTP (RTP/SAVP; RTP/SAVPF is WebRTC's, not offered by phones).
func secure(protos []string) bool {
	return len(protos) == 2 && protos[0] == "RTP" && protos[1] == "SAVP"
}

var errCrypto = errors.New("sip: an a=crypto this side does not take")

// parseCrypto reads "<tag> <suite> inline:<base64 key||salt>[|<lifetime>]" (RFC 4568 §9.1); a master key
// identifier ("|1:4") or session parameters are refused.
func parseCrypto(v string) (*sdes, error) {
	f := strings.Fields(v)
	if len(f) != 3 {
		return nil, errCrypto
	}
	if _, err := strconv.ParseUint(f[0], 10, 32); err != nil {
		return nil, errCrypto
	}
	profile, ok := srtpSuites[f[1]]
	inline, found := strings.CutPrefix(f[2], "inline:")
	if !ok || !found {
		return nil, errCrypto
	}
	parts := strings.Split(inline, "|")
	if len(parts) > 2 || len(parts) == 2 && strings.Contains(parts[1], ":") {
		return nil, errCrypto
	}
	key, err := base64.StdEncoding.DecodeString(parts[0])
	if err != nil {
		if key, err = base64.RawStdEncoding.DecodeString(parts[0]); err != nil {
			return nil, errCrypto
		}
	}
	if n, err := keyLen(profile); err != nil || len(key) != n {
		return nil, errCrypto
	}
	return &sdes{tag: f[0], suite: f[1], profile: profile, key: key}, nil
}

// keyLen is a suite's master key and salt length together.
func keyLen(p srtp.ProtectionProfile) (int, error) {
	k, err := p.KeyLen()
	if err != nil {
		return 0, err
	}
	s, err := p.SaltLen()
	return k + s, err
}

// srtpPair is a call's SRTP: the phone's key opens what it sends, this side's seals what it sends. A nil pair is
// plain RTP.
type srtpPair struct {
	local *sdes // this side's key, in the answer
	in    *srtp.Context
	out   *srtp.Context
}

// newSRTP makes the call's SRTP for the phone's key (nil: plain RTP) with a new key of this side, same suite.
func newSRTP(remote *sdes) (*srtpPair, error) {
	if remote == nil {
		return nil, nil
	}
	n, err := keyLen(remote.profile)
	if err != nil {
		return nil, err
	}
	local := &sdes{tag: remote.tag, suite: remote.suite, profile: remote.profile, key: make([]byte, n)}
	if _, err := rand.Read(local.key); err != nil {
		return nil, err
	}
	in, err := contextOf(remote, srtp.SRTPReplayProtection(64))
	if err != nil {
		return nil, err
	}
	out, err := contextOf(local)
	if err != nil {
		return nil, err
	}
	return &srtpPair{local: local, in: in, out: out}, nil
}

func contextOf(k *sdes, opts ...srtp.ContextOption) (*srtp.Context, error) {
	n, err := k.profile.KeyLen()
	if err != nil {
		return nil, err
	}
	return srtp.CreateContext(k.key[:n], k.key[n:], k.profile, opts...)
}

// protos is the answer's protocol: RTP/SAVP for SRTP, else RTP/AVP.
func (s *srtpPair) protos() []string {
	if s == nil {
		return []string{"RTP", "AVP"}
	}
	return []string{"RTP", "SAVP"}
}

// attributes are the answer's a=crypto: the offer's tag and suite with this side's key (RFC 4568 §7.1.2).
func (s *srtpPair) attributes() []sdp.Attribute {
	if s == nil {
		return nil
	}
	return []sdp.Attribute{sdp.NewAttribute("crypto",
		fmt.Sprintf("%s %s inline:%s", s.local.tag, s.local.suite, base64.StdEncoding.EncodeToString(s.local.key)))}
}

// open is a packet from the phone as plain RTP (an SRTP packet that fails authentication or replays is an error).
func (s *srtpPair) open(dst, b []byte) ([]byte, error) {
	if s == nil {
		return b, nil
	}
	return s.in.DecryptRTP(dst, b, nil)
}

// seal is a plain RTP packet to the phone as SRTP.
func (s *srtpPair) seal(b []byte) ([]byte, error) {
	if s == nil {
		return b, nil
	}
	return s.out.EncryptRTP(nil, b, nil)
}
