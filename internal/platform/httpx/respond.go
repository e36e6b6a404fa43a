package httpx

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
)

// Envelope is the dispatch service's response shape (spec §7).
type Envelope struct {
	Code   string `json:"code"`
	Msg    string `json:"msg"`
	Key    string `json:"key,omitempty"`
	Result any    `json:"result,omitempty"`
}

// Handler is an endpoint that returns its result or an error; Handle writes either as an Envelope.
type Handler func(w http.ResponseWriter, r *http.Request) (any, error)

// Handle adapts a Handler to http.Handler.
func Handle(h Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		res, err := h(w, r)
		if err != nil {
			WriteError(w, r, err)
			return
		}
		WriteJSON(w, http.StatusOK, Envelope{Code: "0", Msg: "ok", Result: res})
	})
}

// WriteError writes err as a coded envelope; unexpected errors are logged with the request path.
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	e, known := AsError(err)
	if !known && !errors.Is(err, context.Canceled) {
		slog.ErrorContext(r.Context(), "request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	WriteJSON(w, e.Status, Envelope{Code: e.Code, Msg: e.Msg, Key: e.Key})
}

// WriteJSON writes v with status.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
