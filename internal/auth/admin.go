package auth

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"tenfour/internal/directory"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/text"
	"tenfour/internal/tenant"
)

// Account administration for `tenfour admin`, the demo seeder and tests. These functions take the store
// directly (no session, no tenancy check: the caller is the operator) and validate everything they store.

// AccountTypes are the account type codes of spec §3: 20 dispatcher; the others are terminals.
var AccountTypes = []string{"20", "10", "8", "6", "0", "PMR", "DMR", "505", "camera"}

// Errors of the administration functions.
var (
	ErrAccountExists = errors.New("an account with that number exists")
	ErrEmailTaken    = errors.New("that e-mail address is bound to another account")
	ErrOAuthTaken    = errors.New("that external identity is linked already")
)

// The names the administration functions store: a text.Name, at most as long as a customer's.
var (
	accountName = text.Field{Name: "account name", Max: tenant.MaxName, Required: true}
	groupName   = accountName.As("group name")
)

// checkIssuedPassword accepts what an administrator may hand out: an original 6-digit password or one that
// meets the new-password rule.
func checkIssuedPassword(pw string) error {
	if ValidOriginalPassword(pw) || ValidNewPassword(pw) {
		return nil
	}
	//lint:ignore ST1005 the message ends with the list of allowed special characters, which is punctuation
	return errors.New("password must be 6 digits, or 8-64 characters with upper case, lower case, a digit and one of " + PasswordSpecials)
}

// NewAccount describes an account to create.
type NewAccount struct {
	CustomerID int64
	ID         string // 8 digits
	Name       string
	Type       string // one of AccountTypes
	Password   string // 6 digits (original) or a password meeting the new-password rule
	Admin      bool   // dispatchers only: may unlock accounts and change others' passwords
	Email      string // optional bound e-mail address
	// The default group: GroupID when not 0, else the root fixed group named Group, created when missing. With
	// neither the account has no default group, and a dispatcher cannot sign in (code 3) until it gets one.
	GroupID int64
	Group   string
	// Kind is the terminal kind: "" for the terminal protocol, directory.KindSIP for a SIP account (which gets a
	// digest credential, sip.go).
	Kind string
}

// CreateAccount validates and stores a dispatcher or terminal account, a member of its default group.
func CreateAccount(ctx context.Context, d *db.DB, a NewAccount) error {
	if !ValidAccountID(a.ID) {
		return fmt.Errorf("account number %q is not 8 digits", a.ID)
	}
	var err error
	if a.Name, err = accountName.CheckPlain(a.Name); err != nil {
		return err
	}
	if !slices.Contains(AccountTypes, a.Type) {
		return fmt.Errorf("account type %q is not one of %s", a.Type, strings.Join(AccountTypes, ", "))
	}
	if a.Admin && a.Type != DispatcherType {
		return errors.New("only dispatchers can be administrators")
	}
	if a.Kind != "" && (a.Kind != directory.KindSIP || a.Type == DispatcherType) {
		return fmt.Errorf("account kind %q is not %q, which only terminals have", a.Kind, directory.KindSIP)
	}
	if err := checkIssuedPassword(a.Password); err != nil {
		return err
	}
	email := ""
	if a.Email != "" {
		var ok bool
		if email, ok = NormalizeEmail(a.Email); !ok {
			return fmt.Errorf("%q is not an e-mail address", a.Email)
		}
	}
	hash, err := HashPassword(a.Password)
	if err != nil {
		return err
	}
	now := time.Now().UnixMilli()
	err = d.InTx(ctx, func(tx *db.Tx) error {
		if err := tenant.Exists(ctx, tx, a.CustomerID); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM accounts WHERE id = ?`, a.ID).Scan(&n); err != nil || n > 0 {
			return cmp.Or(err, ErrAccountExists)
		}
		if email != "" {
			if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM accounts WHERE email = ?`, email).Scan(&n); err != nil || n > 0 {
				return cmp.Or(err, ErrEmailTaken)
			}
		}
		group, err := defaultGroup(ctx, tx, a, now)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO accounts (id, customer_id, type, admin, name, password_hash, email,
			default_group_id, ptt_group_id, kind, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			a.ID, a.CustomerID, a.Type, a.Admin, a.Name, hash, email, group, group, a.Kind, now)
		if err != nil {
			return err
		}
		if err := putSIPDigest(ctx, tx, a.ID, a.Password); err != nil {
			return err
		}
		if group.Valid {
			err = directory.Join(ctx, tx, directory.GroupID(group.Int64), directory.TerminalID(a.ID))
		}
		return err
	})
	if db.IsUniqueViolation(err) { // created concurrently (PostgreSQL; SQLite has one writer)
		return ErrAccountExists
	}
	return err
}

func accountExists(ctx context.Context, d *db.DB, id string) (bool, error) {
	var n int
	err := d.QueryRow(ctx, `SELECT COUNT(*) FROM accounts WHERE id = ?`, id).Scan(&n)
	return n > 0, err
}

// defaultGroup resolves NewAccount's group choice inside tx through the directory, which owns groups: the group
// id, else the group name (checked here: the shell's words), else none.
func defaultGroup(ctx context.Context, tx *db.Tx, a NewAccount, now int64) (sql.NullInt64, error) {
	name := strings.TrimSpace(a.Group)
	if a.GroupID == 0 && name != "" {
		var err error
		if name, err = groupName.CheckPlain(name); err != nil {
			return sql.NullInt64{}, err
		}
	}
	gid, err := directory.FixedGroup(ctx, tx, directory.CustomerID(a.CustomerID), directory.GroupID(a.GroupID), name, now)
	if err != nil || gid == 0 {
		return sql.NullInt64{}, err
	}
	return sql.NullInt64{Int64: int64(gid), Valid: true}, nil
}

// ResetPassword sets an account's password as an administrator: the new one is an issued password (the owner
// is expected to change it), a lockout is lifted and every session of the account ends.
func ResetPassword(ctx context.Context, d *db.DB, uid, pw string) error {
	if !ValidAccountID(uid) {
		return fmt.Errorf("account number %q is not 8 digits", uid)
	}
	if err := checkIssuedPassword(pw); err != nil {
		return err
	}
	hash, err := HashPassword(pw)
	if err != nil {
		return err
	}
	return d.InTx(ctx, func(tx *db.Tx) error {
		res, err := tx.Exec(ctx, `UPDATE accounts SET password_hash = ?, password_changed = FALSE, failed_logins = 0,
			locked_until = 0 WHERE id = ?`, hash, uid)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("account %s: %w", uid, db.ErrNotFound)
		}
		if err := putSIPDigest(ctx, tx, uid, pw); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE sessions SET revoked = TRUE WHERE account_id = ?`, uid)
		return err
	})
}

// LinkOAuth links an external identity (platform + id) to an account, so getAccountByOauth signs it in. The
// identity works like a credential and is stored hashed.
func LinkOAuth(ctx context.Context, d *db.DB, uid, platform, oauth string) error {
	if !ValidAccountID(uid) {
		return fmt.Errorf("account number %q is not 8 digits", uid)
	}
	if strings.TrimSpace(platform) == "" || len(platform) > maxShortParam {
		return fmt.Errorf("platform must be 1-%d bytes", maxShortParam)
	}
	if strings.TrimSpace(oauth) == "" || len(oauth) > maxOAuthParam {
		return fmt.Errorf("oauth id must be 1-%d bytes", maxOAuthParam)
	}
	exists, err := accountExists(ctx, d, uid)
	if err != nil {
		return err
	}
	if !exists {
		return fmt.Errorf("account %s: %w", uid, db.ErrNotFound)
	}
	_, err = d.Exec(ctx, `INSERT INTO oauth_links (platform, oauth_hash, account_id, created_at) VALUES (?, ?, ?, ?)`,
		platform, hashOAuth(platform, oauth), uid, time.Now().UnixMilli())
	if db.IsUniqueViolation(err) {
		return ErrOAuthTaken
	}
	return err
}

// AccountTypeCodes are the feature access codes of spec §6 an account may have.
var AccountTypeCodes = []string{"1", "-2"}

// SetAccountType sets an account's feature access code (spec §6: "1" or "-2"). The session check reads it on
// every request, so it applies at once to the server's gates; a console learns it at its next sign-in.
func SetAccountType(ctx context.Context, d *db.DB, uid, code string) error {
	if !ValidAccountID(uid) {
		return fmt.Errorf("account number %q is not 8 digits", uid)
	}
	if !slices.Contains(AccountTypeCodes, code) {
		return fmt.Errorf("account type %q: one of %s", code, strings.Join(AccountTypeCodes, ", "))
	}
	res, err := d.Exec(ctx, `UPDATE accounts SET acct_type = ? WHERE id = ?`, code, uid)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("account %s: %w", uid, db.ErrNotFound)
	}
	return nil
}
