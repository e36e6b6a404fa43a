package sip

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emiago/sipgo"
	"github.com/emiago/sipgo/sip"

	"tenfour/internal/directory"
	"tenfour/internal/platform/identity"
)

// Trunks (issue 34, docs/sip.md "Trunks"): tenfour registers to a PBX or a SIP provider as a user agent of its
// own — REGISTER with digest, refreshed at half the granted time, retried with a doubling pause (2 s to 5 min)
// while the registrar refuses or does not answer —, takes the calls the registrar sends it for a configured
// number into that number's group (half duplex, as a phone into a group, carried by the trunk's SIP account) or
// to its dispatcher (an individual call), and places calls to numbers through it (Trunk.Dial). The trunks are
// read when the SIP side starts and every minute after (SyncTrunks). A trunk is trusted by address: an INVITE
// from its registrar's or proxy's address to its user or one of its numbers is the trunk's.

// TrunkSource is where the SIP side reads its trunks and records their registrations' state (*TrunkStore).
type TrunkSource interface {
	List(ctx context.Context, customer int64) ([]TrunkConfig, error)
	SetStatus(ctx context.Context, id TrunkID, status string, at int64) error
}

const (
	trunkExpires  = 5 * time.Minute // the registration time asked for
	trunkRetryMin = 2 * time.Second
	trunkRetryMax = 5 * time.Minute
)

// Trunk is one configured trunk at work: its registration and its calls.
type Trunk struct {
	cfg    TrunkConfig
	s      *Server
	log    *slog.Logger
	cancel context.CancelFunc // ends run: the trunk was removed, or the server stops
	status string             // run's
	// registered tells others than run whether the registrar holds the trunk's registration (DialNumber)
	registered atomic.Bool

	mu sync.Mutex
	c  *sipgo.Client // sends from the SIP listener's UDP socket: the registrar's requests come back to it
	// dialogs are the calls the trunk placed (Dial): the far end's BYE finds its call there
	dialogs *sipgo.DialogClientCache
	local   net.IP   // this side's address toward the registrar (Contact, Via)
	peers   []string // the registrar's and the proxy's addresses: where the trunk's INVITEs come from
}

// trunks are the node's trunks at work, by id.
type trunks struct {
	mu   sync.Mutex
	base context.Context // Run's: the trunks' registrations end with it
	live map[TrunkID]*Trunk
	wg   sync.WaitGroup
}

// trunkSync is how often Run reads the trunks again (a trunk added, changed or removed with `tenfour admin
// sip-trunk` is taken up within it).
const trunkSync = time.Minute

// runTrunks keeps the node's trunks in line with their rows until ctx ends, then waits for their un-REGISTERs.
func (s *Server) runTrunks(ctx context.Context) {
	if s.opt.Trunks == nil {
		<-ctx.Done()
		return
	}
	s.trunks.mu.Lock()
	s.trunks.base = ctx
	s.trunks.mu.Unlock()
	tick := time.NewTicker(trunkSync)
	defer tick.Stop()
	for {
		if err := s.SyncTrunks(ctx); err != nil && ctx.Err() == nil {
			slog.Error("sip: trunks: read", "err", err)
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			s.trunks.wg.Wait()
			return
		}
	}
}

// SyncTrunks reads the trunks and brings those at work in line: a new one starts registering, a removed one
// un-REGISTERs and stops, a changed one does both. Run calls it at its start and every minute.
func (s *Server) SyncTrunks(ctx context.Context) error {
	if s.opt.Trunks == nil {
		return nil
	}
	cfgs, err := s.opt.Trunks.List(ctx, 0)
	if err != nil {
		return err
	}
	s.trunks.mu.Lock()
	defer s.trunks.mu.Unlock()
	if s.trunks.base == nil || s.trunks.base.Err() != nil {
		return errors.New("sip: the SIP side is not running")
	}
	want := map[TrunkID]TrunkConfig{}
	for _, c := range cfgs {
		want[c.ID] = c
	}
	for id, t := range s.trunks.live {
		if c, ok := want[id]; !ok || !sameTrunk(c, t.cfg) {
			t.cancel()
			delete(s.trunks.live, id)
		}
	}
	if s.trunks.live == nil {
		s.trunks.live = map[TrunkID]*Trunk{}
	}
	for id, cfg := range want {
		if s.trunks.live[id] != nil {
			continue
		}
		tctx, cancel := context.WithCancel(s.trunks.base)
		t := &Trunk{cfg: cfg, s: s, cancel: cancel, status: cfg.Status,
			log: slog.With("component", "sip", "trunk", cfg.Name, "customer", cfg.CustomerID)}
		s.trunks.live[id] = t
		s.trunks.wg.Go(func() { t.run(tctx) })
	}
	return nil
}

// sameTrunk tells whether a trunk's row is unchanged but for its status.
func sameTrunk(a, b TrunkConfig) bool {
	a.Status, a.StatusAt, b.Status, b.StatusAt = "", 0, "", 0
	return reflect.DeepEqual(a, b)
}

// Trunk is a customer's trunk at work by name (nil: none).
func (s *Server) Trunk(customer int64, name string) *Trunk {
	s.trunks.mu.Lock()
	defer s.trunks.mu.Unlock()
	for _, t := range s.trunks.live {
		if t.cfg.CustomerID == customer && t.cfg.Name == name {
			return t
		}
	}
	return nil
}

// prepare finds the trunk's peers and this side's address toward them, and makes its client (once; again after
// a failure: a name that did not resolve may resolve later).
func (t *Trunk) prepare() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.c != nil {
		return nil
	}
	registrar, err := withPort(t.cfg.Registrar)
	if err != nil {
		return fmt.Errorf("registrar: %w", err)
	}
	hosts := []string{registrar}
	if t.cfg.Proxy != "" {
		proxy, err := withPort(t.cfg.Proxy)
		if err != nil {
			return fmt.Errorf("outbound proxy: %w", err)
		}
		hosts = append(hosts, proxy)
	}
	var peers []string
	for _, h := range hosts {
		ips, err := net.LookupHost(hostOf(h))
		if err != nil {
			return err
		}
		peers = append(peers, ips...)
	}
	local, err := t.s.localToward(peers[len(peers)-1]) // the first hop: the proxy's when there is one
	if err != nil {
		return err
	}
	t.s.mu.Lock()
	udp := t.s.udp
	t.s.mu.Unlock()
	if udp == nil {
		return errors.New("no SIP listener")
	}
	c, err := sipgo.NewClient(t.s.ua, sipgo.WithClientConnectionAddr(udp.LocalAddr().String()), sipgo.WithClientHostname(local.String()))
	if err != nil {
		return err
	}
	t.c, t.local, t.peers = c, local, peers
	t.dialogs = sipgo.NewDialogClientCache(c, *t.contact(local))
	return nil
}

// client is the trunk's client and this side's address toward it (nil before prepare).
func (t *Trunk) client() (*sipgo.Client, net.IP) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.c, t.local
}

// from tells whether a request's source host is the trunk's registrar or proxy.
func (t *Trunk) from(host string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Contains(t.peers, host)
}

// withPort is host[:port] with SIP's port (5060) when it names none.
func withPort(hostport string) (string, error) {
	if _, _, err := net.SplitHostPort(hostport); err == nil {
		return hostport, nil
	}
	if hostport == "" {
		return "", errors.New("empty address")
	}
	return net.JoinHostPort(hostport, "5060"), nil
}

// run keeps the trunk registered until ctx ends, then un-REGISTERs it.
func (t *Trunk) run(ctx context.Context) {
	retry := trunkRetryMin
	for {
		err := t.prepare()
		var granted time.Duration
		if err == nil {
			granted, err = t.register(ctx, trunkExpires)
		}
		wait := granted / 2
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			t.setStatus(ctx, "failed: "+err.Error())
			wait, retry = retry, min(2*retry, trunkRetryMax)
		} else {
			t.setStatus(ctx, "registered")
			retry = trunkRetryMin
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	if t.status != "registered" {
		return
	}
	// removed, or the server stops: end the registration (the listener is still open)
	uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	if _, err := t.register(uctx, 0); err != nil {
		t.log.Info("sip: trunk: un-REGISTER", "err", err)
	}
	t.setStatus(uctx, "stopped")
}

// setStatus records a change of the registration's state: in the log and in the trunk's row.
func (t *Trunk) setStatus(ctx context.Context, status string) {
	if status == t.status {
		return
	}
	t.status = status
	t.registered.Store(status == "registered")
	if status == "registered" || status == "stopped" {
		t.log.Info("sip: trunk " + status)
	} else {
		t.log.Warn("sip: trunk registration", "status", status)
	}
	if err := t.s.opt.Trunks.SetStatus(context.WithoutCancel(ctx), t.cfg.ID, status, time.Now().UnixMilli()); err != nil {
		t.log.Warn("sip: trunk: status not stored", "err", err)
	}
}

// domain is the registrar's host: the trunk's addresses of record are user@domain.
func (t *Trunk) domain() (string, int) {
	registrar, _ := withPort(t.cfg.Registrar)
	host, p, _ := net.SplitHostPort(registrar)
	port, _ := strconv.Atoi(p)
	return host, port
}

// request is a request of the trunk's user to recipient, through the outbound proxy when there is one.
func (t *Trunk) request(method sip.RequestMethod, recipient, to sip.Uri, local net.IP) *sip.Request {
	req := sip.NewRequest(method, recipient)
	host, _ := t.domain()
	from := sip.NewParams()
	from.Add("tag", sip.GenerateTagN(8))
	req.AppendHeader(&sip.FromHeader{Address: sip.Uri{User: t.cfg.Username, Host: host}, Params: from})
	req.AppendHeader(&sip.ToHeader{Address: to, Params: sip.NewParams()})
	req.AppendHeader(t.contact(local))
	if t.cfg.Proxy != "" {
		proxy, _ := withPort(t.cfg.Proxy)
		req.SetDestination(proxy)
	}
	return req
}

// contact is where the registrar reaches the trunk: the SIP listener's UDP port on the address toward it.
func (t *Trunk) contact(local net.IP) *sip.ContactHeader {
	_, p, _ := net.SplitHostPort(t.s.Addr())
	port, _ := strconv.Atoi(p)
	return &sip.ContactHeader{Address: sip.Uri{User: t.cfg.Username, Host: local.String(), Port: port}}
}

// register sends one REGISTER asking for expires (0: un-REGISTER), answering a digest challenge, and returns
// the time granted.
func (t *Trunk) register(ctx context.Context, expires time.Duration) (time.Duration, error) {
	c, local := t.client()
	host, port := t.domain()
	aor := sip.Uri{User: t.cfg.Username, Host: host}
	req := t.request(sip.REGISTER, sip.Uri{Host: host, Port: port}, aor, local)
	e := sip.ExpiresHeader(expires / time.Second)
	req.AppendHeader(&e)
	rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	res, err := c.Do(rctx, req)
	if err == nil && (res.StatusCode == sip.StatusUnauthorized || res.StatusCode == sip.StatusProxyAuthRequired) {
		res, err = c.DoDigestAuth(rctx, req, res, sipgo.DigestAuth{Username: t.cfg.Username, Password: t.cfg.Password})
	}
	if err != nil {
		return 0, err
	}
	if res.StatusCode != sip.StatusOK {
		return 0, fmt.Errorf("%d %s", res.StatusCode, res.Reason)
	}
	return grantedExpires(res, expires), nil
}

// grantedExpires is the registration time a 200 grants: its Contact's expires, else its Expires, else asked.
func grantedExpires(res *sip.Response, asked time.Duration) time.Duration {
	if c := res.Contact(); c != nil {
		if v, ok := c.Params.Get("expires"); ok {
			if n, err := strconv.Atoi(v); err == nil && n > 0 {
				return time.Duration(n) * time.Second
			}
		}
	}
	if h := res.GetHeader("Expires"); h != nil {
		if n, err := strconv.Atoi(h.Value()); err == nil && n > 0 {
			return time.Duration(n) * time.Second
		}
	}
	return asked
}

// trunkOf is the trunk an INVITE comes in by and the number it is for: from the trunk's registrar or proxy,
// either to one of the trunk's numbers (providers that route a number to the registered Contact with the number
// as the request's user) or to the trunk's user (the Contact it registered), the number then the To's user.
func (s *Server) trunkOf(req *sip.Request) (*Trunk, string, bool) {
	source := hostOf(req.Source())
	s.trunks.mu.Lock()
	defer s.trunks.mu.Unlock()
	for _, t := range s.trunks.live {
		switch {
		case !t.from(source):
		case slices.ContainsFunc(t.cfg.Numbers, func(n TrunkNumber) bool { return n.Number == req.Recipient.User }):
			return t, req.Recipient.User, true
		case req.Recipient.User == t.cfg.Username && req.To() != nil:
			return t, req.To().Address.User, true
		}
	}
	return nil, "", false
}

// admitTrunk is where a trunk's call for number lands: its group, if the trunk's account is a member of it, or
// its dispatcher. An unknown number is not admitted (404: the number is not one of tenfour's).
func (t *Trunk) admitTrunk(ctx context.Context, number string) (admission, bool, error) {
	p := identity.Principal{AccountID: t.cfg.AccountID, CustomerID: t.cfg.CustomerID}
	for _, n := range t.cfg.Numbers {
		if n.Number != number {
			continue
		}
		if n.Dispatcher != "" {
			return admission{p: p, callee: n.Dispatcher, trunk: true}, true, nil
		}
		member, err := t.s.opt.Calls.Groups.IsMember(ctx, p.CustomerID, directory.GroupID(n.Group), p.AccountID)
		return admission{p: p, gid: n.Group}, member, err
	}
	return admission{}, false, nil
}

// routeInvite takes a new INVITE of a trunk to its trunk, any other to invite (the phones').
func (s *Server) routeInvite(req *sip.Request, tx sip.ServerTransaction) {
	if to := req.To(); to != nil && !to.Params.Has("tag") {
		if t, number, ok := s.trunkOf(req); ok {
			t.invite(req, tx, number)
			return
		}
	}
	s.invite(req, tx)
}

// invite answers a call from the trunk for number: into its group or to its dispatcher, carried by the trunk's
// account; a number the trunk does not have is 404.
func (t *Trunk) invite(req *sip.Request, tx sip.ServerTransaction, number string) {
	if !t.s.opt.Calls.carried() {
		respond(tx, req, sip.StatusTemporarilyUnavailable, "Temporarily Unavailable")
		return
	}
	ctx := context.Background()
	a, ok, err := t.admitTrunk(ctx, number)
	switch {
	case err != nil:
		t.log.ErrorContext(ctx, "sip: trunk: invite: membership", "number", number, "err", err)
		respond(tx, req, sip.StatusInternalServerError, "Server Internal Error")
	case !ok:
		t.log.InfoContext(ctx, "sip: trunk: a call for a number it does not have", "number", number)
		respond(tx, req, sip.StatusNotFound, "Not Found")
	default:
		t.log.InfoContext(ctx, "sip: trunk: call", "number", number, "from", req.From().Address.User)
		t.s.answerInvite(req, tx, a)
	}
}
