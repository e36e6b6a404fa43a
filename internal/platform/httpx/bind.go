package httpx

import (
	"context"
	"net/http"

	"tenfour/internal/platform/identity"
)

// Bind is the one shape of a signed-in endpoint: the request's parameters decode into Req (see Decode) and fn
// runs as the caller's Principal, returning the result (of any type) or a coded error. Mount it with Router.Private.
func Bind[Req, Res any](fn func(ctx context.Context, p identity.Principal, req Req) (Res, error)) Handler {
	return BindAs(identity.Must, fn)
}

// BindAs is Bind for a service whose callers are a type of its own, which its authenticator puts in the
// request's context (broadcast's Caller): who reads it there. fn may answer any type.
func BindAs[Who, Req, Res any](who func(context.Context) Who, fn func(ctx context.Context, c Who, req Req) (Res, error)) Handler {
	return func(w http.ResponseWriter, r *http.Request) (any, error) {
		var req Req
		if err := Decode(r, &req); err != nil {
			return nil, err
		}
		return fn(r.Context(), who(r.Context()), req)
	}
}
