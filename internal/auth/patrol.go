package auth

import (
	"context"
)

// kindPatrol is the session kind of the patrol service (/patrolService, docs/adr/0019): a dispatcher signs in
// to it with its PoC account and password and gets a token that opens only the patrol service, never /ds.
const kindPatrol = "patrol"

// CheckPoC is the patrol service's account check (sysUsers/poc/findAccountByPoC, sysUsers/login): a dispatcher's
// PoC account and password from address addr, through the one password check of every sign-in (throttle,
// lockout, hash budget), then the account-state rules. Only dispatchers pass (6).
func (s *Service) CheckPoC(ctx context.Context, addr, uid, pw string) (Principal, error) {
	if err := s.allowAddrOf(people, addr); err != nil {
		return Principal{}, err
	}
	if pw == "" || len(pw) > maxPasswordParam {
		return Principal{}, ErrBadPwd
	}
	a, err := s.consolePassword(ctx, s.loadDispatcher, addr, uid, pw)
	if err != nil {
		return Principal{}, err
	}
	if err := a.checkState(s.now()); err != nil {
		return Principal{}, err
	}
	return a.principal(), nil
}

// PatrolSignIn is CheckPoC followed by a patrol session: the token the patrol service's calls carry in their
// `token` header, for TokenTTL.
func (s *Service) PatrolSignIn(ctx context.Context, addr, uid, pw string) (Principal, string, error) {
	p, err := s.CheckPoC(ctx, addr, uid, pw)
	if err != nil {
		return p, "", err
	}
	tok, err := s.Sessions.create(ctx, p.AccountID, p.CustomerID, kindPatrol)
	return p, tok, err
}

// LookupPatrol resolves a patrol token; unknown, revoked or expired tokens (and a console token) are ErrToken,
// which the patrol service answers as its own code 1011.
func (s *Sessions) LookupPatrol(ctx context.Context, token string) (Principal, error) {
	return s.lookup(ctx, token, kindPatrol)
}

// LookupPatrol is Sessions.LookupPatrol, for the patrol service's token check.
func (s *Service) LookupPatrol(ctx context.Context, token string) (Principal, error) {
	return s.Sessions.LookupPatrol(ctx, token)
}
