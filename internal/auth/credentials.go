package auth

import (
	"context"
	"database/sql"
	"encoding/hex"
	"errors"
	"log/slog"
	"strings"
	"sync"

	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
)

// Service credentials (docs/adr/0018 "Credentials"): passwords of logins that are not accounts, owned here like
// every credential, checked through the one sign-in throttle and the accounts' lockout (docs/adr/0008). The
// clients of these logins send the md5 (hex) of the password (spec §5 "Broadcast: missing password replaced by
// '{secret}'; otherwise md5"); the store keeps an argon2id hash of that md5, never the md5.
const (
	// RealmBroadcast is a broadcast caster's login (POST /broadcast/v1/login): login = the caster's code.
	RealmBroadcast = "broadcast"
	// RealmSpeaker is an organisation's speaker registration (docs/speaker-protocol.md): login = the org's id.
	RealmSpeaker = "speaker"
)

// NoPassword is spec §5's '{secret}': the broadcast client's stand-in for a password it does not have. Set as a
// credential, it removes the password (no login with one).
const NoPassword = "{secret}"

// kindBroadcast is the session kind of the broadcast service (/broadcast/v1): its tokens open only that service.
const kindBroadcast = "broadcast"

// ErrMD5 refuses a password that is not the md5 of one (32 hex digits).
var ErrMD5 = httpx.BadParam("password", "the md5 of the password, 32 hex digits")

// ValidMD5 tells whether s is an md5 in hex (32 hex digits, either case).
func ValidMD5(s string) bool {
	if len(s) != 32 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// Credential is a service credential's identity (never its hash).
type Credential struct {
	ID         int64
	Realm      string
	Login      string
	CustomerID int64
}

// credentialHash is the argon2id of an md5 sent by a client (lower-cased, so either case signs in).
func credentialHash(md5hex string) (string, error) {
	md5hex = strings.TrimSpace(md5hex)
	if !ValidMD5(md5hex) {
		return "", ErrMD5
	}
	return HashPassword(strings.ToLower(md5hex))
}

// CheckMD5 tells whether a credential's password, as sent ("" or '{secret}' = none), is well-formed: the
// caller checks before it stores anything of its own, so a refusal leaves nothing half-way.
func CheckMD5(md5hex string) error {
	md5hex = strings.TrimSpace(md5hex)
	if md5hex == "" || md5hex == NoPassword || ValidMD5(md5hex) {
		return nil
	}
	return ErrMD5
}

// SetCredential sets the password of login in realm for a customer from its md5; "" or '{secret}' removes it
// (the login then has no password: nobody signs in with one). A changed password ends the credential's sessions.
func (s *Service) SetCredential(ctx context.Context, realm, login string, customerID int64, md5hex string) error {
	if err := CheckMD5(md5hex); err != nil {
		return err
	}
	if md5hex = strings.TrimSpace(md5hex); md5hex == "" || md5hex == NoPassword {
		return s.DropCredential(ctx, realm, login, customerID)
	}
	hash, err := credentialHash(md5hex)
	if err != nil {
		return err
	}
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := PutCredential(ctx, tx, realm, login, customerID, hash, s.now().UnixMilli()); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `UPDATE sessions SET revoked = TRUE WHERE credential_id =
			(SELECT id FROM service_credentials WHERE realm = ? AND customer_id = ? AND login = ?)`, realm, customerID, login)
		return err
	})
}

// PutCredential stores a credential whose hash is already made (CredentialHash) inside tx: the demo's seed
// shares one hash among its organisations. A password set again clears the lockout. A login is a customer's:
// two customers may each have one of the same name (a caster code is unique per customer, docs/adr/0018).
func PutCredential(ctx context.Context, tx *db.Tx, realm, login string, customerID int64, hash string, now int64) error {
	_, err := tx.Exec(ctx, `INSERT INTO service_credentials (realm, login, customer_id, password_hash, created_at)
		VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (realm, customer_id, login) DO UPDATE SET
		  password_hash = excluded.password_hash, failed_logins = 0, locked_until = 0`,
		realm, login, customerID, hash, now)
	return err
}

// CredentialHash is the stored form of an md5 password, for PutCredential.
func CredentialHash(md5hex string) (string, error) { return credentialHash(md5hex) }

// DropCredential removes a customer's credential and its sessions (a deleted organisation, a password removed).
func (s *Service) DropCredential(ctx context.Context, realm, login string, customerID int64) error {
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM sessions WHERE credential_id IN
			(SELECT id FROM service_credentials WHERE realm = ? AND customer_id = ? AND login = ?)`, realm, customerID, login); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `DELETE FROM service_credentials WHERE realm = ? AND customer_id = ? AND login = ?`, realm, customerID, login)
		return err
	})
}

// HasCredential tells whether login of the customer has a password in realm.
func (s *Service) HasCredential(ctx context.Context, realm, login string, customerID int64) (bool, error) {
	var n int
	err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM service_credentials WHERE realm = ? AND customer_id = ? AND login = ?`,
		realm, customerID, login).Scan(&n)
	return n > 0, err
}

// MatchCredential tells whether md5hex is the password of the customer's login in realm, without the sign-in
// throttle or the lockout: for a server's own use (serve --demo hands its in-process speakers the demo password
// it still holds), never for a request.
func (s *Service) MatchCredential(ctx context.Context, realm, login string, customerID int64, md5hex string) (bool, error) {
	var hash string
	err := s.db.QueryRow(ctx, `SELECT password_hash FROM service_credentials WHERE realm = ? AND customer_id = ? AND login = ?`,
		realm, customerID, login).Scan(&hash)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return CheckPassword(hash, strings.ToLower(strings.TrimSpace(md5hex)))
}

// dummyCredentialHash is checked for unknown logins, so a wrong name costs what a wrong password costs.
var dummyCredentialHash = sync.OnceValue(func() string {
	h, _ := HashPassword("not an md5: never matches")
	return h
})

// CheckCredential checks the md5 of a password for login in realm from address addr through the one sign-in
// throttle (the address's attempts, the login's own budget, the address's wrong guesses) and the store's
// lockout: 5 wrong passwords in a row lock the login for 10 minutes (docs/adr/0008). Answers: ErrBusy (101),
// ErrMD5 (400), ErrBadPwd (2: wrong password, unknown login or a login without one — told apart by nobody),
// ErrLocked (107, LockedMsg). It hashes in the console's budget.
func (s *Service) CheckCredential(ctx context.Context, addr, realm, login, md5hex string) (Credential, error) {
	return s.checkCredential(ctx, addr, realm, login, realm+":"+login, md5hex, true)
}

// CheckDeviceCredential checks the md5 of a password that a fleet of devices shares (an organisation's speakers,
// RealmSpeaker) for one device: the same throttle, with the device's own budget (key realm:login:device), in the
// terminals' hash budget (a fleet reconnecting after a restart), but no store lockout — its reservation would
// refuse a fleet's parallel right registrations as locked, and a lock would let anyone keep every device of the
// organisation out; the address's wrong-guess budget bounds guessing instead, as for terminal logins
// (docs/adr/0018 "Credentials"). Answers as CheckCredential's, without 107.
func (s *Service) CheckDeviceCredential(ctx context.Context, addr, realm, login, device, md5hex string) (Credential, error) {
	return s.checkCredential(ctx, addr, realm, login, realm+":"+login+":"+device, md5hex, false)
}

func (s *Service) checkCredential(ctx context.Context, addr, realm, login, key, md5hex string, lockout bool) (Credential, error) {
	// A caster's login (lockout) is a person's: the console's hash budget and people's attempts; a password a
	// fleet of devices shares hashes in the terminals' and spends devices' attempts.
	b := s.consoleHashes
	if !lockout {
		b = s.terminalHashes
	}
	if err := s.allowAddrOf(b.kind, addr); err != nil {
		return Credential{}, err
	}
	md5hex = strings.ToLower(strings.TrimSpace(md5hex))
	if !ValidMD5(md5hex) {
		return Credential{}, ErrMD5
	}
	// A login name is unique per customer (docs/adr/0018 "Credentials"): the name may mean a credential of each
	// of several customers, and the password tells which.
	rows, err := s.db.Query(ctx, `SELECT id, customer_id, password_hash FROM service_credentials WHERE realm = ? AND login = ?
		ORDER BY id`, realm, login)
	cands, err := db.Collect(rows, err, func(r db.Scanner) (candidate, error) {
		c := candidate{Credential: Credential{Realm: realm, Login: login}}
		return c, r.Scan(&c.ID, &c.CustomerID, &c.hash)
	})
	if err != nil {
		return Credential{}, err
	}
	now := s.now()
	if !s.throttle.accounts.take(key, now) {
		return Credential{}, ErrBusy
	}
	g, err := s.throttle.begin(ctx, addr, s.now, b.wait)
	if err != nil {
		return Credential{}, err
	}
	var c Credential
	switch {
	case len(cands) == 0: // the same work and budget as a wrong password, whatever it matches
		if _, err = b.check(ctx, dummyCredentialHash(), md5hex); err == nil {
			err = ErrBadPwd
		}
	case lockout:
		c, err = s.verifyCandidates(ctx, b, cands, md5hex)
	default:
		err = ErrBadPwd
		for _, k := range cands {
			good, cerr := b.check(ctx, k.hash, md5hex)
			if cerr != nil || good {
				c, err = k.Credential, cerr
				break
			}
		}
	}
	g.end(err)
	if err == nil {
		s.throttle.right(b.kind, addr, key, s.now())
	}
	if errors.Is(err, errWrongAndLocked) {
		err = ErrLocked
	}
	if err != nil {
		return Credential{}, err
	}
	return c, nil
}

// candidate is one credential a sign-in name may mean, with its hash.
type candidate struct {
	Credential
	hash string
}

// verifyCandidates is verifyLocked's rule (accounts.go) for a name that credentials of several customers may
// share (docs/adr/0018 "Credentials"): each candidate that is not locked has an attempt reserved before any hash
// and is checked; the password signs in to the one it matches, whose count is cleared, and the others'
// reservations are given back (one customer's right password is no wrong guess at another's, so it locks
// nobody). Otherwise the attempt counts against every candidate checked (the fifth locks it), and the answer is
// errWrongAndLocked/ErrLocked (107) when a candidate is locked, else ErrBadPwd (2). With one candidate this is
// exactly verifyLocked. Wrong guesses at a name move all its candidates together, so the answers are those of
// one credential; they differ only after a right password cleared one candidate's count and not another's.
// A candidate that is locked is never hashed; the others are, so a customer whose caster is locked still signs
// in with its own password, whatever another customer's same-named caster suffered.
func (s *Service) verifyCandidates(ctx context.Context, b *hashBudget, cands []candidate, md5hex string) (Credential, error) {
	now := s.now()
	var held []candidate
	for _, k := range cands {
		var n int
		err := s.db.WriteRow(ctx, `UPDATE service_credentials SET failed_logins = failed_logins + 1
			WHERE id = ? AND locked_until <= ? AND failed_logins < ? RETURNING failed_logins`,
			k.ID, now.UnixMilli(), MaxFailedLogins).Scan(&n)
		if errors.Is(err, sql.ErrNoRows) {
			continue // locked
		}
		if err != nil {
			s.releaseAttempts(ctx, held)
			return Credential{}, err
		}
		held = append(held, k)
	}
	if len(held) == 0 {
		return Credential{}, ErrLocked
	}
	for i, k := range held {
		good, err := b.check(ctx, k.hash, md5hex)
		if err != nil {
			s.releaseAttempts(ctx, held)
			return Credential{}, err
		}
		if good {
			s.releaseAttempts(ctx, append(held[:i:i], held[i+1:]...))
			_, err := s.db.Exec(ctx, `UPDATE service_credentials SET failed_logins = 0, locked_until = 0 WHERE id = ?`, k.ID)
			return k.Credential, err
		}
	}
	// The attempt stays counted on every candidate. SET expressions read the old row, so the two CASEs agree.
	locked := len(cands) - len(held)
	for _, k := range held {
		var until int64
		err := s.db.WriteRow(ctx, `UPDATE service_credentials SET
			  locked_until  = CASE WHEN failed_logins >= ? THEN ? ELSE locked_until END,
			  failed_logins = CASE WHEN failed_logins >= ? THEN 0 ELSE failed_logins END
			WHERE id = ? RETURNING locked_until`,
			MaxFailedLogins, now.Add(LockDuration).UnixMilli(), MaxFailedLogins, k.ID).Scan(&until)
		if err != nil {
			return Credential{}, err
		}
		if until > now.UnixMilli() {
			locked++
		}
	}
	if locked > 0 {
		return Credential{}, errWrongAndLocked
	}
	return Credential{}, ErrBadPwd
}

// releaseAttempts gives back the attempts reserved on candidates that were not checked or matched no one.
func (s *Service) releaseAttempts(ctx context.Context, ks []candidate) {
	for _, k := range ks {
		if _, err := s.db.Exec(context.WithoutCancel(ctx),
			`UPDATE service_credentials SET failed_logins = failed_logins - 1 WHERE id = ? AND failed_logins > 0`, k.ID); err != nil {
			slog.WarnContext(ctx, "auth: release a sign-in attempt", "credential", k.ID, "err", err)
		}
	}
}

// BroadcastSignIn is a broadcast caster's md5 login: CheckCredential in RealmBroadcast, then a broadcast session
// of the credential for TokenTTL. It returns the token and its end (unix ms).
func (s *Service) BroadcastSignIn(ctx context.Context, addr, login, md5hex string) (Credential, string, int64, error) {
	c, err := s.CheckCredential(ctx, addr, RealmBroadcast, login, md5hex)
	if err != nil {
		return c, "", 0, err
	}
	tok, exp, err := s.Sessions.insert(ctx, nil, c.ID, c.CustomerID, kindBroadcast)
	return c, tok, exp, err
}

// OpenBroadcast is the broadcast login with '{secret}': the console session consoleToken of account uid proves
// who signs in (a token login, not a password guess: ADR 0008 counts none). It opens a broadcast session of the
// account under that console session: it ends with the account (disabled, expired) and with the console
// session (signed out, revoked, expired). A console token that is not live, or of another account, is
// ErrAuthFailed (102).
func (s *Service) OpenBroadcast(ctx context.Context, consoleToken, uid string) (Principal, string, int64, error) {
	p, err := s.Sessions.Lookup(ctx, consoleToken)
	if err != nil || p.AccountID != uid {
		return Principal{}, "", 0, ErrAuthFailed
	}
	tok, exp, err := s.Sessions.insertUnder(ctx, p.AccountID, nil, p.CustomerID, kindBroadcast, consoleToken, p.Expires)
	return p, tok, exp, err
}

// AccountOf tells whether id is an account of the customer (a broadcast caster's user_id must be one of the
// caller's customer's: docs/adr/0018).
func (s *Service) AccountOf(ctx context.Context, customerID int64, id string) (bool, error) {
	var n int
	err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM accounts WHERE customer_id = ? AND id = ?`, customerID, id).Scan(&n)
	return n > 0, err
}

// BroadcastHolder is who holds a broadcast token: a console account that signed in with '{secret}' (Account),
// or a credential that signed in with its md5 (Login, the caster's code).
type BroadcastHolder struct {
	Account    *Principal
	Login      string
	CustomerID int64
}

// LookupBroadcast resolves a broadcast token. Unknown, revoked or expired tokens, a token of another kind (a
// console's, a patrol's) and one whose account was disabled or expired since are httpx.ErrToken.
func (s *Service) LookupBroadcast(ctx context.Context, token string) (BroadcastHolder, error) {
	return s.Sessions.LookupBroadcast(ctx, token)
}

// LookupBroadcast is Service.LookupBroadcast.
func (s *Sessions) LookupBroadcast(ctx context.Context, token string) (BroadcastHolder, error) {
	if token == "" || len(token) > 128 {
		return BroadcastHolder{}, httpx.ErrToken
	}
	var account sql.NullString
	var cred sql.NullInt64
	var h BroadcastHolder
	var expires int64
	var revoked bool
	var kind string
	var parentRevoked sql.NullBool
	// A session opened under a console session ends with it, however that one ended. Revoke marks it too, but
	// only the join catches one opened (OpenBroadcast) while its console session was being signed out.
	err := s.db.QueryRow(ctx, `SELECT s.account_id, s.credential_id, s.customer_id, s.expires_at, s.revoked, s.kind, p.revoked
		FROM sessions s LEFT JOIN sessions p ON s.parent_hash <> '' AND p.token_hash = s.parent_hash
		WHERE s.token_hash = ?`, hashToken(token)).Scan(&account, &cred, &h.CustomerID, &expires, &revoked, &kind, &parentRevoked)
	if errors.Is(err, sql.ErrNoRows) {
		return h, httpx.ErrToken
	}
	if err != nil {
		return h, err
	}
	if kind != kindBroadcast || revoked || parentRevoked.Bool || s.now().UnixMilli() >= expires {
		return BroadcastHolder{}, httpx.ErrToken
	}
	if account.Valid {
		p, err := s.lookup(ctx, token, kindBroadcast) // the account's state rules
		if err != nil {
			return BroadcastHolder{}, err
		}
		h.Account = &p
		return h, nil
	}
	var realm string
	err = s.db.QueryRow(ctx, `SELECT realm, login FROM service_credentials WHERE id = ?`, cred.Int64).Scan(&realm, &h.Login)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && realm != RealmBroadcast) {
		return BroadcastHolder{}, httpx.ErrToken
	}
	return h, err
}

// Lookup is Sessions.Lookup: a console token's principal (the broadcast '{secret}' login's proof).
func (s *Service) Lookup(ctx context.Context, token string) (Principal, error) {
	return s.Sessions.Lookup(ctx, token)
}
