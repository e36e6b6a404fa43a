package media

import (
	"net/netip"
	"sync/atomic"
	"time"

	"github.com/pion/stun/v4"
	"github.com/pion/webrtc/v4"
)

// A voice client checks consent (RFC 7675) on its selected pair every 2–2.5 s: a STUN binding request the server
// must answer. Through pion each one is handed from the UDP mux's reader to the candidate's goroutine, then to the
// agent's task loop, which answers — three goroutines woken per check, most of a connected-but-silent terminal's
// cost on the server. The media socket's reader answers them itself for a client on the direct path, as pion
// would: the same checks of the username and of MESSAGE-INTEGRITY with the server's ICE password, the same
// success response (XOR-MAPPED-ADDRESS, MESSAGE-INTEGRITY, FINGERPRINT), from the same socket (docs/adr/0046).
//
// Only a plain check is answered here: a request from the controlling side (the client offered) without
// USE-CANDIDATE or NOMINATION, on the pair already selected (the inbound entry is under its address). A nomination, a role
// conflict, a check with other credentials (an ICE restart under way) or one that fails its integrity goes on to
// pion as before.
//
// pion's agent sends no consent checks of its own on a voice connection (docs/adr/0048): it would send one on
// every turn of its task loop, which turns every 2 s whatever keepalive interval it is given — with the client's
// own checks, three packets and their wake-ups every 2 s per idle terminal. What it knows of the client is the
// client's authenticated checks instead, as an ICE-lite server's liveness is: the reader passes one valid check in
// every consentPassEvery on to pion, which answers it and so sees the client. A client that vanishes sends none,
// so pion's disconnected timeout, consentDisconnected (above two pass intervals), runs out, and its failed one
// ends the connection at the same 30 s as before (RFC 7675's consent expiry).

// consentDisconnected and consentFailed are a voice connection's ICE timeouts: disconnected after 12 s without a
// packet pion sees (a client's check every consentPassEvery, or every one a client on no direct path sends),
// failed 18 s after that — the 30 s the engine's other connections take (5 s + 25 s).
const (
	consentDisconnected = 12 * time.Second
	consentFailed       = 18 * time.Second
)

// consentPassEvery is how often a client's valid consent check goes on to pion rather than being answered in the
// reader: every third check of a pion client (2 s), every second of a browser (2.5 s) — pion sees the client every
// 5–6 s, and every 7.5–8 s when the one check that would have gone on is lost, inside consentDisconnected.
const consentPassEvery = 5 * time.Second

// attrNomination is renomination's NOMINATION attribute (libwebrtc's type, pion's default): a request carrying it
// nominates, as USE-CANDIDATE does.
const attrNomination stun.AttrType = 0xC001

// iceCreds are what answering a client's check needs of its connection's current ICE parameters.
type iceCreds struct {
	username  string                // "serverUfrag:clientUfrag", as the client's requests carry it
	integrity stun.MessageIntegrity // keyed with the server's ICE password
}

// consent answers one client's checks; creds are re-read from the connection when a request's username differs
// (an ICE restart changes both sides' credentials).
type consent struct {
	ice      *webrtc.ICETransport
	creds    atomic.Pointer[iceCreds]
	answered atomic.Uint64
	passedOn atomic.Uint64 // valid checks left to pion (consentPassEvery)
	passedAt time.Time     // when the last one was (used under the inbound's mutex)

	// the request and the response, reused (used under the inbound's mutex)
	req, resp stun.Message
}

func newConsent(ice *webrtc.ICETransport) *consent {
	c := &consent{ice: ice}
	c.refresh()
	return c
}

// refresh reads the connection's ICE parameters; nil unless it is connected (while an ICE restart's checks run,
// they are pion's: it learns the pairs from them) with the server as the controlled side.
func (c *consent) refresh() *iceCreds {
	if c.ice == nil || c.ice.Role() != webrtc.ICERoleControlled || c.ice.State() != webrtc.ICETransportStateConnected {
		c.creds.Store(nil)
		return nil
	}
	local, err := c.ice.GetLocalParameters()
	if err != nil {
		return nil
	}
	remote, err := c.ice.GetRemoteParameters()
	if err != nil || local.UsernameFragment == "" || remote.UsernameFragment == "" {
		return nil
	}
	cr := &iceCreds{username: local.UsernameFragment + ":" + remote.UsernameFragment,
		integrity: stun.NewShortTermIntegrity(local.Password)}
	c.creds.Store(cr)
	return cr
}

// answer handles a STUN message from the client at from on s: true when it was a consent check answered here.
func (c *consent) answer(b []byte, s *mediaSocket, from netip.AddrPort) bool {
	cr := c.creds.Load()
	if cr == nil && c.refresh() == nil {
		return false
	}
	req := &c.req
	req.Raw = append(req.Raw[:0], b...)
	if req.Decode() != nil || req.Type != stun.BindingRequest || !req.Contains(stun.AttrICEControlling) ||
		req.Contains(stun.AttrICEControlled) || req.Contains(stun.AttrUseCandidate) || req.Contains(attrNomination) {
		return false
	}
	var user stun.Username
	if user.GetFrom(req) != nil {
		return false
	}
	if cr == nil || string(user) != cr.username {
		if cr = c.refresh(); cr == nil || string(user) != cr.username {
			return false
		}
	}
	if cr.integrity.Check(req) != nil || stun.Fingerprint.Check(req) != nil {
		return false
	}
	if now := time.Now(); now.Sub(c.passedAt) >= consentPassEvery {
		c.passedAt = now // pion answers this one, and so sees the client alive
		c.passedOn.Add(1)
		return false
	}
	mapped := stun.XORMappedAddress{IP: from.Addr().AsSlice(), Port: int(from.Port())}
	if c.resp.Build(stun.NewTransactionIDSetter(req.TransactionID), stun.BindingSuccess, &mapped, cr.integrity,
		stun.Fingerprint) != nil {
		return false
	}
	if _, err := s.sys.writeTo(c.resp.Raw, from); err != nil {
		return false // pion answers it instead
	}
	c.answered.Add(1)
	mConsentAnswered.Inc()
	return true
}
