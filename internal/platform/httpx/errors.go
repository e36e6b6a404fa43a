// Package httpx is the HTTP plumbing every domain shares: coded errors, the {code, msg, result} envelope,
// parameter decoding and middleware.
package httpx

import (
	"errors"
	"net/http"
	"strconv"

	"tenfour/internal/platform/db"
)

// Error is an error with meaning for the client: the spec's code (a string, as the console reads it), the HTTP
// status, an English message for logs and an i18n key the console translates.
type Error struct {
	Code   string
	Status int
	Key    string
	Msg    string
}

func (e *Error) Error() string { return e.Code + ": " + e.Msg }

// E builds an Error.
func E(status int, code, key, msg string) *Error {
	return &Error{Code: code, Status: status, Key: key, Msg: msg}
}

// Common errors. Domain packages define their own next to their handlers.
var (
	ErrToken      = E(http.StatusUnauthorized, "105", "errors.token", "token expired or missing")
	ErrNotFound   = E(http.StatusNotFound, "404", "errors.notFound", "not found")
	ErrPermission = E(http.StatusForbidden, "107", "errors.permission", "no permission")
	ErrTooFast    = E(http.StatusTooManyRequests, "429", "errors.tooFrequent", "operation too frequent")
	ErrInternal   = E(http.StatusInternalServerError, "500", "errors.server", "server error")
	ErrBodyTooBig = E(http.StatusRequestEntityTooLarge, "413", "errors.tooLarge", "request too large")
)

// BadParam is the error for a missing or malformed parameter.
func BadParam(name, why string) *Error {
	return E(http.StatusBadRequest, "400", "errors.badParam", name+": "+why)
}

// Code is err's client code: "0" for nil, the Error's code, "404" for db.ErrNotFound, "500" for anything else.
func Code(err error) string {
	if err == nil {
		return "0"
	}
	e, _ := AsError(err)
	return e.Code
}

// NumericCode is a Codes.Of for a service whose codes are numbers (the broadcast service, spec §8): the
// Error's code as a number, 500 for one that is not.
func NumericCode(e *Error) any {
	n, err := strconv.Atoi(e.Code)
	if err != nil {
		return 500
	}
	return n
}

// AsError maps any error to the Error the client sees: coded errors pass through, db.ErrNotFound becomes 404,
// anything else is an internal error (its text is logged, never sent).
func AsError(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	if errors.Is(err, db.ErrNotFound) {
		return ErrNotFound, true
	}
	return ErrInternal, false
}
