package httpx

import (
	"context"
	"net/http"

	"tenfour/internal/platform/identity"
)

// Bind is the one shape of a signed-in endpoint: the request's parameters decode into Req (see Decode) and fn
// runs as the caller's Principal, returning the result or a coded error. Mount it with Router.Private.
func Bind[Req any](fn func(ctx context.Context, p identity.Principal, req Req) (any, error)) Handler {
	return func(w http.ResponseWriter, r *http.Request) (any, error) {
		var req Req
		if err := Decode(r, &req); err != nil {
			return nil, err
		}
		return fn(r.Context(), identity.Must(r.Context()), req)
	}
}
