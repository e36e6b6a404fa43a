package auth

import (
	"context"
	"database/sql"
	"errors"
	"net/http"

	"tenfour/internal/platform/httpx"
)

// Sign-in errors shared by the console pair and terminal logins (spec §8 login codes).
var (
	ErrBadID      = httpx.E(http.StatusBadRequest, "1", "errors.login.1", "incorrect terminal ID")
	ErrBadPwd     = httpx.E(http.StatusUnauthorized, "2", "errors.login.2", "incorrect password")
	ErrDisabled   = httpx.E(http.StatusForbidden, "4", "errors.login.4", "disabled account")
	ErrNoAccount  = httpx.E(http.StatusNotFound, "104", "errors.login.104", "account does not exist")
	ErrUnregister = httpx.E(http.StatusForbidden, "103", "errors.login.103", "user unregistered")
)

// terminalLogin checks a terminal's account and password (terminals never get console sessions).
func (s *Service) terminalLogin(ctx context.Context, uid, pw string) (Principal, error) {
	if uid == "" || len(uid) > 32 {
		return Principal{}, ErrBadID
	}
	var p Principal
	var hash string
	var disabled bool
	var expires int64
	err := s.db.QueryRow(ctx, `SELECT id, customer_id, type, acct_type, admin, name, password_hash, disabled, expires_at
		FROM accounts WHERE id = ?`, uid).
		Scan(&p.AccountID, &p.CustomerID, &p.Type, &p.AcctType, &p.Admin, &p.Name, &hash, &disabled, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return Principal{}, ErrNoAccount
	}
	if err != nil {
		return Principal{}, err
	}
	if p.Type == DispatcherType {
		return Principal{}, ErrBadID
	}
	ok, err := CheckPassword(hash, pw)
	if err != nil {
		return Principal{}, err
	}
	if !ok {
		return Principal{}, ErrBadPwd
	}
	if disabled {
		return Principal{}, ErrDisabled
	}
	if expires != 0 && expires < s.now().UnixMilli() {
		return Principal{}, ErrUnregister
	}
	return p, nil
}
