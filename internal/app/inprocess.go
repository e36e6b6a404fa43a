package app

import (
	"context"
	"net/http"
	"time"

	"tenfour/internal/platform/httpx"
)

// inProcessClient is the way in of clients that run inside this node — serve --demo's fleet and speakers: an
// HTTP client whose connections go to a listener no other process can connect to (httpx.InProcessListener),
// served by the node's own HTTP server and handler (without the per-address connection cap: nothing from
// outside comes this way). The node sees those clients as httpx.InProcessAddr, which the sign-in throttle
// exempts from its address budgets, so the demo never spends 127.0.0.1's — the dispatcher's on the same
// machine (docs/adr/0008). The SIP side's calls log their terminal sessions in the same way (internal/sip). The
// listener is served only with a demo fleet or a SIP side.
func (a *App) inProcessClient() *http.Client {
	ln := httpx.NewInProcessListener()
	if a.Cfg.Demo && a.Cfg.DemoFleet > 0 || a.Cfg.SIP.Addr != "" {
		a.Go(func(ctx context.Context) {
			srv := a.HTTPServer()
			stop := context.AfterFunc(ctx, func() { srv.Close() })
			defer stop()
			_ = srv.Serve(ln) // until ctx ends (http.ErrServerClosed)
		})
	}
	return ln.Client(30 * time.Second)
}
