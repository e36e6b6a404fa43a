package sim

import (
	"crypto/tls"
	"net/http"
	"time"

	"tenfour/internal/platform/wsclient"
)

// The simulator's socket connections are wsclient connections with a Handle: replies go to callbacks and
// events and server→client requests to the terminal's handler instead of a growing list, so 10,000 of them
// stay cheap (one reader goroutine each, nothing kept).
type (
	wire  = wsclient.Conn
	frame = wsclient.Frame
)

// httpClient is the client used for the socket upgrade and the console sign-in; insecure accepts any
// certificate (a self-signed server on this machine).
func httpClient(insecure bool) *http.Client {
	if !insecure {
		return &http.Client{Timeout: 30 * time.Second}
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: true} //nolint:gosec // opt-in, for self-signed servers
	return &http.Client{Transport: tr, Timeout: 30 * time.Second}
}
