// Package identity carries who is calling through a context. It is a leaf package so every domain, the hub
// and the operation log can use it without importing auth.
package identity

import "context"

// DispatcherType is the account type of console users (spec §3 code 20).
const DispatcherType = "20"

// Principal is the signed-in account and the customer every query is scoped to.
type Principal struct {
	AccountID  string // msId
	CustomerID int64
	Type       string // spec §3 type code
	AcctType   string // feature access code "1" or "-2" (spec §6)
	Admin      bool
	Name       string
	Token      string
	// Expires is when the session behind Token ends (unix ms; 0: it does not end on its own). The hub closes a
	// connection past it (auth's expiry sweep), so a socket never outlives its sign-in.
	Expires int64
}

// IsDispatcher tells whether the principal is a console user.
func (p Principal) IsDispatcher() bool { return p.Type == DispatcherType }

type ctxKey struct{}

// With returns ctx carrying p.
func With(ctx context.Context, p Principal) context.Context {
	return context.WithValue(ctx, ctxKey{}, p)
}

// From returns the caller; ok is false on unauthenticated requests.
func From(ctx context.Context) (Principal, bool) {
	p, ok := ctx.Value(ctxKey{}).(Principal)
	return p, ok
}

// Must returns the caller of a request that passed its router's authenticator (httpx.Router: Private, Console).
func Must(ctx context.Context) Principal {
	p, ok := From(ctx)
	if !ok {
		panic("identity: handler mounted without the router's authenticator (httpx.Router.Private)")
	}
	return p
}
