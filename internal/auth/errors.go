package auth

import (
	"net/http"

	"tenfour/internal/platform/httpx"
)

// LockedMsg is the exact text of the lockout answer; the console maps code 107 with this text to 502
// (spec §8), so it must not change.
const LockedMsg = "User is locked of 10 minutes"

// Sign-in errors shared by the console pair, OAuth sign-in and terminal logins (spec §8 "Login codes";
// docs/api.md "Sign-in codes").
var (
	ErrBadID         = httpx.E(http.StatusBadRequest, "1", "errors.login.1", "incorrect terminal ID")
	ErrBadPwd        = httpx.E(http.StatusUnauthorized, "2", "errors.login.2", "incorrect password")
	ErrNoGroup       = httpx.E(http.StatusForbidden, "3", "errors.login.3", "no default group")
	ErrDisabled      = httpx.E(http.StatusForbidden, "4", "errors.login.4", "disabled account")
	ErrOnlineLimit   = httpx.E(http.StatusForbidden, "5", "errors.login.5", "online limit reached")
	ErrNotDispatcher = httpx.E(http.StatusForbidden, "6", "errors.login.6", "incorrect account type")
	ErrNotTerminal   = httpx.E(http.StatusForbidden, "6", "errors.login.6", "incorrect account type: a dispatcher account, not a terminal")
	ErrBusy          = httpx.E(http.StatusTooManyRequests, "101", "errors.login.101", "system busy")
	ErrAuthFailed    = httpx.E(http.StatusUnauthorized, "102", "errors.login.102", "user authentication failed")
	ErrUnregister    = httpx.E(http.StatusForbidden, "103", "errors.login.103", "user unregistered")
	ErrNoAccount     = httpx.E(http.StatusNotFound, "104", "errors.login.104", "account does not exist")
	ErrLocked        = httpx.E(http.StatusForbidden, "107", "errors.login.502", LockedMsg)
	// errWrongAndLocked is ErrLocked for a password that was checked and wrong (the one that locked the account,
	// or one checked alongside it): the address's throttle counts it as a wrong guess.
	errWrongAndLocked = httpx.E(http.StatusForbidden, "107", "errors.login.502", LockedMsg)
)

// Password-change errors (docs/api.md "Other account calls").
var (
	ErrOldPwd  = httpx.E(http.StatusForbidden, "2", "errors.password.oldWrong", "old password wrong")
	ErrSamePwd = httpx.E(http.StatusBadRequest, "11", "errors.password.same", "new password equals the old one")
	ErrWeakPwd = httpx.E(http.StatusBadRequest, "12", "errors.password.rule",
		"new password must have 8-64 characters with upper case, lower case, a digit and one of "+PasswordSpecials)
)

// Password-recovery errors (spec §8 "Password recovery"; docs/api.md).
var (
	ErrNoBindEmail = httpx.E(http.StatusNotFound, "104", "errors.recovery.noBindEmail", "no bound e-mail")
	ErrSendMail    = httpx.E(http.StatusBadGateway, "101", "errors.recovery.sendEmailException", "send e-mail exception")
	ErrEmailExists = httpx.E(http.StatusConflict, "13", "errors.recovery.emailExists", "e-mail already exists")
	ErrVerifyCode  = httpx.E(http.StatusBadRequest, "14", "errors.recovery.codeError", "wrong or expired verification code")
)
