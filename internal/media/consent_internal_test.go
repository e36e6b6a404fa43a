package media

import (
	"bytes"
	"net"
	"testing"
	"time"

	"github.com/pion/stun/v4"
)

// A plain consent check from the client, with the server's credentials, is answered in the reader as pion's agent
// would (but one in every consentPassEvery, left to pion): a success response to the same transaction, the
// client's address in XOR-MAPPED-ADDRESS, signed with the server's password and fingerprinted. Anything pion must
// judge — a nomination, a role conflict, other credentials, a broken signature, a response to the server's own
// check — is left to it, unanswered here.
func TestReaderAnswersAClientsConsentCheck(t *testing.T) {
	s := newMediaSocket(loopbackUDP(t))
	c := loopbackUDP(t)
	from := c.LocalAddr().(*net.UDPAddr).AddrPort()
	const user, pwd = "srvU:cliU", "server-ice-password-22c"
	in := &inbound{consent: &consent{}}
	in.consent.creds.Store(&iceCreds{username: user, integrity: stun.NewShortTermIntegrity(pwd)})
	controlling := stun.RawAttribute{Type: stun.AttrICEControlling, Value: []byte{1, 2, 3, 4, 5, 6, 7, 8}}
	controlled := stun.RawAttribute{Type: stun.AttrICEControlled, Value: []byte{1, 2, 3, 4, 5, 6, 7, 8}}
	useCandidate := stun.RawAttribute{Type: stun.AttrUseCandidate}
	renominate := stun.RawAttribute{Type: attrNomination, Value: []byte{0, 0, 0, 2}}

	// The first valid check goes on to pion, which sees the client by it (one every consentPassEvery, ADR 0048).
	first := consentCheck(t, stun.BindingRequest, pwd, user, controlling)
	if in.take(first, s, from) || in.consent.passedOn.Load() != 1 {
		t.Fatalf("the first check was answered in the reader (%d passed on): pion's agent must see one", in.consent.passedOn.Load())
	}
	check := consentCheck(t, stun.BindingRequest, pwd, user, controlling)
	if !in.take(check, s, from) {
		t.Fatal("a plain consent check within consentPassEvery of the last passed on was left to pion")
	}
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	b := make([]byte, 1500)
	n, at, err := c.ReadFromUDPAddrPort(b)
	if err != nil || at != s.LocalAddr().(*net.UDPAddr).AddrPort() {
		t.Fatalf("no answer from the media socket: %v from %v", err, at)
	}
	resp := &stun.Message{Raw: append([]byte(nil), b[:n]...)}
	if err := resp.Decode(); err != nil || resp.Type != stun.BindingSuccess {
		t.Fatalf("answer %v: %v", resp.Type, err)
	}
	req := &stun.Message{Raw: check}
	if err := req.Decode(); err != nil || !bytes.Equal(resp.TransactionID[:], req.TransactionID[:]) {
		t.Fatalf("answer to another transaction (%v)", err)
	}
	var mapped stun.XORMappedAddress
	if err := mapped.GetFrom(resp); err != nil || mapped.Port != int(from.Port()) || !mapped.IP.Equal(from.Addr().AsSlice()) {
		t.Fatalf("mapped address %v (%v), want %v", mapped, err, from)
	}
	if err := stun.NewShortTermIntegrity(pwd).Check(resp); err != nil {
		t.Fatalf("integrity: %v", err)
	}
	if err := stun.Fingerprint.Check(resp); err != nil {
		t.Fatalf("fingerprint: %v", err)
	}
	if in.consent.answered.Load() != 1 {
		t.Fatalf("answered %d", in.consent.answered.Load())
	}

	for name, m := range map[string][]byte{
		"a nomination":                 consentCheck(t, stun.BindingRequest, pwd, user, controlling, useCandidate),
		"a renomination":               consentCheck(t, stun.BindingRequest, pwd, user, controlling, renominate),
		"a role conflict":              consentCheck(t, stun.BindingRequest, pwd, user, controlled),
		"no role":                      consentCheck(t, stun.BindingRequest, pwd, user),
		"other credentials":            consentCheck(t, stun.BindingRequest, pwd, "srvU:other", controlling),
		"a broken signature":           consentCheck(t, stun.BindingRequest, "not-the-password-at-all", user, controlling),
		"a response to its own checks": consentCheck(t, stun.BindingSuccess, pwd, user, controlling),
	} {
		if in.take(m, s, from) {
			t.Fatalf("%s was answered in the reader", name)
		}
	}
	if in.consent.answered.Load() != 1 || in.consent.passedOn.Load() != 1 {
		t.Fatalf("answered %d, passed on %d", in.consent.answered.Load(), in.consent.passedOn.Load())
	}
	_ = c.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	if _, _, err := c.ReadFromUDPAddrPort(b); err == nil {
		t.Fatal("the reader answered a message left to pion")
	}
}

func consentCheck(t *testing.T, typ stun.MessageType, pwd, user string, extra ...stun.Setter) []byte {
	t.Helper()
	setters := append([]stun.Setter{typ, stun.TransactionID, stun.NewUsername(user)}, extra...)
	setters = append(setters, stun.NewShortTermIntegrity(pwd), stun.Fingerprint)
	m, err := stun.Build(setters...)
	if err != nil {
		t.Fatal(err)
	}
	return m.Raw
}
