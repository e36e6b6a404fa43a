package sip

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/emiago/sipgo/sip"
	"github.com/icholy/digest"

	"tenfour/internal/auth"
	"tenfour/internal/platform/identity"
)

// register is the registrar (RFC 3261 §10.3): a REGISTER without an answer gets a digest challenge; with one,
// auth checks it (throttle, lockout, account state) and the binding is made, refreshed or removed. One binding
// per account: a phone that registers again from elsewhere replaces the first. Unknown ids, accounts that are
// not SIP accounts and wrong passwords all get the same fresh challenge (401); a locked, disabled or expired
// account and a throttled address get 403.
func (s *Server) register(req *sip.Request, tx sip.ServerTransaction) {
	aor := ""
	if to := req.To(); to != nil {
		aor = to.Address.User
	}
	p, ok := s.authorize(req, tx, aor) // the address of record must be the account that answers
	if !ok {
		return
	}
	ctx := context.Background()
	expires, ok := s.expiresOf(req)
	if !ok {
		respond(tx, req, sip.StatusIntervalToBrief, "Interval Too Brief",
			sip.NewHeader("Min-Expires", strconv.Itoa(int(s.opt.MinExpires/time.Second))))
		return
	}
	contact := req.Contact()
	if expires == 0 || contact == nil {
		s.regs.remove(ctx, p.AccountID)
		respond(tx, req, sip.StatusOK, "OK")
		return
	}
	s.regs.bind(ctx, p, binding{contact: contact.Address.String(), source: req.Source(), transport: req.Transport()}, expires)
	res := sip.NewResponseFromRequest(req, sip.StatusOK, "OK", nil)
	c := contact.Clone()
	c.Params = sip.NewParams()
	c.Params.Add("expires", strconv.Itoa(int(expires/time.Second)))
	res.AppendHeader(c)
	e := sip.ExpiresHeader(expires / time.Second)
	res.AppendHeader(&e)
	if err := tx.Respond(res); err != nil {
		slog.Debug("sip: respond", "method", req.Method, "err", err)
	}
}

// authorize is the digest check of a REGISTER and of an INVITE (RFC 3261 §22): no answer, an answer to a nonce
// that is not ours or is stale, a wrong password, an unknown id and an account that is not a SIP account get a
// fresh challenge (401); an answer whose user name is not user (the REGISTER's address of record, the INVITE's
// caller), a locked, disabled or expired account and a throttled address get 403. Every answer goes through
// auth's throttle and lockout. ok is false when req has been answered.
func (s *Server) authorize(req *sip.Request, tx sip.ServerTransaction, user string) (identity.Principal, bool) {
	h := req.GetHeader("Authorization")
	if h == nil {
		s.challenge(tx, req, false)
		return identity.Principal{}, false
	}
	creds, err := digest.ParseCredentials(h.Value())
	if err != nil {
		respond(tx, req, sip.StatusBadRequest, "Bad Request")
		return identity.Principal{}, false
	}
	switch ok, fresh := s.nonces.check(creds.Nonce, time.Now()); {
	case !ok:
		s.challenge(tx, req, false)
		return identity.Principal{}, false
	case !fresh: // a nonce of ours that is too old: the client answers the new one without asking its user
		s.challenge(tx, req, true)
		return identity.Principal{}, false
	}
	if user != creds.Username {
		respond(tx, req, sip.StatusForbidden, "Forbidden")
		return identity.Principal{}, false
	}
	ctx := context.Background()
	addr := hostOf(req.Source())
	p, err := s.auth.CheckSIPDigest(ctx, addr, auth.SIPDigest{Method: string(req.Method), Creds: creds})
	switch {
	case errors.Is(err, auth.ErrSIPRefused):
		s.challenge(tx, req, false)
		return identity.Principal{}, false
	case err != nil:
		slog.InfoContext(ctx, "sip: digest refused", "method", req.Method, "msId", creds.Username, "addr", addr, "err", err)
		respond(tx, req, sip.StatusForbidden, "Forbidden")
		return identity.Principal{}, false
	}
	return p, true
}

// challenge answers 401 with a new nonce (stale: the answer was right but to an old nonce, RFC 2617 §3.2.1).
func (s *Server) challenge(tx sip.ServerTransaction, req *sip.Request, stale bool) {
	ch := digest.Challenge{Realm: auth.SIPRealm, Nonce: s.nonces.issue(time.Now()), Algorithm: "MD5",
		QOP: []string{"auth"}, Stale: stale}
	respond(tx, req, sip.StatusUnauthorized, "Unauthorized", sip.NewHeader("WWW-Authenticate", ch.String()))
}

// expiresOf is the registration time the REGISTER asks for (its contact's expires parameter, else its Expires
// header, else the longest), shortened to MaxExpires; ok is false when it is shorter than MinExpires but not 0.
func (s *Server) expiresOf(req *sip.Request) (time.Duration, bool) {
	secs := -1
	if c := req.Contact(); c != nil {
		if v, found := c.Params.Get("expires"); found {
			if n, err := strconv.Atoi(v); err == nil {
				secs = n
			}
		}
	}
	if h := req.GetHeader("Expires"); secs < 0 && h != nil {
		if n, err := strconv.Atoi(strings.TrimSpace(h.Value())); err == nil {
			secs = n
		}
	}
	if secs < 0 {
		return s.opt.MaxExpires, true
	}
	d := time.Duration(secs) * time.Second
	switch {
	case secs == 0:
		return 0, true
	case d < s.opt.MinExpires:
		return 0, false
	}
	return min(d, s.opt.MaxExpires), true
}

// hostOf is the address part of host:port (the throttle counts per address, not per port).
func hostOf(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return hostport
}

// nonces are stateless: a nonce is its issue time and an HMAC of it under a key of this process, so a flood of
// REGISTERs keeps nothing in memory. A nonce may be answered more than once while it is fresh (a phone's
// re-REGISTERs); the answer is still checked against the account's password each time.
type nonces struct {
	key []byte
	ttl time.Duration
}

func (n nonces) issue(now time.Time) string {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(now.UnixNano()))
	return base64.RawURLEncoding.EncodeToString(append(b[:], n.mac(b[:])...))
}

func (n nonces) mac(b []byte) []byte {
	m := hmac.New(sha256.New, n.key)
	m.Write(b)
	return m.Sum(nil)[:16]
}

// check tells whether nonce is one of ours (ok) and still fresh.
func (n nonces) check(nonce string, now time.Time) (ok, fresh bool) {
	b, err := base64.RawURLEncoding.DecodeString(nonce)
	if err != nil || len(b) != 24 || !hmac.Equal(b[8:], n.mac(b[:8])) {
		return false, false
	}
	at := time.Unix(0, int64(binary.BigEndian.Uint64(b[:8])))
	return true, now.Sub(at) < n.ttl && !at.After(now)
}

// binding is where a registered account is reached.
type binding struct {
	contact   string // the Contact URI it registered
	source    string // host:port the REGISTER came from
	transport string
}

// registration is one account's live binding and the timer that ends it.
type registration struct {
	p     identity.Principal
	b     binding
	timer *time.Timer
}

// registrar holds the live registrations of this node; an account is online from its first binding until the
// binding expires or is removed.
type registrar struct {
	mu      sync.Mutex
	regs    map[string]*registration
	online  func(ctx context.Context, p identity.Principal)
	offline func(ctx context.Context, p identity.Principal)
}

func newRegistrar(online, offline func(ctx context.Context, p identity.Principal)) *registrar {
	return &registrar{regs: map[string]*registration{}, online: online, offline: offline}
}

// bind makes or refreshes p's binding for d; the account comes online when it had none.
func (r *registrar) bind(ctx context.Context, p identity.Principal, b binding, d time.Duration) {
	r.mu.Lock()
	reg, had := r.regs[p.AccountID]
	if had {
		reg.timer.Stop()
		reg.b = b
	} else {
		reg = &registration{p: p, b: b}
		r.regs[p.AccountID] = reg
	}
	reg.timer = time.AfterFunc(d, func() { r.expire(reg) })
	r.mu.Unlock()
	if !had {
		r.online(ctx, p)
	}
}

// expire ends reg when its timer fires, unless it was refreshed or removed meanwhile.
func (r *registrar) expire(reg *registration) {
	r.mu.Lock()
	if r.regs[reg.p.AccountID] != reg {
		r.mu.Unlock()
		return
	}
	delete(r.regs, reg.p.AccountID)
	r.mu.Unlock()
	r.offline(context.Background(), reg.p)
}

// remove ends account id's binding (a REGISTER with expires 0).
func (r *registrar) remove(ctx context.Context, id string) {
	r.mu.Lock()
	reg, ok := r.regs[id]
	if ok {
		reg.timer.Stop()
		delete(r.regs, id)
	}
	r.mu.Unlock()
	if ok {
		r.offline(ctx, reg.p)
	}
}

// registeredFrom is account id's principal when it holds a live binding made from source (host:port).
func (r *registrar) registeredFrom(id, source string) (identity.Principal, bool) {
	reg, ok := r.lookup(id)
	if !ok || hostOf(reg.b.source) != hostOf(source) {
		return identity.Principal{}, false
	}
	return reg.p, true
}

// lookup is account id's live registration (a copy).
func (r *registrar) lookup(id string) (registration, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	reg, ok := r.regs[id]
	if !ok {
		return registration{}, false
	}
	return *reg, true
}

// closeAll ends every binding (the server stops).
func (r *registrar) closeAll(ctx context.Context) {
	r.mu.Lock()
	regs := r.regs
	r.regs = map[string]*registration{}
	r.mu.Unlock()
	for _, reg := range regs {
		reg.timer.Stop()
		r.offline(ctx, reg.p)
	}
}
