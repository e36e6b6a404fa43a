package call

import "context"

// Dialer reaches accounts that are online another way than a socket of their own: a SIP phone, online by its
// registration (internal/sip). Before an individual call rings such an account, its Dial logs a session of the
// account in on this node (the phone's terminal session inside the server), which then gets the call's
// call.invite like any terminal and answers it for the phone (docs/sip.md "Individual calls").
type Dialer interface {
	// Dial brings accountID's session in when the account is reached that way (it returns once logged in);
	// false: it is not, and the call goes on as for any account (offline, or on another node).
	Dial(ctx context.Context, accountID string) bool
}

// SetDialer sets the way to accounts without a socket (nil: none); set before the service serves.
func (s *Service) SetDialer(d Dialer) { s.dialer = d }

// dialOut lets the dialer bring in a callee that has no socket on this node.
func (s *Service) dialOut(ctx context.Context, callee string) {
	if s.dialer != nil && !s.hub.LocalOnline(callee) {
		s.dialer.Dial(ctx, callee)
	}
}
