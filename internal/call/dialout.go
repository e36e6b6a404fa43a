package call

import (
	"context"
	"regexp"
)

// Dialer reaches accounts that are online another way than a socket of their own: a SIP phone, online by its
// registration (internal/sip). Before an individual call rings such an account, its Dial logs a session of the
// account in on this node (the phone's terminal session inside the server), which then gets the call's
// call.invite like any terminal and answers it for the phone (docs/sip.md "Individual calls").
type Dialer interface {
	// Dial brings accountID's session in when the account is reached that way (it returns once logged in);
	// false: it is not, and the call goes on as for any account (offline, or on another node).
	Dial(ctx context.Context, accountID string) bool
	// DialNumber brings in the session of the account that carries the customer's trunk — the SIP account of a
	// trunk registered here — which, once it gets the call's call.invite, calls number through the trunk and
	// answers the invite for the far end (docs/sip.md "Calls out"). It returns that account's id; "": the
	// customer has no registered trunk on this node.
	DialNumber(ctx context.Context, customer int64, number string) string
}

// SetDialer sets the way to accounts without a socket (nil: none); set before the service serves.
func (s *Service) SetDialer(d Dialer) { s.dialer = d }

// dialOut lets the dialer bring in a callee that it reaches (a SIP phone) unless the callee is online here in an
// individual call (its session answers busy): one online otherwise may be a session closing after its last call,
// which the dialer waits for before logging a new one in.
func (s *Service) dialOut(ctx context.Context, callee string) {
	if s.dialer == nil {
		return
	}
	s.mu.Lock()
	inCall := s.hub.LocalOnline(callee) && s.inSingleLocked(callee) != nil
	s.mu.Unlock()
	if !inCall {
		s.dialer.Dial(ctx, callee)
	}
}

// phoneNumber is a number a dispatcher may dial through a trunk: digits, an optional leading +, 3 to 20 digits
// (E.164 has at most 15; a PBX's dial plan may add a prefix or two).
var phoneNumber = regexp.MustCompile(`^\+?[0-9]{3,20}$`)

// inviteNumber is an individual call to a phone number (`call.invite {kind:"single", number}`): a dispatcher's
// call through the customer's trunk. The callee is the trunk's account, whose session dials the number; ringing,
// answer, refusals, the end and the call record are an individual call's.
func (s *Service) inviteNumber(ctx context.Context, cl *client, caller Account, number string) (InviteReply, error) {
	if !phoneNumber.MatchString(number) {
		return InviteReply{}, ErrBadNumber
	}
	if !caller.Dispatcher() {
		return InviteReply{}, ErrPermission
	}
	trunk := ""
	if s.dialer != nil {
		trunk = s.dialer.DialNumber(ctx, caller.Customer, number)
	}
	if trunk == "" {
		return InviteReply{}, ErrNoTrunk
	}
	return s.inviteSingle(ctx, cl, caller, trunk, number, false)
}
