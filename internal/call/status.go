package call

// Call status codes of spec §4 beyond those of model.go, and where they are produced:
//   - 102 self_trying: the caller's own answer to an individual call it placed (its invite reply); the callee's
//     call.invite and the call.state events say 100 trying.
//   - 503 noSessionId: a signalling verb (call.status, call.ack, call.cancel, call.bye, call.byeMyself) naming a
//     call that does not exist or has ended.
//   - 500 serverErr: any request the server could not complete (httpx answers "500" for an error without a
//     code), so a client tells a server fault from a refusal.
//   - 201 cameraBusy and 402 noVideoCredit belong to video calls.

import (
	"net/http"

	"tenfour/internal/platform/httpx"
)

const (
	StSelfTrying = 102
	StNoSession  = 503
)

// ErrNoSession is a signalling verb about a call that does not exist (any more).
var ErrNoSession = httpx.E(http.StatusNotFound, "503", "errors.call.noSession", "no such call (it may have ended)")
