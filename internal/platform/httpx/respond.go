package httpx

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
)

// Envelope is the dispatch service's response shape (spec §7), as a client reads it.
type Envelope struct {
	Code   string `json:"code"`
	Msg    string `json:"msg"`
	Key    string `json:"key,omitempty"`
	Result any    `json:"result,omitempty"`
}

// envelope is what every service writes: Envelope with the code as the service's Codes spell it (a string for
// /ds and /patrolService, a number for /broadcast). The fields keep Envelope's order, so the bytes are the same.
type envelope struct {
	Code   any    `json:"code"`
	Msg    string `json:"msg"`
	Key    string `json:"key,omitempty"`
	Result any    `json:"result,omitempty"`
}

// Handler is an endpoint that returns its result or an error; a Router writes either in its service's envelope.
type Handler func(w http.ResponseWriter, r *http.Request) (any, error)

// Handle adapts a Handler to http.Handler with the dispatch service's envelope.
func Handle(h Handler) http.Handler { return Router{}.enveloped(h) }

// WriteError writes err as a coded envelope of the dispatch service; unexpected errors are logged with the
// request path.
func WriteError(w http.ResponseWriter, r *http.Request, err error) { Codes{}.WriteError(w, r, err) }

// WriteResult writes a successful answer in c's envelope.
func (c Codes) WriteResult(w http.ResponseWriter, res any) {
	ok := c.OK
	if ok == nil {
		ok = "0"
	}
	WriteJSON(w, http.StatusOK, envelope{Code: ok, Msg: "ok", Result: res})
}

// WriteError writes err in c's envelope with the Error's status; unexpected errors are logged with the request
// path (their text never reaches the client).
func (c Codes) WriteError(w http.ResponseWriter, r *http.Request, err error) {
	e, known := AsError(err)
	if !known && !errors.Is(err, context.Canceled) {
		slog.ErrorContext(r.Context(), "request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	var code any = e.Code
	if c.Of != nil {
		code = c.Of(e)
	}
	WriteJSON(w, e.Status, envelope{Code: code, Msg: e.Msg, Key: e.Key})
}

// WriteJSON writes v with status.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
