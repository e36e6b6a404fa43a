package sip

import (
	"context"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emiago/sipgo"
	"github.com/emiago/sipgo/sip"

	"tenfour/internal/auth"
	"tenfour/internal/directory"
	"tenfour/internal/media"
	"tenfour/internal/platform/identity"
	"tenfour/internal/termclient"
)

// Groups tells whether an account belongs to a group of its customer (*directory.Store).
type Groups interface {
	IsMember(ctx context.Context, customerID int64, gid directory.GroupID, msID string) (bool, error)
}

// Calls is what calls into groups need (docs/adr/0037 §3). Without Login an INVITE from a registered phone is
// answered 480, as before calls into groups existed.
type Calls struct {
	Groups Groups
	// Login logs a terminal session in as the SIP account uid inside this server (the in-process listener and
	// auth.IssueResume, as the demo fleet): the call's bridge into the group, under the floor rules of any
	// terminal. Login fills in where and how (URL, HTTPClient, Resume) and dials; o names the account (UID) and
	// the media (a Local ticket).
	Login func(ctx context.Context, o termclient.Options) (*termclient.Client, error)
	// Local makes the session's media in process (call.Service.NewLocalMedia, docs/adr/0043): what the bridge
	// hears comes to hear, what it says goes in with Say once the session bound the ticket. Login and Local come
	// together: without both, calls are answered 480 (carried).
	Local func(account string, hear media.Hear) LocalMedia
	// RTPTimeout ends a call whose phone sent no RTP for that long; default 10 s.
	RTPTimeout time.Duration
	// Talk tells how each account asks for the floor (directory.Store has it); nil: every account as
	// directory.SIPTalkAuto.
	Talk TalkModes
}

// carried tells whether this server carries calls (Login and Local are set).
func (c Calls) carried() bool { return c.Login != nil && c.Local != nil }

// LocalMedia is a bridge's audio toward its group, in process (call.LocalMedia).
type LocalMedia interface {
	Ticket() string
	Say(payload []byte)
	Close()
}

// TalkModes is the per-account talk setting (docs/sip.md "Talk keys and voice"): one of the directory.SIPTalk modes.
type TalkModes interface {
	SIPTalk(ctx context.Context, customerID int64, msID string) (string, error)
}

// admission is an admitted INVITE: who calls, into which group or whom (an individual call, individual.go).
type admission struct {
	p      identity.Principal
	gid    directory.GroupID
	callee string // the account called; "" in a group call
	trunk  bool   // a call from a trunk: its far end talks on an open line with a dispatcher (line.go)
}

// calls are the live calls of this node, one per SIP account (a second INVITE of a phone in a call is busy:
// its terminal session would replace the first). A call whose dialog has ended (the phone's BYE) is still live
// while its terminal session logs out; a new INVITE of its account waits for that, up to endingWait, rather
// than be told busy — a phone that hangs up and dials again at once is not in a call.
type calls struct {
	mu      sync.Mutex
	live    map[string]*accountCall // by account id
	stopped bool                    // the server stops: no call begins any more (wg is being waited on)
	wg      sync.WaitGroup
}

// accountCall is an account's live call: ending closes when its dialog ends, done when it is freed.
type accountCall struct {
	ending, done chan struct{}
	hangOnce     sync.Once
	// group: a call into a group, in progress until it hangs up — a dialed phone does not wait for it (begin)
	group atomic.Bool
}

// hungUp marks the call's dialog ended: its account's next INVITE waits for done instead of being busy.
func (c *accountCall) hungUp() { c.hangOnce.Do(func() { close(c.ending) }) }

// endingWait bounds how long a new INVITE waits for its account's ended call to be freed (its session's logout:
// milliseconds, unless the database is slow).
const endingWait = 5 * time.Second

// invite answers a new INVITE: only a registered phone calling one of its groups is let through to a call;
// an INVITE inside a call's dialog is that call's re-INVITE (reinvite.go). The caller answers a
// digest challenge first, as a REGISTER does (authorize: auth's throttle and lockout); then a caller whose
// address holds no live registration gets 403; so does a group that is not the caller's — unknown, another
// customer's, or not a number — so the answer never tells which ids exist.
func (s *Server) invite(req *sip.Request, tx sip.ServerTransaction) {
	if to := req.To(); to != nil && to.Params.Has("tag") {
		s.reinvite(req, tx) // inside a call's dialog
		return
	}
	from := req.From()
	if from == nil {
		respond(tx, req, sip.StatusForbidden, "Forbidden")
		return
	}
	p, ok := s.authorize(req, tx, from.Address.User) // the caller answers a challenge, as for a REGISTER
	if !ok {
		return
	}
	if _, ok := s.regs.registeredFrom(p.AccountID, req.Source()); !ok {
		respond(tx, req, sip.StatusForbidden, "Forbidden")
		return
	}
	if !s.opt.Calls.carried() {
		respond(tx, req, sip.StatusTemporarilyUnavailable, "Temporarily Unavailable")
		return
	}
	ctx := context.Background()
	a, ok, err := s.admit(ctx, p, req.Recipient.User)
	if err != nil {
		slog.ErrorContext(ctx, "sip: invite: membership", "msId", p.AccountID, "to", req.Recipient.User, "err", err)
		respond(tx, req, sip.StatusInternalServerError, "Server Internal Error")
		return
	}
	if !ok {
		respond(tx, req, sip.StatusForbidden, "Forbidden")
		return
	}
	s.answerInvite(req, tx, a)
}

// answerInvite carries an admitted INVITE — a phone's, a trunk's (trunk.go) — from its offer to its end: 488
// for an offer this side cannot answer, 486 while the calling account is in a call, 503 while the server stops.
func (s *Server) answerInvite(req *sip.Request, tx sip.ServerTransaction, a admission) {
	p := a.p
	offer, err := parseOffer(req.Body())
	if err != nil {
		respond(tx, req, sip.StatusNotAcceptableHere, "Not Acceptable Here")
		return
	}
	wait, cancel := context.WithTimeout(s.stopCtx, endingWait)
	live, stopped := s.calls.begin(wait, p.AccountID, false)
	cancel()
	switch {
	case stopped:
		respond(tx, req, sip.StatusServiceUnavailable, "Service Unavailable")
		return
	case live == nil:
		respond(tx, req, sip.StatusBusyHere, "Busy Here")
		return
	}
	live.group.Store(a.gid != 0)
	free := sync.OnceFunc(func() { s.calls.end(p.AccountID, live) }) // an individual call frees it before its refusal
	defer free()
	d, err := s.dialogs.ReadInvite(req, tx)
	if err != nil {
		slog.Info("sip: invite", "msId", p.AccountID, "err", err)
		return
	}
	defer d.Close()
	defer context.AfterFunc(d.Context(), live.hungUp)()
	if a.callee != "" {
		s.serveIndividual(d, tx, a, offer, free, live.hungUp)
		return
	}
	s.serveCall(d, a, offer)
}

// admit decides what an INVITE's user part calls (docs/sip.md): a group of the caller's by its numeric id, else an
// account (8 digits, spec §5) other than the caller — a terminal or dispatcher, whether it exists and is of the
// caller's customer the call service tells when the call is placed, and anything else gets the same 403. A
// group the caller belongs to wins where a number could be both (group ids are the database's sequence: they
// reach 8 digits only past ten million groups).
func (s *Server) admit(ctx context.Context, p identity.Principal, user string) (admission, bool, error) {
	if gid, err := strconv.ParseInt(user, 10, 64); err == nil && gid > 0 {
		member, err := s.opt.Calls.Groups.IsMember(ctx, p.CustomerID, directory.GroupID(gid), p.AccountID)
		if err != nil {
			return admission{}, false, err
		}
		if member {
			return admission{p: p, gid: directory.GroupID(gid)}, true, nil
		}
	}
	if auth.ValidAccountID(user) && user != p.AccountID {
		return admission{p: p, callee: user}, true, nil
	}
	return admission{}, false, nil
}

// ack and bye are the dialogs' ACK and BYE (a BYE ends its call: the dialog's context ends).
func (s *Server) ack(req *sip.Request, tx sip.ServerTransaction) {
	if err := s.dialogs.ReadAck(req, tx); err != nil {
		slog.Debug("sip: ack", "err", err)
	}
}

func (s *Server) bye(req *sip.Request, tx sip.ServerTransaction) {
	if err := s.dialogs.ReadBye(req, tx); err == nil {
		return
	}
	if err := s.placed.ReadBye(req, tx); err == nil || s.trunkBye(req, tx) { // a call this side placed (dial.go, trunk_dial.go)
		return
	}
	respond(tx, req, sip.StatusCallTransactionDoesNotExists, "Call/Transaction Does Not Exist")
}

// begin admits account id's call unless the account is in a call already (nil) or the server stops. An
// account whose call has hung up and is being freed is waited for until ctx ends; so is one in a call that has
// not hung up, when patient (a dialed phone: its slot is taken only while a call ends or starts, dial.go) — unless
// that call is into a group, which lasts.
func (c *calls) begin(ctx context.Context, id string, patient bool) (live *accountCall, stopped bool) {
	for {
		c.mu.Lock()
		if c.stopped {
			c.mu.Unlock()
			return nil, true
		}
		cur := c.live[id]
		if cur == nil {
			if c.live == nil {
				c.live = map[string]*accountCall{}
			}
			live = &accountCall{ending: make(chan struct{}), done: make(chan struct{})}
			c.live[id] = live
			c.wg.Add(1)
			c.mu.Unlock()
			return live, false
		}
		c.mu.Unlock()
		if !patient || cur.group.Load() {
			select {
			case <-cur.ending:
			default:
				return nil, false // in a call
			}
		}
		select {
		case <-cur.done:
		case <-ctx.Done():
			return nil, false
		}
	}
}

// stop refuses new calls and waits for those in progress to end (their contexts ended with the server's).
func (c *calls) stop() {
	c.mu.Lock()
	c.stopped = true
	c.mu.Unlock()
	c.wg.Wait()
}

// end frees the account for its next call.
func (c *calls) end(id string, live *accountCall) {
	c.mu.Lock()
	if c.live[id] == live {
		delete(c.live, id)
	}
	c.mu.Unlock()
	close(live.done)
	c.wg.Done()
}

// serveCall carries an admitted call from its answer to its end: the phone's BYE (the dialog's context ends),
// the group side's end (its terminal session dropped), a phone that stopped sending RTP, or the server's stop;
// then the phone is told BYE unless it said it.
func (s *Server) serveCall(d *sipgo.DialogServerSession, a admission, o offer) {
	ctx, cancel := context.WithCancel(d.Context())
	defer cancel()
	stop := context.AfterFunc(s.stopCtx, cancel)
	defer stop()
	log := slog.With("component", "sip", "msId", a.p.AccountID, "gid", int64(a.gid), "callId", d.InviteRequest.CallID().Value())
	b, contact, ok := s.startCall(ctx, d, a, log, nil)
	if !ok {
		return
	}
	defer s.closeBridge(b)
	phone, res, err := s.answerCall(d.InviteRequest, o, contact)
	if err != nil {
		log.Warn("sip: call: media", "err", err)
		_ = d.Respond(sip.StatusServiceUnavailable, "Service Unavailable", nil)
		return
	}
	defer phone.close()
	defer b.connect(phone, sipDialog{d.InviteRequest.CallID().Value(), hostOf(d.InviteRequest.Source())})()
	if err := d.WriteResponse(res); err != nil {
		log.Info("sip: call: answer", "err", err)
		return
	}
	log.Info("sip: call into a group", "codec", o.codec, "talkKeys", o.events >= 0)
	err = b.run(ctx, s.opt.Calls.RTPTimeout)
	log.Info("sip: call ended", "why", err)
	sayBye(d, log)
}

// startCall is the start of an admitted call, in a group or individual: 100 Trying with this side's Contact,
// then the phone's terminal session logged in (openBridge; calls as there). A call that cannot start is answered
// 503 (ok false).
func (s *Server) startCall(ctx context.Context, d *sipgo.DialogServerSession, a admission, log *slog.Logger, calls chan<- termclient.Event) (*bridge, *sip.ContactHeader, bool) {
	contact, err := s.contactOf(d.InviteRequest)
	if err != nil {
		log.Warn("sip: call: no address toward the phone", "err", err)
		_ = d.Respond(sip.StatusServiceUnavailable, "Service Unavailable", nil)
		return nil, nil, false
	}
	_ = d.Respond(sip.StatusTrying, "Trying", nil, contact)
	b, err := s.openBridge(ctx, a, log, calls)
	if err != nil {
		log.Warn("sip: call: the phone's session did not start", "err", err)
		_ = d.Respond(sip.StatusServiceUnavailable, "Service Unavailable", nil)
		return nil, nil, false
	}
	return b, contact, true
}

// sayBye tells the phone BYE at a call's end, unless it said it.
func sayBye(d *sipgo.DialogServerSession, log *slog.Logger) {
	if d.Context().Err() != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := d.Bye(ctx); err != nil {
		log.Info("sip: call: bye", "err", err)
	}
}

// answerCall opens the call's RTP socket and makes the 200 that answers the offer with it.
func (s *Server) answerCall(req *sip.Request, o offer, contact *sip.ContactHeader) (*rtpSession, *sip.Response, error) {
	local, err := s.localToward(o.remote.IP.String())
	if err != nil {
		return nil, nil, err
	}
	phone, err := listenRTP(o, local)
	if err != nil {
		return nil, nil, err
	}
	answer, err := phone.answer()
	if err != nil {
		phone.close()
		return nil, nil, err
	}
	res := sip.NewSDPResponseFromRequest(req, answer)
	res.AppendHeader(contact)
	return phone, res, nil
}
