package sip

// Individual calls between a SIP phone and a terminal or dispatcher of its customer (docs/sip.md "Individual
// calls"). The phone's terminal session inside the server is a party of internal/call's individual call as any
// terminal is — invite, ringing, answer, acknowledgement, cancel, bye, the missed calls and the operation log are
// the call service's — and so is the floor: individual calls are half duplex (docs/voice.md §3: one floor, either
// party takes it), so the phone talks with the keys of a group call (`*` asks for the floor, `#` releases it).

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/emiago/sipgo"
	"github.com/emiago/sipgo/sip"

	"tenfour/internal/termclient"
)

// errCallEnded ends a connected call's media: the other party hung up (or went offline).
var errCallEnded = errors.New("sip: the individual call ended")

// callEvent is what an individual call follows of its session's call events: the fields of internal/call's
// call.invite and call.state (CallView).
type callEvent struct {
	CallID string `json:"callId"`
	Kind   string `json:"kind"`
	State  string `json:"state"`
	Status int    `json:"status"`
	Duplex bool   `json:"duplex"` // connected full duplex: the phone talks throughout (line.go)
}

// refusal is the SIP answer for an individual call that did not connect, from the call service's code (a refused
// call.invite) or the ended call's status: busy, declined, not there, canceled; an unknown id, another customer's,
// a killed or stunned callee or a caller that may not call get 403 alike (no answer tells which ids exist).
func refusal(code string) (int, string) {
	switch code {
	case "486":
		return sip.StatusBusyHere, "Busy Here"
	case "603":
		return sip.StatusGlobalDecline, "Decline"
	case "101", "408":
		return sip.StatusTemporarilyUnavailable, "Temporarily Unavailable"
	case "487":
		return sip.StatusRequestTerminated, "Request Terminated"
	}
	return sip.StatusForbidden, "Forbidden"
}

// serveIndividual carries the phone's call to account a.callee: its session places the individual call, the
// phone hears 180 while the callee rings and gets the 200 once the callee answered (the session acknowledges it);
// a refusal, busy, no answer or the phone's CANCEL end it before — answered once its session is gone and the
// phone free again (free), so that its next INVITE is not busy; so is the BYE of a connected call. Connected,
// the call lasts until either side hangs up (the phone's BYE, the callee's bye or going offline), the phone
// stops sending RTP or the server stops.
func (s *Server) serveIndividual(d *sipgo.DialogServerSession, tx sip.ServerTransaction, a admission, o offer, free, over func()) {
	ctx, cancel := context.WithCancelCause(d.Context())
	defer cancel(nil)
	stop := context.AfterFunc(s.stopCtx, func() { cancel(nil) })
	defer stop()
	log := slog.With("component", "sip", "msId", a.p.AccountID, "callee", a.callee, "sipCallId", d.InviteRequest.CallID().Value())
	events := make(chan termclient.Event, 64)
	b, contact, ok := s.startCall(ctx, d, a, log, events)
	if !ok {
		return
	}
	closeBridge := sync.OnceFunc(func() { s.closeBridge(b) })
	defer closeBridge()
	refuse := func(code int, reason string) {
		closeBridge()
		free()
		if code != 0 {
			_ = d.Respond(code, reason, nil)
		}
	}
	var placed struct {
		CallID string `json:"callId"`
	}
	inv := map[string]any{"kind": "single", "msId": a.callee, "duplex": a.trunk || b.talksOnLine(o.events >= 0)}
	if err := b.term.Call(ctx, "call.invite", inv, &placed); err != nil {
		log.Info("sip: individual call refused", "code", termclient.Code(err))
		refuse(refusal(termclient.Code(err)))
		return
	}
	b.call = placed.CallID
	log = log.With("callId", b.call)
	if code, reason, connected := b.ringOut(ctx, tx, events, func() { _ = d.Respond(sip.StatusRinging, "Ringing", nil, contact) }); !connected {
		refuse(code, reason)
		return
	}
	phone, res, err := s.answerCall(d.InviteRequest, o, contact)
	if err == nil {
		defer b.connect(phone, sipDialog{d.InviteRequest.CallID().Value(), hostOf(d.InviteRequest.Source())})()
		if err = d.WriteResponse(res); err != nil {
			phone.close()
		}
	}
	if err != nil {
		log.Warn("sip: call: answer", "err", err)
		_ = d.Respond(sip.StatusServiceUnavailable, "Service Unavailable", nil)
		b.hangUp()
		return
	}
	defer phone.close()
	log.Info("sip: individual call connected", "codec", o.codec, "talkKeys", o.events >= 0)
	go func() {
		if b.waitEnd(ctx, events) {
			cancel(errCallEnded)
		}
	}()
	err = b.run(ctx, s.opt.Calls.RTPTimeout)
	log.Info("sip: individual call ended", "why", err)
	over() // a call to the phone now waits for its session to close rather than ring it (dial.go)
	if !errors.Is(err, errCallEnded) {
		b.hangUp()
	}
	closeBridge() // the phone is free before it hears the BYE: it may call again at once
	free()
	sayBye(d, log)
}

// ringOut follows the placed call until it connects: the phone hears 180 (ring, once) while the callee rings,
// and the session acknowledges the callee's answer. A call that ends first (busy, declined, no answer, the callee
// offline) is the INVITE's refusal (code, reason); the phone's CANCEL (sipgo answered it and the INVITE's 487:
// code 0) cancels the call.
func (b *bridge) ringOut(ctx context.Context, tx sip.ServerTransaction, events <-chan termclient.Event, ring func()) (code int, reason string, connected bool) {
	rang := false
	for {
		var e termclient.Event
		select {
		case e = <-events:
		case <-tx.Done():
			b.signal("call.cancel")
			return 0, "", false
		case <-ctx.Done():
			b.signal("call.cancel")
			return sip.StatusServiceUnavailable, "Service Unavailable", false
		}
		v, ok := b.stateOf(e)
		if !ok {
			continue
		}
		switch v.State {
		case "ringing":
			if !rang {
				rang = true
				ring()
			}
		case "answered":
			if err := b.term.Call(ctx, "call.ack", map[string]any{"callId": b.call}, nil); err != nil {
				b.log.Info("sip: call: ack", "err", err)
			}
		case "connected":
			b.follow(v)
			return 0, "", true
		case "ended":
			code, reason := refusal(strconv.Itoa(v.Status))
			return code, reason, false
		}
	}
}

// stateOf is e as a call.state of the bridge's individual call.
func (b *bridge) stateOf(e termclient.Event) (callEvent, bool) {
	var v callEvent
	if e.Type != "call.state" || e.Decode(&v) != nil || v.CallID != b.call {
		return callEvent{}, false
	}
	return v, true
}

// waitEnd follows the connected call until it ends (true) or ctx does (false).
func (b *bridge) waitEnd(ctx context.Context, events <-chan termclient.Event) bool {
	for {
		select {
		case e := <-events:
			v, ok := b.stateOf(e)
			if ok && v.State == "ended" {
				return true
			}
			if ok {
				b.follow(v) // a dialed call connects here, after the answer (dial.go)
			}
		case <-ctx.Done():
			return false
		}
	}
}

// hangUp ends the connected call from the phone's side (its BYE, its RTP lost, the server's stop).
func (b *bridge) hangUp() { b.signal("call.bye") }

// signal sends the call's cancel or bye.
func (b *bridge) signal(verb string) { b.tell(verb, map[string]any{"callId": b.call}) }

// tell sends the session one call request on the phone's behalf, on its own short deadline (the phone's
// dialog may be gone already); the answer — the call may have ended meanwhile — is only logged.
func (b *bridge) tell(verb string, params map[string]any) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := b.term.Call(ctx, verb, params, nil); err != nil {
		b.log.Info("sip: "+verb, "params", params, "code", termclient.Code(err))
	}
}

// refuseBusy answers an individual call offered to a phone in a group call: busy (the call service then tells
// its caller 486 and writes the missed call).
func (b *bridge) refuseBusy(e termclient.Event) {
	var v callEvent
	if e.Decode(&v) != nil || v.Kind != "single" {
		return
	}
	b.tell("call.status", map[string]any{"callId": v.CallID, "status": sip.StatusBusyHere})
}
