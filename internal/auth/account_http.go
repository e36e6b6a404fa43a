package auth

import (
	"context"
	"errors"
	"net/http"

	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
)

// sameCustomerAccount loads an account the caller may address by id: a malformed id is a 400, an unknown one
// or one of another customer is 404 (the answer never tells another customer's accounts apart from none).
func (s *Service) sameCustomerAccount(ctx context.Context, p Principal, name, id string) (*account, error) {
	if !ValidAccountID(id) {
		return nil, httpx.BadParam(name, "an 8-digit account number")
	}
	a, err := s.loadAccount(ctx, id)
	if errors.Is(err, ErrNoAccount) || (err == nil && a.CustomerID != p.CustomerID) {
		return nil, httpx.ErrNotFound
	}
	return a, err
}

// getAccount is GET /ds/user/getAccount: the caller's user info.
func (s *Service) getAccount(ctx context.Context, p Principal, _ struct{}) (any, error) {
	a, err := s.loadAccount(ctx, p.AccountID)
	if err != nil {
		return nil, err
	}
	return s.userInfo(ctx, a)
}

// unlockUser is GET /ds/user/unlockUser?uid: an administrator lifts the lockout of an account of its customer.
func (s *Service) unlockUser(ctx context.Context, p Principal, req struct {
	UID string `json:"uid"`
}) (any, error) {
	if !p.Admin {
		return nil, httpx.ErrPermission
	}
	a, err := s.sameCustomerAccount(ctx, p, "uid", req.UID)
	if err != nil {
		return nil, err
	}
	if _, err := s.db.Exec(ctx, `UPDATE accounts SET failed_logins = 0, locked_until = 0
		WHERE id = ? AND customer_id = ?`, a.ID, p.CustomerID); err != nil {
		return nil, err
	}
	return map[string]string{"msId": a.ID}, nil
}

// logout is GET /ds/user/logout: revokes the caller's token (its sockets close) and clears the cookie. It is
// idempotent: without a live token it still answers "0" (there is nothing left to end), so a client never
// re-signs-in to sign out. The token must be sent on purpose (header or parameter): a request with the cookie
// alone — an <img> pointing here — changes nothing, not even the cookie (docs/adr/0009). A raw handler, not
// Bind: it is public, finds the token wherever the client put it and clears the cookie on the response.
func (s *Service) logout(w http.ResponseWriter, r *http.Request) (any, error) {
	tok := TokenFrom(r)
	if tok == "" {
		return struct{}{}, nil
	}
	if _, err := s.Sessions.Lookup(r.Context(), tok); err == nil {
		if err := s.Sessions.Revoke(r.Context(), tok); err != nil {
			return nil, err
		}
	}
	s.clearTokenCookie(w, r)
	return struct{}{}, nil
}

// updatePassword is PUT /ds/data/updateMsPwd {msId, oldPwd, newPwd, account}. msId is the account whose
// password changes: the caller's own, or (administrators) another account of the same customer. oldPwd is
// always the caller's current password, so a stolen token alone cannot change a password; wrong ones count
// toward the lockout. Every other session of the changed account ends.
func (s *Service) updatePassword(ctx context.Context, p Principal, req struct {
	MsID    string `json:"msId"`
	OldPwd  string `json:"oldPwd"`
	NewPwd  string `json:"newPwd"`
	Account string `json:"account"` // the console's sign-in account; accepted, the token says who calls
}) (any, error) {
	if err := firstErr(
		httpx.Required("msId", req.MsID),
		passwordParam("oldPwd", req.OldPwd),
		passwordParam("newPwd", req.NewPwd),
		paramLen("account", req.Account, maxShortParam),
	); err != nil {
		return nil, err
	}
	if req.NewPwd == req.OldPwd {
		return nil, ErrSamePwd
	}
	if !ValidNewPassword(req.NewPwd) {
		return nil, ErrWeakPwd
	}
	target, err := s.sameCustomerAccount(ctx, p, "msId", req.MsID)
	if err != nil {
		return nil, err
	}
	self := target.ID == p.AccountID
	if !self && !p.Admin {
		return nil, httpx.ErrPermission
	}
	caller := target
	if !self {
		if caller, err = s.loadAccount(ctx, p.AccountID); err != nil {
			return nil, err
		}
	}
	if err := s.verifyPassword(ctx, s.consoleHashes, caller, req.OldPwd); err != nil {
		if errors.Is(err, ErrBadPwd) {
			return nil, ErrOldPwd
		}
		return nil, err
	}
	var hash string
	if self { // new == old was caught above
		hash, err = HashPassword(req.NewPwd)
	} else { // another account's: compared with its hash
		hash, err = newPasswordHash(target.Hash, req.NewPwd)
	}
	if err != nil {
		return nil, err
	}
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE accounts SET password_hash = ?, password_changed = TRUE,
			failed_logins = 0, locked_until = 0 WHERE id = ? AND customer_id = ?`, hash, target.ID, p.CustomerID); err != nil {
			return err
		}
		return putSIPDigest(ctx, tx, target.ID, req.NewPwd)
	})
	if err != nil {
		return nil, err
	}
	keep := ""
	if self {
		keep = p.Token
	}
	if err := s.Sessions.RevokeAccount(ctx, target.ID, keep); err != nil {
		return nil, err
	}
	return struct{}{}, nil
}
