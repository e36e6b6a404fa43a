package sip

// Calls out through a trunk (docs/sip.md "Calls out"): a dispatcher's individual call to a phone number
// (`call.invite {kind:"single", number}`) rings the account that carries the customer's trunk. internal/call asks
// this side first (call.Dialer.DialNumber): the account's terminal session logs in on this node as a dialed
// phone's does (dial.go), and on its call.invite the trunk INVITEs the number (Trunk.inviteOut). The far end's
// ringing, answer and refusals are the session's; answered, the bridge carries the call as a phone's. With a
// dispatcher the call is full duplex (line.go); with a terminal, whose PTT is half duplex, the far end, which has
// no talk keys, talks by voice activity (vad.go).

import (
	"context"
	"log/slog"

	"tenfour/internal/platform/identity"
)

// DialNumber is internal/call's Dialer for numbers: the customer's first registered trunk (by name) gets its
// account's terminal session on this node, which dials number through the trunk when the call is offered to it.
// "": no trunk of the customer is registered here. The account in a call already is left to that call (the call
// service finds it busy).
func (s *Server) DialNumber(ctx context.Context, customer int64, number string) string {
	t := s.registeredTrunk(customer)
	if t == nil || !s.opt.Calls.carried() {
		return ""
	}
	account := t.cfg.AccountID
	log := slog.With("component", "sip", "msId", account, "trunk", t.cfg.Name, "number", number)
	started := s.dialed(ctx, identity.Principal{AccountID: account, CustomerID: customer}, log, func(ctx context.Context, _ offered) (outCall, error) {
		o, err := t.inviteOut(ctx, number, true)
		if err != nil {
			return outCall{}, err
		}
		return outCall{d: o.d, media: o.media, auth: t.auth(), voice: true, line: true}, nil
	})
	if !started {
		return ""
	}
	return account
}

// registeredTrunk is the customer's registered trunk first by name (nil: none).
func (s *Server) registeredTrunk(customer int64) *Trunk {
	s.trunks.mu.Lock()
	defer s.trunks.mu.Unlock()
	var first *Trunk
	for _, t := range s.trunks.live {
		if t.cfg.CustomerID == customer && t.registered.Load() && (first == nil || t.cfg.Name < first.cfg.Name) {
			first = t
		}
	}
	return first
}
