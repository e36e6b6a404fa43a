package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"tenfour/internal/app"
	"tenfour/internal/config"
	sipside "tenfour/internal/sip"
)

func serve(args []string) error {
	cfg, err := config.ParseServe(args)
	if err != nil {
		return err
	}
	setupLogging(cfg)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	store, err := app.Open(ctx, cfg)
	if err != nil {
		return err
	}
	a, err := app.New(cfg, store)
	if err != nil {
		store.Close()
		return err
	}
	defer a.Close()
	if err := a.Prepare(ctx); err != nil {
		return err
	}

	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	ln = a.Listener(ln)
	srv := a.HTTPServer()
	scheme := "http"
	if cfg.TLSCert != "" || cfg.TLSSelfSigned {
		tc, err := tlsConfig(cfg, ln.Addr())
		if err != nil {
			return err
		}
		srv.TLSConfig = tc
		ln = tls.NewListener(ln, tc)
		scheme = "https"
		if err := listenSIPTLS(cfg, a.SIP, tc.Clone()); err != nil {
			return err
		}
	}
	runCtx, cancelRun := context.WithCancel(context.Background())
	defer cancelRun()
	a.Start(runCtx)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	slog.Info("tenfour serving", "url", fmt.Sprintf("%s://%s", scheme, ln.Addr()), "db", string(store.Dialect), "demo", cfg.Demo)

	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	slog.Info("shutting down")
	a.Stop()
	sctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	err = srv.Shutdown(sctx)
	cancelRun()
	a.Hub.Wait()
	a.Wait() // background loops flush (recordings, GPS batches) before the store closes
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// listenSIPTLS answers SIP over TLS with the HTTPS certificate (docs/sip.md) on --sip-tls-addr, by default the
// --sip-addr host on the next port. That default being taken is a warning, not a stop: the operator named no
// address (as the demo's --sip-addr); an address named with --sip-tls-addr that cannot be bound stops the server.
func listenSIPTLS(cfg config.Config, s *sipside.Server, tc *tls.Config) error {
	if s == nil || s.Addr() == "" || cfg.SIP.TLSAddr == "off" { // no SIP, or its demo address was taken
		return nil
	}
	addr := cfg.SIP.TLSAddr
	if addr == "" {
		var err error
		if addr, err = sipside.NextPort(cfg.SIP.Addr); err != nil {
			return fmt.Errorf("--sip-addr %w", err)
		}
	}
	err := s.ListenTLS(addr, tc)
	if err != nil && cfg.SIP.TLSAddr == "" && errors.Is(err, syscall.EADDRINUSE) {
		slog.Warn("sip: the default SIP-over-TLS address is taken: running without it (--sip-tls-addr picks another)", "addr", addr)
		return nil
	}
	return err
}

func setupLogging(cfg config.Config) {
	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(cfg.LogLevel)); err != nil {
		lvl = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: lvl}
	var h slog.Handler = slog.NewTextHandler(os.Stderr, opts)
	if cfg.LogJSON {
		h = slog.NewJSONHandler(os.Stderr, opts)
	}
	slog.SetDefault(slog.New(h))
}

// tlsConfig loads the given certificate, or makes a self-signed one for localhost, the listen address and
// this host's name (browsers allow the microphone only on HTTPS or localhost).
func tlsConfig(cfg config.Config, addr net.Addr) (*tls.Config, error) {
	if cfg.TLSCert != "" {
		cert, err := tls.LoadX509KeyPair(cfg.TLSCert, cfg.TLSKey)
		if err != nil {
			return nil, fmt.Errorf("load TLS key pair: %w", err)
		}
		return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	host, _ := os.Hostname()
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()),
		Subject:      pkix.Name{CommonName: "tenfour self-signed"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().AddDate(1, 0, 0),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames:     []string{"localhost", host},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
	}
	if ta, ok := addr.(*net.TCPAddr); ok && !ta.IP.IsUnspecified() {
		tmpl.IPAddresses = append(tmpl.IPAddresses, ta.IP)
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	cert := tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
	slog.Warn("serving HTTPS with a self-signed certificate; browsers will ask to trust it")
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
}
