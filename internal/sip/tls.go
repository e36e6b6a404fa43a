package sip

import (
	"crypto/tls"
	"fmt"
	"log/slog"
	"net"
	"strconv"
)

// SIP over TLS (RFC 3261 §26: sips, the phones' signalling encrypted): a listener of its own beside UDP and TCP,
// with the server's certificate (the HTTPS one), served by sipgo's TLS transport. The port is --sip-tls-addr's;
// its default, the --sip-addr host on the next port (5061 beside 5060, the sips default port of RFC 3261 §26.2),
// is config's.

// tlsListener is the bound TLS listener and the end of its serving.
type tlsListener struct {
	ln     net.Listener
	addr   string
	served chan struct{} // closed when ServeTLS has returned
}

// ListenTLS binds SIP over TLS on addr (host:port; port 0 picks one) with conf's certificate and serves it at once:
// unlike UDP and TCP it may be bound after Run has begun (the HTTPS certificate is made after the SIP side). Run's
// end closes it.
func (s *Server) ListenTLS(addr string, conf *tls.Config) error {
	ln, err := tls.Listen("tcp", addr, conf)
	if err != nil {
		return fmt.Errorf("sip: listen tls %s: %w", addr, err)
	}
	t := tlsListener{ln: ln, addr: ln.Addr().String(), served: make(chan struct{})}
	s.mu.Lock()
	if s.tls.ln != nil {
		s.mu.Unlock()
		ln.Close()
		return fmt.Errorf("sip: listen tls %s: already listening on %s", addr, s.tls.addr)
	}
	s.tls = t
	s.mu.Unlock()
	go func() {
		defer close(t.served)
		s.serve("tls", func() error { return s.srv.ServeTLS(ln) })
	}()
	slog.Info("sip: listening", "addr", t.addr, "transports", "tls")
	return nil
}

// TLSAddr is the host:port of the TLS listener ("" when none is bound).
func (s *Server) TLSAddr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tls.addr
}

// closeTLS closes the TLS listener, if any, and waits for its serving to end.
func (s *Server) closeTLS() {
	s.mu.Lock()
	t := s.tls
	s.mu.Unlock()
	if t.ln == nil {
		return
	}
	t.ln.Close()
	<-t.served
}

// addrOf is the host:port this side listens on for a transport ("tls": the TLS listener's; else UDP's and TCP's).
func (s *Server) addrOf(transport string) string {
	if transport == "tls" {
		if a := s.TLSAddr(); a != "" {
			return a
		}
	}
	return s.Addr()
}

// NextPort is host:port's host on the next port (port 0 stays 0): --sip-tls-addr's default beside --sip-addr.
func NextPort(hostport string) (string, error) {
	host, p, err := net.SplitHostPort(hostport)
	if err != nil {
		return "", err
	}
	port, err := strconv.Atoi(p)
	if err != nil || port < 0 || port >= 65535 {
		return "", fmt.Errorf("%q: no next port", hostport)
	}
	if port > 0 {
		port++
	}
	return net.JoinHostPort(host, strconv.Itoa(port)), nil
}
