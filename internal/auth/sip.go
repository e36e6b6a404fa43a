package auth

import (
	"context"
	"crypto/md5"
	"crypto/subtle"
	"database/sql"
	"encoding/hex"
	"errors"
	"time"

	"github.com/icholy/digest"

	"tenfour/internal/directory"
)

// SIP digest credentials (docs/adr/0037): a SIP account (accounts.kind = directory.KindSIP) registers with
// digest authentication, which needs HA1 = MD5(id:realm:password) — the argon2id hash serves nothing there. auth
// keeps HA1 in sip_digests, written wherever the account's password is set and never returned; a digest answer
// is checked under the same throttle and lockout as a terminal's password login.

// SIPRealm is the digest realm of every SIP account. Changing it voids every stored HA1.
const SIPRealm = "tenfour"

// sipHashWait is how long a digest check may wait for the address's wrong-guess tokens held by checks still
// running (a REGISTER is retransmitted by its client after 500 ms, and again; the answer must come before).
const sipHashWait = 2 * time.Second

// sipHA1 is HA1 of RFC 2617 §3.2.2.2 for account id in SIPRealm.
func sipHA1(id, pw string) string {
	h := md5.Sum([]byte(id + ":" + SIPRealm + ":" + pw))
	return hex.EncodeToString(h[:])
}

// execer is what writes rows: a *db.DB or a *db.Tx.
type execer interface {
	Exec(ctx context.Context, q string, args ...any) (sql.Result, error)
}

// putSIPDigest stores the HA1 of pw for account id when the account is of the SIP kind (it writes nothing for
// any other account), in the statement path of whatever sets the password (ex: the same transaction).
func putSIPDigest(ctx context.Context, ex execer, id, pw string) error {
	_, err := ex.Exec(ctx, `INSERT INTO sip_digests (account_id, realm, ha1, updated_at)
		SELECT id, ?, ?, ? FROM accounts WHERE id = ? AND kind = ?
		ON CONFLICT (account_id) DO UPDATE SET realm = excluded.realm, ha1 = excluded.ha1, updated_at = excluded.updated_at`,
		SIPRealm, sipHA1(id, pw), time.Now().UnixMilli(), id, directory.KindSIP)
	return err
}

// SIPDigest is a digest answer as a SIP request carries it in its Authorization header, with the request's
// method and the nonce the server issued (the caller checks the nonce is its own and fresh).
type SIPDigest struct {
	Method string
	Creds  *digest.Credentials
}

// ErrSIPRefused refuses a digest answer without telling why (a wrong password, an unknown id, an account that
// is not of the SIP kind): a SIP server answers them all alike (401), so no scan learns which ids exist.
var ErrSIPRefused = errors.New("sip: digest refused")

// CheckSIPDigest checks a SIP account's digest answer from addr: through the terminals' sign-in rules (the
// address's attempts, its wrong guesses, the account's check budget, the store's lockout), then the account's
// state. ErrSIPRefused for a wrong answer or an account that cannot answer one; ErrLocked, ErrDisabled,
// ErrUnregister for the account's state and ErrBusy for a throttled address, as for a terminal.
func (s *Service) CheckSIPDigest(ctx context.Context, addr string, d SIPDigest) (Principal, error) {
	if err := s.allowAddrOf(devices, addr); err != nil {
		return Principal{}, err
	}
	c := d.Creds
	a, err := s.loadAccount(ctx, c.Username)
	if errors.Is(err, ErrBadID) || errors.Is(err, ErrNoAccount) {
		return Principal{}, ErrSIPRefused
	}
	if err != nil {
		return Principal{}, err
	}
	var ha1 string
	err = s.db.QueryRow(ctx, `SELECT d.ha1 FROM sip_digests d JOIN accounts a ON a.id = d.account_id
		WHERE d.account_id = ? AND d.realm = ? AND a.kind = ?`, a.ID, SIPRealm, directory.KindSIP).Scan(&ha1)
	if errors.Is(err, sql.ErrNoRows) || c.Realm != SIPRealm {
		return Principal{}, ErrSIPRefused
	}
	if err != nil {
		return Principal{}, err
	}
	match := func(context.Context) (bool, error) {
		want, err := digest.Digest(&digest.Challenge{Realm: SIPRealm, Nonce: c.Nonce, Algorithm: c.Algorithm,
			QOP: qopOf(c)}, digest.Options{Method: d.Method, URI: c.URI, Username: a.ID, A1: ha1, Cnonce: c.Cnonce,
			Count: c.Nc})
		if err != nil {
			return false, nil // an algorithm or qop digest does not know: a wrong answer
		}
		return subtle.ConstantTimeCompare([]byte(want.Response), []byte(c.Response)) == 1, nil
	}
	err = s.checkSecret(ctx, devices, sipHashWait, addr, a.ID, func() error { return s.verifyLocked(ctx, lockAccounts, a.ID, match) })
	if err == ErrBadPwd {
		return Principal{}, ErrSIPRefused
	}
	if err == errWrongAndLocked {
		return Principal{}, ErrLocked
	}
	if err != nil {
		return Principal{}, err
	}
	if err := a.checkState(s.now()); err != nil {
		return Principal{}, err
	}
	return a.principal(), nil
}

// qopOf is the challenge's qop that the answer used ("" when it used none).
func qopOf(c *digest.Credentials) []string {
	if c.QOP == "" {
		return nil
	}
	return []string{c.QOP}
}
