package auth

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"log/slog"
	"regexp"
	"strconv"
	"time"

	"tenfour/internal/branding"
	"tenfour/internal/platform/db"
	"tenfour/internal/tenant"
)

// Lockout (spec §8, §9): the fifth wrong password in a row locks the account for ten minutes.
const (
	MaxFailedLogins = 5
	LockDuration    = 10 * time.Minute
)

var accountIDRe = regexp.MustCompile(`^[0-9]{8}$`)

// ValidAccountID tells whether id is a well-formed account number: 8 digits (spec §5 "the account is 8
// characters"). Anything else is sign-in code 1.
func ValidAccountID(id string) bool { return accountIDRe.MatchString(id) }

// account is the credential view of an accounts row.
type account struct {
	ID           string
	CustomerID   int64
	Type         string
	AcctType     string
	Admin        bool
	Name         string
	Hash         string
	Email        string
	Disabled     bool
	ExpiresAt    int64
	GroupID      sql.NullInt64
	GroupName    string
	PTTGroupID   sql.NullInt64
	FailedLogins int
	LockedUntil  int64
}

func (a *account) principal() Principal {
	return Principal{AccountID: a.ID, CustomerID: a.CustomerID, Type: a.Type, AcctType: a.AcctType,
		Admin: a.Admin, Name: a.Name}
}

// locked tells whether the account is locked at now.
func (a *account) locked(now time.Time) bool { return a.LockedUntil > now.UnixMilli() }

// checkState applies the account-state rules every sign-in path shares, in the order a user should learn
// them: locked (107), disabled (4), expired (103).
func (a *account) checkState(now time.Time) error {
	switch {
	case a.locked(now):
		return ErrLocked
	case a.Disabled:
		return ErrDisabled
	case a.ExpiresAt != 0 && a.ExpiresAt <= now.UnixMilli():
		return ErrUnregister
	}
	return nil
}

// loadAccount reads an account by id; a malformed id is ErrBadID and an unknown one ErrNoAccount.
func (s *Service) loadAccount(ctx context.Context, id string) (*account, error) {
	if !ValidAccountID(id) {
		return nil, ErrBadID
	}
	var a account
	err := s.db.QueryRow(ctx, `
		SELECT a.id, a.customer_id, a.type, a.acct_type, a.admin, a.name, a.password_hash, a.email, a.disabled,
		       a.expires_at, a.default_group_id, COALESCE(g.name, ''), a.ptt_group_id,
		       a.failed_logins, a.locked_until
		FROM accounts a LEFT JOIN ptt_groups g ON g.id = a.default_group_id
		WHERE a.id = ?`, id).
		Scan(&a.ID, &a.CustomerID, &a.Type, &a.AcctType, &a.Admin, &a.Name, &a.Hash, &a.Email, &a.Disabled,
			&a.ExpiresAt, &a.GroupID, &a.GroupName, &a.PTTGroupID, &a.FailedLogins, &a.LockedUntil)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNoAccount
	}
	if err != nil {
		return nil, err
	}
	return &a, nil
}

// verifyPassword checks pw against the account with the lockout rule, decided in the store so that it holds
// for parallel requests and across nodes (issue 14 H1; docs/adr/0008-sign-in-throttling-and-lockout.md):
//
//  1. One conditional UPDATE reserves the attempt before the hash is computed: it counts as a failure at once
//     and is refused (ErrLocked) when the account is locked or MaxFailedLogins attempts are already counted
//     (failed or still being checked). So at most MaxFailedLogins guesses are ever checked before the lock,
//     however many arrive at the same moment, and a right password sent among them is refused once the
//     wrong ones reached the limit.
//  2. A wrong password keeps its count; the MaxFailedLogins-th locks the account (ErrLocked at once).
//  3. A right one clears the count and any lock set meanwhile by the attempts checked alongside it (it was one
//     of the first MaxFailedLogins, so fewer than MaxFailedLogins wrong ones came before it).
//
// A check that never ran (the hash budget was full, the request was cancelled) gives its reservation back.
func (s *Service) verifyPassword(ctx context.Context, b *hashBudget, a *account, pw string) error {
	return s.verifyLocked(ctx, lockAccounts, a.ID, func(ctx context.Context) (bool, error) { return b.check(ctx, a.Hash, pw) })
}

// The tables whose rows carry the lockout columns (failed_logins, locked_until) keyed by id: accounts and the
// credentials of other services' logins (credentials.go). Constants, never user input.
const (
	lockAccounts    = "accounts"
	lockCredentials = "service_credentials"
)

// verifyLocked is verifyPassword's rule for a row id of table (lockAccounts or lockCredentials) whose secret
// match compares: a password with its hash in a hash budget, or a SIP digest answer with its HA1 (sip.go).
func (s *Service) verifyLocked(ctx context.Context, table string, id any, match func(context.Context) (bool, error)) error {
	now := s.now()
	var n int
	err := s.db.WriteRow(ctx, `
		UPDATE `+table+` SET failed_logins = failed_logins + 1
		WHERE id = ? AND locked_until <= ? AND failed_logins < ? RETURNING failed_logins`,
		id, now.UnixMilli(), MaxFailedLogins).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrLocked
	}
	if err != nil {
		return err
	}
	ok, err := match(ctx)
	if err != nil {
		if _, rerr := s.db.Exec(context.WithoutCancel(ctx),
			`UPDATE `+table+` SET failed_logins = failed_logins - 1 WHERE id = ? AND failed_logins > 0`, id); rerr != nil {
			slog.WarnContext(ctx, "auth: release a sign-in attempt", "table", table, "id", id, "err", rerr)
		}
		return err
	}
	if ok {
		_, err := s.db.Exec(ctx, `UPDATE `+table+` SET failed_logins = 0, locked_until = 0 WHERE id = ?`, id)
		return err
	}
	// The attempt stays counted. SET expressions read the old row, so the two CASEs agree.
	var until int64
	err = s.db.WriteRow(ctx, `
		UPDATE `+table+` SET
		  locked_until  = CASE WHEN failed_logins >= ? THEN ? ELSE locked_until END,
		  failed_logins = CASE WHEN failed_logins >= ? THEN 0 ELSE failed_logins END
		WHERE id = ? RETURNING locked_until`,
		MaxFailedLogins, now.Add(LockDuration).UnixMilli(), MaxFailedLogins, id).Scan(&until)
	if err != nil {
		return err
	}
	if until > now.UnixMilli() {
		return errWrongAndLocked
	}
	return ErrBadPwd
}

// customer holds the session fields a customer row supplies.
type customer struct {
	MaxOnline int
	DSConfig  json.RawMessage
	Version   string
	TimeZone  string
	Language  string
}

func (s *Service) loadCustomer(ctx context.Context, id int64) (*customer, error) {
	t, err := tenant.Get(ctx, s.db, id)
	if err != nil {
		return nil, err
	}
	c := customer{MaxOnline: t.MaxOnline, Version: t.Version, TimeZone: t.TimeZone, Language: t.Language}
	// The console gets every feature key (1 when not configured). A broken stored value must not break
	// sign-in, so it reads as "nothing configured".
	cfg, err := branding.ParseDSConfig(t.DSConfig)
	if err != nil {
		slog.WarnContext(ctx, "customer ds_config unreadable; using defaults", "customer", id, "err", err)
		cfg = nil
	}
	if c.DSConfig, err = json.Marshal(cfg.Effective()); err != nil {
		return nil, err
	}
	return &c, nil
}

// checkOnlineLimit refuses a dispatcher sign-in (code 5) when the customer caps concurrent dispatchers and
// that many other dispatchers are connected. A dispatcher signing in again does not take a second place (its
// new socket replaces the old one).
func (s *Service) checkOnlineLimit(ctx context.Context, a *account, c *customer) error {
	if c.MaxOnline <= 0 || s.presence == nil {
		return nil
	}
	others := []any{}
	for _, id := range s.presence.Accounts(a.CustomerID) {
		if id != a.ID {
			others = append(others, id)
		}
	}
	if len(others) < c.MaxOnline {
		return nil // even if all of them were dispatchers there is room
	}
	var n int
	err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM accounts WHERE customer_id = ? AND type = ? AND id IN (`+
		db.Placeholders(len(others))+`)`, append([]any{a.CustomerID, DispatcherType}, others...)...).Scan(&n)
	if err != nil {
		return err
	}
	if n >= c.MaxOnline {
		return ErrOnlineLimit
	}
	return nil
}

// UserInfo is the account part of the sign-in answer (spec §3 "User info"), plus the fields the console's
// feature gates need. Ids are strings.
type UserInfo struct {
	MsID     string `json:"msId"`
	MsName   string `json:"msName"`
	MsType   string `json:"msType"`
	GID      string `json:"gId"`
	GName    string `json:"gName"`
	PTTGroup string `json:"pttGroup"`
	// SecretKey is the customer's current secret key ("" when none; internal/secretkey, docs/adr/0021).
	SecretKey string `json:"secretKey"`
	// AcctType is the feature access code of spec §6 ("1" or "-2").
	AcctType string `json:"accountType"`
	Admin    bool   `json:"admin"`
	// Email is the bound e-mail address ("" when none).
	Email string `json:"email"`
}

// userInfo builds the answer; the secret key is the customer's current one, asked of the key ring.
func (s *Service) userInfo(ctx context.Context, a *account) (UserInfo, error) {
	key, err := s.secretKey(ctx, a.CustomerID)
	if err != nil {
		return UserInfo{}, err
	}
	u := UserInfo{MsID: a.ID, MsName: a.Name, MsType: a.Type, GName: a.GroupName, SecretKey: key,
		AcctType: a.AcctType, Admin: a.Admin, Email: a.Email}
	if a.GroupID.Valid {
		u.GID = strconv.FormatInt(a.GroupID.Int64, 10)
	}
	// pttGroup is the group the account talks in now; until it switches, its default group.
	switch {
	case a.PTTGroupID.Valid:
		u.PTTGroup = strconv.FormatInt(a.PTTGroupID.Int64, 10)
	default:
		u.PTTGroup = u.GID
	}
	return u, nil
}
