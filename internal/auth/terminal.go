package auth

import (
	"context"

	"tenfour/internal/platform/httpx"
)

// terminalLogin checks a terminal's account and password on the socket (terminals never get console
// sessions). It applies the same rules as the console sign-in: a locked account is refused even with the right
// password, wrong passwords count toward the lockout, then disabled (4) and expired (103).
func (s *Service) terminalLogin(ctx context.Context, uid, pw string) (Principal, error) {
	a, err := s.loadAccount(ctx, uid)
	if err != nil {
		return Principal{}, err
	}
	// Dispatchers sign in over HTTP and present a token: as a terminal theirs is the wrong account type (spec §8
	// code 6), so the app can say it is a dispatcher account.
	if a.Type == DispatcherType {
		return Principal{}, ErrNotTerminal
	}
	if pw == "" || len(pw) > maxPasswordParam {
		if a.locked(s.now()) {
			return Principal{}, ErrLocked
		}
		return Principal{}, ErrBadPwd
	}
	if err := s.checkPassword(ctx, s.terminalHashes, httpx.ClientIPFrom(ctx), a, pw); err != nil {
		return Principal{}, err
	}
	if err := a.checkState(s.now()); err != nil {
		return Principal{}, err
	}
	return a.principal(), nil
}

// IssueResume makes a resume token for terminal uid without its password, for a fleet running inside this
// server's own process (the demo fleet, sim.RunDemo): its terminals log in with it as after a first login.
// A dispatcher's id is ErrBadID, as on a terminal login.
func (s *Service) IssueResume(ctx context.Context, uid string) (string, error) {
	a, err := s.loadAccount(ctx, uid)
	if err != nil {
		return "", err
	}
	if a.Type == DispatcherType {
		return "", ErrBadID
	}
	return s.Sessions.CreateResume(ctx, a.ID, a.CustomerID)
}
