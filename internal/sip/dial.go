package sip

// Individual calls to a phone (docs/sip.md "Individual calls"): a dispatcher or terminal calls a SIP account as
// any terminal. internal/call asks this side first (call.Dialer): a registered phone's terminal session logs in
// on this node and gets the call's call.invite; this side then INVITEs the phone at its registered contact —
// the phone's 180 is the session's ringing, its 200 the session's answer, a refusal its busy or decline, and
// the caller's cancel (or the ring time running out) CANCELs the INVITE. Connected, the call is the bridge's, as
// a call from the phone: half duplex with the talk keys, either side's hang-up ends it.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/emiago/sipgo"
	"github.com/emiago/sipgo/sip"

	"tenfour/internal/platform/identity"
	"tenfour/internal/termclient"
)

// inviteWait is how long a dialed phone's session waits for the call.invite it was logged in for; slotWait how
// long a dial waits for the phone's call slot (beginDialed).
const (
	inviteWait = 5 * time.Second
	slotWait   = 2 * time.Second
)

// offered is a call.invite to the phone's session: the call and its caller.
type offered struct {
	CallID string `json:"callId"`
	Kind   string `json:"kind"`
	From   struct {
		MsID string `json:"msId"`
		Name string `json:"name"`
	} `json:"from"`
}

// Dial is internal/call's Dialer: accountID's phone, when it is registered here, gets a terminal session on this
// node (logged in and its media connected when Dial returns) that rings the phone for the call.invite it then
// gets. A phone in a call already is left to its session (busy).
func (s *Server) Dial(ctx context.Context, accountID string) bool {
	reg, ok := s.regs.lookup(accountID)
	if !ok || !s.opt.Calls.carried() {
		return false
	}
	log := slog.With("component", "sip", "msId", accountID, "dialed", true)
	return s.dialed(ctx, reg.p, log, func(ctx context.Context, call offered) (outCall, error) {
		target, req, phone, err := s.inviteFor(reg, call) // the phone at its registered contact
		if err != nil {
			return outCall{}, err
		}
		d, err := s.placed.WriteInvite(ctx, req)
		if err != nil {
			phone.close()
			return outCall{}, fmt.Errorf("INVITE %s: %w", target.String(), err)
		}
		return outCall{d: d, media: phone}, nil
	})
}

// dialed brings in a session of account p on this node for a call the call service places to it (Dial,
// DialNumber): it takes the account's call slot (beginDialed), logs the session in and, in the background, carries
// the call place makes for the call.invite the session gets (carryOut), then logs the session out and frees the
// slot. False: the session did not start; true: it did, or the slot is another call's, whose session answers busy.
func (s *Server) dialed(ctx context.Context, p identity.Principal, log *slog.Logger, place func(context.Context, offered) (outCall, error)) bool {
	live := s.beginDialed(ctx, p.AccountID)
	if live == nil {
		return true // in a call (its session answers busy), or the server stops
	}
	events := make(chan termclient.Event, 64)
	b, err := s.openBridge(ctx, admission{p: p}, log, events)
	if err != nil {
		s.calls.end(p.AccountID, live)
		log.Warn("sip: a dialed session did not start", "err", err)
		return false
	}
	go func() {
		defer s.calls.end(p.AccountID, live)
		defer s.closeBridge(b)
		defer live.hungUp() // over: a new INVITE of the account waits for its session to close instead of being busy
		s.carryOut(b, events, live.hungUp, place)
	}()
	return true
}

// beginDialed takes the phone's call slot, waiting up to slotWait while it is taken: a phone the call service
// dials is in no individual call (internal/call's dialOut), so a slot taken is a call ending (its session
// closing) or starting (its session logging in) — a moment later the slot or the session is there — or, rarely,
// a call into a group, whose session answers busy after the wait. Nil: still taken, or the server stops.
func (s *Server) beginDialed(ctx context.Context, accountID string) *accountCall {
	ctx, cancel := context.WithTimeout(ctx, slotWait)
	defer cancel()
	live, _ := s.calls.begin(ctx, accountID, true)
	return live
}

// outCall is a call this side places for the individual call offered to a session: its INVITE's dialog, the
// media it offered, how to answer a challenge to it, and whether the far end talks by voice (no talk keys).
type outCall struct {
	d     *sipgo.DialogClientSession
	media *rtpSession
	auth  sipgo.AnswerOptions
	voice bool
	line  bool // the far end talks on an open line whatever it offers (a trunk's: line.go)
}

// carryOut waits for the individual call offered to the session, places its INVITE (place) and follows it:
// ringing, the far end's answer or refusal are the session's call.status (ringing); answered, the bridge carries
// the call until either side hangs up, and the far end gets a BYE unless it said one. hungUp marks the account's
// call slot ending once the far end's dialog ends (its BYE), as a phone's own call is (call.go).
func (s *Server) carryOut(b *bridge, events <-chan termclient.Event, hungUp func(), place func(context.Context, offered) (outCall, error)) {
	ctx, cancel := context.WithCancelCause(s.stopCtx)
	defer cancel(nil)
	call, ok := waitOffer(ctx, events)
	if !ok {
		b.log.Info("sip: dial: no call came")
		return
	}
	b.call = call.CallID
	out, err := place(ctx, call)
	if err != nil {
		b.log.Warn("sip: dial: the INVITE", "callId", b.call, "err", err)
		b.answer(sip.StatusGlobalDecline)
		return
	}
	phone, d := out.media, out.d
	defer phone.close()
	defer d.Close()
	if !b.ringing(ctx, d, events, out.auth) {
		return
	}
	ans, err := parseOffer(d.InviteResponse.Body())
	if err == nil {
		phone.remote, phone.pt, phone.codec, phone.events, phone.eventsRate = ans.remote, ans.pt, ans.codec, ans.events, ans.eventsRate
		if out.voice {
			phone.events = -1
		}
		defer b.connect(phone, sipDialog{d.InviteRequest.CallID().Value(), hostOf(d.InviteResponse.Source())})()
		defer context.AfterFunc(d.Context(), hungUp)()
		err = d.Ack(ctx)
	}
	if err != nil {
		b.log.Info("sip: dial: the far end's answer", "callId", b.call, "err", err)
		b.answer(sip.StatusGlobalDecline)
		_ = d.Bye(ctx)
		return
	}
	b.tell("call.status", map[string]any{"callId": b.call, "status": sip.StatusOK,
		"duplex": out.line || b.talksOnLine(!out.voice && ans.events >= 0)})
	callCtx, end := context.WithCancelCause(d.Context()) // the phone's BYE ends the dialog's context
	defer end(nil)
	stop := context.AfterFunc(ctx, func() { end(nil) })
	defer stop()
	go func() {
		if b.waitEnd(callCtx, events) {
			end(errCallEnded)
		}
	}()
	err = b.run(callCtx, s.opt.Calls.RTPTimeout)
	b.log.Info("sip: dialed call ended", "callId", b.call, "why", err)
	if !errors.Is(err, errCallEnded) {
		b.hangUp()
	}
	if d.Context().Err() == nil {
		bctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := d.Bye(bctx); err != nil {
			b.log.Info("sip: call: bye", "err", err)
		}
	}
}

// waitOffer waits (inviteWait at most) for the individual call offered to the session.
func waitOffer(ctx context.Context, events <-chan termclient.Event) (offered, bool) {
	timeout := time.NewTimer(inviteWait)
	defer timeout.Stop()
	for {
		select {
		case e := <-events:
			var o offered
			if e.Type == "call.invite" && e.Decode(&o) == nil && o.Kind == "single" {
				return o, true
			}
		case <-timeout.C:
			return offered{}, false
		case <-ctx.Done():
			return offered{}, false
		}
	}
}

// inviteFor builds the INVITE to the phone's registered contact, from the caller, with an offer of PCMU and
// telephone-event on a new RTP socket (whose peer the answer names).
func (s *Server) inviteFor(reg registration, call offered) (sip.Uri, *sip.Request, *rtpSession, error) {
	var target sip.Uri
	if err := sip.ParseUri(reg.b.contact, &target); err != nil {
		return target, nil, nil, err
	}
	local, err := s.localToward(hostOf(reg.b.source))
	if err != nil {
		return target, nil, nil, err
	}
	phone, err := listenRTP(offer{pt: ptPCMU, codec: Ulaw, events: 101}, local)
	if err != nil {
		return target, nil, nil, err
	}
	body, err := phone.offerOpusFirst()
	if err != nil {
		phone.close()
		return target, nil, nil, err
	}
	tr := strings.ToLower(reg.b.transport)
	_, p, _ := net.SplitHostPort(s.addrOf(tr))
	port, _ := strconv.Atoi(p)
	req := sip.NewRequest(sip.INVITE, target)
	req.SetTransport(strings.ToUpper(tr))
	from := sip.FromHeader{DisplayName: call.From.Name, Address: sip.Uri{User: call.From.MsID, Host: local.String(), Port: port},
		Params: sip.NewParams()}
	from.Params.Add("tag", sip.GenerateTagN(16))
	req.AppendHeader(&from)
	req.AppendHeader(&sip.ToHeader{Address: sip.Uri{User: reg.p.AccountID, Host: target.Host, Port: target.Port}})
	contact := sip.ContactHeader{Address: sip.Uri{User: call.From.MsID, Host: local.String(), Port: port, UriParams: sip.NewParams()}}
	if tr != "udp" {
		contact.Address.UriParams.Add("transport", tr)
	}
	req.AppendHeader(&contact)
	req.AppendHeader(sip.NewHeader("Content-Type", "application/sdp"))
	req.SetBody(body)
	return target, req, phone, nil
}

// ringing waits for the far end's answer (true: 200; auth answers a challenge to the INVITE): its 180 (or 183) is
// the session's ringing, a refusal the session's busy (486, 600), not found (404: a trunk's PBX does not know the
// number) or decline (the rest); the call ending meanwhile (the caller's cancel, the ring time) CANCELs the INVITE.
func (b *bridge) ringing(ctx context.Context, d *sipgo.DialogClientSession, events <-chan termclient.Event, auth sipgo.AnswerOptions) bool {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan struct{})
	ended := make(chan struct{})
	go func() { // the call's end while the phone rings
		defer close(ended)
		for {
			select {
			case <-done:
				return
			case e := <-events:
				if v, ok := b.stateOf(e); ok && v.State == "ended" {
					cancel()
					return
				}
			}
		}
	}()
	rang := false
	auth.OnResponse = func(r *sip.Response) error {
		if (r.StatusCode == sip.StatusRinging || r.StatusCode == sip.StatusSessionInProgress) && !rang {
			rang = true
			b.answer(sip.StatusRinging)
		}
		return nil
	}
	err := d.WaitAnswer(ctx, auth)
	close(done)
	<-ended
	var re *sipgo.ErrDialogResponse
	switch {
	case err == nil:
		return true
	case errors.As(err, &re):
		b.log.Info("sip: dial: the phone refused", "callId", b.call, "status", re.Res.StatusCode)
		switch code := re.Res.StatusCode; code {
		case sip.StatusBusyHere, sip.StatusGlobalBusyEverywhere:
			b.answer(sip.StatusBusyHere)
		case sip.StatusNotFound: // a number the trunk's PBX does not know
			b.answer(sip.StatusNotFound)
		default:
			b.answer(sip.StatusGlobalDecline)
		}
	case ctx.Err() != nil: // the call ended: nothing to answer
	default:
		b.log.Info("sip: dial: no answer", "callId", b.call, "err", err)
		b.answer(sip.StatusGlobalDecline)
	}
	return false
}

// answer is the session's call.status for the call offered to it: 180 ringing, 200 answer, 486 busy, 603
// decline (internal/call's codes, the same numbers as SIP's).
func (b *bridge) answer(status int) {
	b.tell("call.status", map[string]any{"callId": b.call, "status": status})
}
