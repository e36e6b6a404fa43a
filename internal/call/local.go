package call

// The media of a party inside this process (docs/adr/0043): the SIP side's bridge of a phone call logs a terminal
// session in over the in-process listener, as before, but its audio does not cross loopback WebRTC: the session
// binds a local peer (media.NewLocalPeer) with the ticket its LocalMedia was made with (`rtc.local`), and the
// bridge then speaks into the forwarding and hears from it in process.

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"sync"
	"sync/atomic"

	"github.com/pion/rtp"

	"tenfour/internal/media"
	"tenfour/internal/media/oggopus"
	"tenfour/internal/platform/httpx"
)

// LocalMedia is an in-process party's audio: made with what it hears, bound to the party's terminal session when
// that session sends `rtc.local` with its Ticket, then spoken into with Say. Close ends it (and the session's
// local peer with it).
type LocalMedia struct {
	s       *Service
	account string
	ticket  string
	hear    media.Hear
	peer    atomic.Pointer[media.Peer]

	mu  sync.Mutex // Say's packet
	pkt rtp.Packet
}

// localTickets are the LocalMedia made and not yet bound, by ticket.
type localTickets struct {
	mu      sync.Mutex
	pending map[string]*LocalMedia
}

// NewLocalMedia makes the audio of account's in-process party (its terminal session to come), hearing through
// hear (media.Hear: a packet at a time, never blocking). Its Ticket binds it once, from a session of that account.
func (s *Service) NewLocalMedia(account string, hear media.Hear) *LocalMedia {
	var b [10]byte
	_, _ = rand.Read(b[:])
	m := &LocalMedia{s: s, account: account, ticket: rand.Text(), hear: hear}
	m.pkt.Header = rtp.Header{Version: 2, PayloadType: media.OpusPayloadType, SequenceNumber: binary.BigEndian.Uint16(b[:2]),
		Timestamp: binary.BigEndian.Uint32(b[2:6]), SSRC: binary.BigEndian.Uint32(b[6:])}
	s.locals.mu.Lock()
	if s.locals.pending == nil {
		s.locals.pending = map[string]*LocalMedia{}
	}
	s.locals.pending[m.ticket] = m
	s.locals.mu.Unlock()
	return m
}

// Ticket is what the party's session sends in `rtc.local` (termclient.MediaOptions.Local).
func (m *LocalMedia) Ticket() string { return m.ticket }

// Say sends one Opus packet as the party's talk, 20 ms or what its TOC says: forwarded while the party holds a
// floor, dropped (as a terminal's would be) while it does not or before the session bound it.
func (m *LocalMedia) Say(payload []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.pkt.SequenceNumber++
	m.pkt.Payload = payload
	if p := m.peer.Load(); p != nil {
		p.Speak(&m.pkt)
	}
	m.pkt.Timestamp += oggopus.Advance(payload)
}

// Close forgets an unbound ticket and closes the local peer of a bound one (the session then has no media).
func (m *LocalMedia) Close() {
	m.s.locals.mu.Lock()
	delete(m.s.locals.pending, m.ticket)
	m.s.locals.mu.Unlock()
	if p := m.peer.Load(); p != nil {
		p.Close()
	}
}

// take removes the ticket's LocalMedia if it was made for account (nil: none), so that it binds once.
func (l *localTickets) take(ticket, account string) *LocalMedia {
	l.mu.Lock()
	defer l.mu.Unlock()
	m := l.pending[ticket]
	if m == nil || m.account != account {
		return nil
	}
	delete(l.pending, ticket)
	return m
}

// rtcLocalReq is `rtc.local`.
type rtcLocalReq struct {
	Ticket string `json:"ticket"`
}

// rtcLocal binds the session's media to the LocalMedia of the ticket: a local peer replaces any peer it had. A
// ticket is good once, for a session of the account it was made for; any other gets the same error, so the
// answer never tells which tickets exist.
func (s *Service) rtcLocal(_ context.Context, cl *client, req rtcLocalReq) (any, error) {
	m := s.locals.take(req.Ticket, cl.acct.ID)
	if m == nil {
		return nil, httpx.BadParam("ticket", "unknown")
	}
	s.closePeer(cl)
	cl.peerMu.Lock()
	defer cl.peerMu.Unlock()
	p := s.media.NewLocalPeer(ownerOf(cl), func(p *media.Peer, _ bool) { go s.peerChanged(cl, p) }, m.hear)
	if err := s.keepPeer(cl, p); err != nil {
		return nil, err
	}
	m.peer.Store(p)
	go s.peerChanged(cl, p)
	return struct{}{}, nil
}
