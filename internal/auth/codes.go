package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"net/mail"
	"strings"
	"time"

	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
)

// Verification codes (docs/api.md "Other account calls"): 6 digits, valid 10 minutes, 5 wrong tries, one
// live code per account and purpose; a new one may be requested a minute after the last.
const (
	CodeTTL            = 10 * time.Minute
	MaxCodeAttempts    = 5
	CodeResendInterval = time.Minute
)

// maxEmailLen is RFC 5321's limit on an address.
const maxEmailLen = 254

// NormalizeEmail checks an e-mail address and returns it in the stored form (trimmed, lower case); ok is false
// for anything that is not a bare address.
func NormalizeEmail(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > maxEmailLen {
		return "", false
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || a.Name != "" {
		return "", false
	}
	return strings.ToLower(s), true
}

func newCode() (string, error) {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%06d", n.Int64()), nil
}

func codeHash(accountID, purpose, code string) string {
	h := sha256.Sum256([]byte(accountID + "\x00" + purpose + "\x00" + code))
	return hex.EncodeToString(h[:])
}

func isSixDigits(s string) bool { return ValidOriginalPassword(s) }

// issueCode stores a fresh code for (account, purpose), replacing an earlier one, and returns it. A request
// within CodeResendInterval of the last one is refused (429) so nobody can flood a mailbox.
func (s *Service) issueCode(ctx context.Context, accountID, purpose, email string) (string, error) {
	now := s.now()
	var created int64
	err := s.db.QueryRow(ctx, `SELECT created_at FROM verify_codes WHERE account_id = ? AND purpose = ?`,
		accountID, purpose).Scan(&created)
	switch {
	case err == nil && now.UnixMilli()-created < CodeResendInterval.Milliseconds():
		return "", httpx.ErrTooFast
	case err != nil && !errors.Is(err, sql.ErrNoRows):
		return "", err
	}
	code, err := newCode()
	if err != nil {
		return "", err
	}
	_, err = s.db.Exec(ctx, `
		INSERT INTO verify_codes (account_id, purpose, email, code_hash, attempts, created_at, expires_at)
		VALUES (?, ?, ?, ?, 0, ?, ?)
		ON CONFLICT (account_id, purpose) DO UPDATE SET
		  email = excluded.email, code_hash = excluded.code_hash, attempts = 0,
		  created_at = excluded.created_at, expires_at = excluded.expires_at`,
		accountID, purpose, email, codeHash(accountID, purpose, code), now.UnixMilli(), now.Add(CodeTTL).UnixMilli())
	if err != nil {
		return "", err
	}
	return code, nil
}

// dropCode forgets the code of (account, purpose).
func (s *Service) dropCode(ctx context.Context, accountID, purpose string) error {
	_, err := s.db.Exec(ctx, `DELETE FROM verify_codes WHERE account_id = ? AND purpose = ?`, accountID, purpose)
	return err
}

// spendCode makes the change a checked code was for and drops the code in one transaction, so the code is used
// up exactly when its change is made.
func (s *Service) spendCode(ctx context.Context, accountID, purpose string, change func(tx *db.Tx) error) error {
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := change(tx); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `DELETE FROM verify_codes WHERE account_id = ? AND purpose = ?`, accountID, purpose)
		return err
	})
}

// checkCode verifies a code without consuming it (the caller drops it once the whole action succeeded, so a
// refused new password does not burn the code). email, when not empty, must be the address the code was sent
// to. A wrong code or address counts a try; after MaxCodeAttempts tries, or after CodeTTL, no code matches.
// Every failure is ErrVerifyCode.
func (s *Service) checkCode(ctx context.Context, accountID, purpose, email, code string) error {
	if !isSixDigits(code) {
		return ErrVerifyCode // not a guess at all: no try is counted
	}
	var sentTo, hash string
	var attempts int
	var expires int64
	err := s.db.QueryRow(ctx, `SELECT email, code_hash, attempts, expires_at FROM verify_codes
		WHERE account_id = ? AND purpose = ?`, accountID, purpose).Scan(&sentTo, &hash, &attempts, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrVerifyCode
	}
	if err != nil {
		return err
	}
	if attempts >= MaxCodeAttempts || expires <= s.now().UnixMilli() {
		return ErrVerifyCode
	}
	codeOK := subtle.ConstantTimeCompare([]byte(hash), []byte(codeHash(accountID, purpose, code))) == 1
	if !codeOK || (email != "" && email != sentTo) {
		if _, err := s.db.Exec(ctx, `UPDATE verify_codes SET attempts = attempts + 1 WHERE account_id = ? AND purpose = ?`,
			accountID, purpose); err != nil {
			return err
		}
		return ErrVerifyCode
	}
	return nil
}
