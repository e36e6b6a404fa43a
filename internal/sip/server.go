// Package sip is tenfour's SIP side (issue 34, docs/adr/0037, docs/sip.md): a registrar and user agent on
// --sip-addr (UDP and TCP) where SIP accounts — desk phones, softphones, radio gateways — register with digest
// authentication through auth's throttle and lockout, are online while their registration lives, and call into
// their groups half-duplex (call.go, bridge.go). The SIP stack (parser, transactions, transports) is
// github.com/emiago/sipgo (dialogs too); SDP and RTP are github.com/pion/sdp's and github.com/pion/rtp's.
package sip

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/emiago/sipgo"
	"github.com/emiago/sipgo/sip"

	"tenfour/internal/auth"
	"tenfour/internal/media/libopus"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/realtime"
)

// Kind is how a SIP account's presence changes are logged ("sip online", "sip offline").
const Kind realtime.Kind = "sip"

// Authenticator checks a REGISTER's digest answer (*auth.Service): auth's throttle and lockout, the account's
// state, auth.ErrSIPRefused for anything it will not say more about.
type Authenticator interface {
	CheckSIPDigest(ctx context.Context, addr string, d auth.SIPDigest) (identity.Principal, error)
}

// Presence is told when a SIP account's registration starts and ends: the same calls the cluster makes for a
// node's accounts (*directory.Service: presence flag, logs, the `presence` event; *presence.Service: intervals).
type Presence interface {
	AccountOnline(ctx context.Context, p identity.Principal, kind realtime.Kind)
	AccountOffline(ctx context.Context, p identity.Principal, kind realtime.Kind)
}

// Options tune the registrar; zero values are the defaults.
type Options struct {
	MinExpires time.Duration // shortest registration accepted (423 below it); default 60 s
	MaxExpires time.Duration // longest registration granted (a longer one is shortened); default 1 h
	NonceTTL   time.Duration // how long a challenge's nonce is accepted; default 5 min
	Calls      Calls         // calls into groups (call.go)
	// Hold keeps a registered account online through its sockets' logouts (realtime.Hub.Hold): a call's group
	// side is a socket of the account, and its logout must not take a phone that is still registered offline.
	Hold func(accountID string) (release func())
	// Trunks are the operator's trunks to PBXs and providers (trunk.go); nil: none.
	Trunks TrunkSource
}

func (o Options) withDefaults() Options {
	if o.MinExpires <= 0 {
		o.MinExpires = time.Minute
	}
	if o.MaxExpires < o.MinExpires {
		o.MaxExpires = max(time.Hour, o.MinExpires)
	}
	if o.NonceTTL <= 0 {
		o.NonceTTL = 5 * time.Minute
	}
	if o.Calls.RTPTimeout <= 0 {
		o.Calls.RTPTimeout = 10 * time.Second
	}
	return o
}

// Server is the SIP side of one node.
type Server struct {
	opt      Options
	auth     Authenticator
	presence []Presence
	holdMu   sync.Mutex
	holds    map[string]func() // the registered accounts' Hold releases
	ua       *sipgo.UserAgent
	srv      *sipgo.Server
	nonces   nonces
	regs     *registrar
	dialogs  *sipgo.DialogServerCache // the calls' dialogs
	placed   *sipgo.DialogClientCache // the dialogs of the calls this side places to phones (dial.go)
	calls    calls
	live     liveCalls // the calls with a phone's media, for their re-INVITEs (reinvite.go)
	// stopCtx ends with Run: the calls in progress end with it.
	stopCtx   context.Context
	stopCalls context.CancelFunc

	mu   sync.Mutex
	udp  net.PacketConn
	tcp  net.Listener
	addr string
	tls  tlsListener // SIP over TLS (tls.go), when ListenTLS bound one

	trunks trunks // the trunks at work (trunk.go)
}

// New builds the SIP side; Listen binds it, Run serves it.
func New(a Authenticator, opt Options, presence ...Presence) (*Server, error) {
	ua, err := sipgo.NewUA(sipgo.WithUserAgent("tenfour"))
	if err != nil {
		return nil, err
	}
	srv, err := sipgo.NewServer(ua, sipgo.WithServerLogger(slog.Default().With("component", "sip")))
	if err != nil {
		ua.Close()
		return nil, err
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		ua.Close()
		return nil, err
	}
	opt = opt.withDefaults()
	s := &Server{opt: opt, auth: a, presence: presence, holds: map[string]func(){}, ua: ua, srv: srv,
		nonces: nonces{key: key, ttl: opt.NonceTTL}}
	s.stopCtx, s.stopCalls = context.WithCancel(context.Background())
	s.regs = newRegistrar(s.online, s.offline)
	client, err := sipgo.NewClient(ua) // the requests this side starts: a call's BYE, an INVITE to a phone
	if err != nil {
		ua.Close()
		return nil, err
	}
	s.dialogs = sipgo.NewDialogServerCache(client, sip.ContactHeader{Address: sip.Uri{User: "tenfour", Host: "localhost"}})
	s.placed = sipgo.NewDialogClientCache(client, sip.ContactHeader{Address: sip.Uri{User: "tenfour", Host: "localhost"}})
	srv.OnRegister(s.register)
	srv.OnOptions(s.options)
	srv.OnInvite(s.routeInvite) // a trunk's to its trunk, the phones' to invite
	srv.OnAck(s.ack)
	srv.OnBye(s.bye)
	return s, nil
}

// Listen binds UDP and TCP on addr (host:port; port 0 picks one free for both).
func (s *Server) Listen(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--sip-addr %q: %w", addr, err)
	}
	for try := 0; ; try++ {
		udp, err := net.ListenPacket("udp", net.JoinHostPort(host, port))
		if err != nil {
			return fmt.Errorf("sip: listen udp %s: %w", addr, err)
		}
		bound := udp.LocalAddr().(*net.UDPAddr)
		tcp, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(bound.Port)))
		if err != nil {
			udp.Close()
			if port == "0" && try < 10 { // the free UDP port is taken on TCP: pick another pair
				continue
			}
			return fmt.Errorf("sip: listen tcp %s: %w", addr, err)
		}
		s.mu.Lock()
		s.udp, s.tcp, s.addr = udp, tcp, net.JoinHostPort(host, strconv.Itoa(bound.Port))
		s.mu.Unlock()
		return nil
	}
}

// Addr is the host:port both listeners are bound to ("" before Listen).
func (s *Server) Addr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addr
}

// Run serves the bound listeners until ctx ends, then stops: the calls in progress end (their phones get a BYE,
// their terminal sessions log out), the listeners and the transactions close and every live registration ends
// (its account goes offline).
func (s *Server) Run(ctx context.Context) {
	s.mu.Lock()
	udp, tcp := s.udp, s.tcp
	s.mu.Unlock()
	if udp == nil { // nothing bound (the demo's address was taken): only the stack to release
		s.stopCalls()
		s.closeTLS()
		s.ua.Close()
		return
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); s.serve("udp", func() error { return s.srv.ServeUDP(udp) }) }()
	go func() { defer wg.Done(); s.serve("tcp", func() error { return s.srv.ServeTCP(tcp) }) }()
	slog.Info("sip: listening", "addr", s.Addr(), "transports", "udp,tcp")
	// libopus (ADR 0041) is compiled now, beside the listeners, rather than while the first call is answered.
	go func() {
		if err := libopus.Available(); err != nil {
			slog.Error("sip: no codec: calls of G.711 phones cannot carry audio", "err", err)
		}
	}()
	s.runTrunks(ctx) // until ctx ends and the trunks have un-REGISTERed
	s.stopCalls()
	s.calls.stop()
	udp.Close()
	tcp.Close()
	s.closeTLS()
	wg.Wait()
	s.ua.Close()
	s.regs.closeAll(context.WithoutCancel(ctx))
}

func (s *Server) serve(network string, fn func() error) {
	if err := fn(); err != nil && !errors.Is(err, net.ErrClosed) {
		slog.Error("sip: serve", "network", network, "err", err)
	}
}

func (s *Server) online(ctx context.Context, p identity.Principal) {
	if s.opt.Hold != nil {
		release := s.opt.Hold(p.AccountID)
		s.holdMu.Lock()
		if prev := s.holds[p.AccountID]; prev != nil {
			prev()
		}
		s.holds[p.AccountID] = release
		s.holdMu.Unlock()
	}
	for _, pr := range s.presence {
		pr.AccountOnline(ctx, p, Kind)
	}
}

func (s *Server) offline(ctx context.Context, p identity.Principal) {
	s.holdMu.Lock()
	if release := s.holds[p.AccountID]; release != nil {
		release()
		delete(s.holds, p.AccountID)
	}
	s.holdMu.Unlock()
	for _, pr := range s.presence {
		pr.AccountOffline(ctx, p, Kind)
	}
}

// respond answers req in tx; a response that cannot be sent (the client went away) is only logged.
func respond(tx sip.ServerTransaction, req *sip.Request, code int, reason string, headers ...sip.Header) {
	res := sip.NewResponseFromRequest(req, code, reason, nil)
	for _, h := range headers {
		res.AppendHeader(h)
	}
	if err := tx.Respond(res); err != nil {
		slog.Debug("sip: respond", "method", req.Method, "code", code, "err", err)
	}
}

// options answers OPTIONS (a phone's or a proxy's keep-alive and capability probe) with what the server allows.
func (s *Server) options(req *sip.Request, tx sip.ServerTransaction) {
	respond(tx, req, sip.StatusOK, "OK", sip.NewHeader("Allow", "REGISTER, OPTIONS, INVITE, ACK, CANCEL, BYE"))
}
