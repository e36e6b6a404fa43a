package auth

import (
	"context"
	"errors"
	"log/slog"
	"net/http"

	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
)

// recoveryAccount loads the account of a recovery call; an unknown one reads as "no bound e-mail" (104), the
// answer the console shows for it.
func (s *Service) recoveryAccount(ctx context.Context, uid string) (*account, error) {
	a, err := s.loadAccount(ctx, uid)
	if errors.Is(err, ErrNoAccount) {
		return nil, ErrNoBindEmail
	}
	return a, err
}

// emailParam checks an e-mail parameter and returns its stored form.
func emailParam(v string) (string, error) {
	if err := httpx.Required("email", v); err != nil {
		return "", err
	}
	e, ok := NormalizeEmail(v)
	if !ok {
		return "", httpx.BadParam("email", "not an e-mail address")
	}
	return e, nil
}

// emailTaken tells whether another account has bound email.
func (s *Service) emailTaken(ctx context.Context, email, accountID string) (bool, error) {
	var n int
	err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM accounts WHERE email = ? AND id <> ?`, email, accountID).Scan(&n)
	return n > 0, err
}

// getVerifyCode is GET /ds/pub/getVerifyCode {uid, email, type, lang}: mails a code. type bind sends it to the
// new address `email`; reset (email required) and login (email optional) send it to the bound address, which
// `email` must match.
func (s *Service) getVerifyCode(w http.ResponseWriter, r *http.Request, req struct {
	UID   string `json:"uid"`
	Email string `json:"email"`
	Type  string `json:"type"`
	Lang  string `json:"lang"`
}) (any, error) {
	if err := paramLen("lang", req.Lang, 35); err != nil {
		return nil, err
	}
	switch req.Type {
	case PurposeBind, PurposeReset, PurposeLogin:
	default:
		return nil, httpx.BadParam("type", "bind, reset or login")
	}
	var email string
	if req.Email != "" || req.Type != PurposeLogin {
		var err error
		if email, err = emailParam(req.Email); err != nil {
			return nil, err
		}
	}
	ctx := r.Context()
	a, err := s.recoveryAccount(ctx, req.UID)
	if err != nil {
		return nil, err
	}
	to := a.Email
	if req.Type == PurposeBind {
		taken, err := s.emailTaken(ctx, email, a.ID)
		if err != nil {
			return nil, err
		}
		if taken {
			return nil, ErrEmailExists
		}
		to = email
	} else if a.Email == "" || (email != "" && email != a.Email) {
		return nil, ErrNoBindEmail
	}
	code, err := s.issueCode(ctx, a.ID, req.Type, to)
	if err != nil {
		return nil, err
	}
	if s.mailer == nil {
		err = ErrMailNotConfigured
	} else {
		err = s.mailer.Send(ctx, verificationMail(to, a.ID, req.Type, code, req.Lang))
	}
	if err != nil {
		// The address itself is personal data; the account number is enough to find the attempt.
		slog.WarnContext(ctx, "verification mail not sent", "account", a.ID, "type", req.Type, "err", err)
		// Forget the unsent code so the user may retry at once instead of waiting out the resend interval.
		if dErr := s.dropCode(context.WithoutCancel(ctx), a.ID, req.Type); dErr != nil {
			slog.WarnContext(ctx, "drop unsent code", "err", dErr)
		}
		return nil, ErrSendMail
	}
	return map[string]int{"expiresIn": int(CodeTTL.Seconds())}, nil
}

// bindEmail is GET (or POST) /ds/pub/bindEmail {uid, auth, email, verifyCode}: binds the address the code was
// sent to, after checking the account's password (with the lockout rule) and the code.
func (s *Service) bindEmail(w http.ResponseWriter, r *http.Request, req struct {
	UID        string `json:"uid"`
	Auth       string `json:"auth"`
	Email      string `json:"email"`
	VerifyCode string `json:"verifyCode"`
}) (any, error) {
	email, err := emailParam(req.Email)
	if err != nil {
		return nil, err
	}
	err = firstErr(passwordParam("auth", req.Auth), paramLen("verifyCode", req.VerifyCode, maxShortParam))
	if err != nil {
		return nil, err
	}
	ctx := r.Context()
	a, err := s.consolePassword(ctx, s.loadAccount, httpx.ClientIP(r), req.UID, req.Auth)
	if err != nil {
		return nil, err
	}
	if err := a.checkState(s.now()); err != nil {
		return nil, err
	}
	taken, err := s.emailTaken(ctx, email, a.ID)
	if err != nil {
		return nil, err
	}
	if taken {
		return nil, ErrEmailExists
	}
	if err := s.checkCode(ctx, a.ID, PurposeBind, email, req.VerifyCode); err != nil {
		return nil, err
	}
	err = s.spendCode(ctx, a.ID, PurposeBind, func(tx *db.Tx) error {
		_, err := tx.Exec(ctx, `UPDATE accounts SET email = ? WHERE id = ?`, email, a.ID)
		return err
	})
	if db.IsUniqueViolation(err) { // bound elsewhere between the check and the update
		return nil, ErrEmailExists
	}
	if err != nil {
		return nil, err
	}
	return map[string]string{"email": email}, nil
}

// resetPassword is POST /ds/pub/resetPwd {uid, email, verifyCode, newPwd}: sets a new password with a code
// mailed to the bound address. It also lifts a lockout and ends every session of the account.
func (s *Service) resetPassword(w http.ResponseWriter, r *http.Request, req struct {
	UID        string `json:"uid"`
	Email      string `json:"email"`
	VerifyCode string `json:"verifyCode"`
	NewPwd     string `json:"newPwd"`
}) (any, error) {
	email, err := emailParam(req.Email)
	if err != nil {
		return nil, err
	}
	err = firstErr(passwordParam("newPwd", req.NewPwd), paramLen("verifyCode", req.VerifyCode, maxShortParam))
	if err != nil {
		return nil, err
	}
	// The rule first, so a refused password does not use up a try of the code.
	if !ValidNewPassword(req.NewPwd) {
		return nil, ErrWeakPwd
	}
	ctx := r.Context()
	a, err := s.recoveryAccount(ctx, req.UID)
	if err != nil {
		return nil, err
	}
	if a.Email == "" || a.Email != email {
		return nil, ErrNoBindEmail
	}
	if err := s.checkCode(ctx, a.ID, PurposeReset, email, req.VerifyCode); err != nil {
		return nil, err
	}
	hash, err := newPasswordHash(a.Hash, req.NewPwd)
	if err != nil {
		return nil, err
	}
	err = s.spendCode(ctx, a.ID, PurposeReset, func(tx *db.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE accounts SET password_hash = ?, password_changed = TRUE,
			failed_logins = 0, locked_until = 0 WHERE id = ?`, hash, a.ID); err != nil {
			return err
		}
		return putSIPDigest(ctx, tx, a.ID, req.NewPwd)
	})
	if err != nil {
		return nil, err
	}
	if err := s.Sessions.RevokeAccount(ctx, a.ID, ""); err != nil {
		return nil, err
	}
	return struct{}{}, nil
}
