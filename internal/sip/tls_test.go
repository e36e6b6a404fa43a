package sip_test

import (
	"context"
	"crypto/ed25519"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/emiago/sipgo"
	"github.com/emiago/sipgo/sip"

	sipside "tenfour/internal/sip"
	"tenfour/internal/testkit"
)

// selfSigned is a certificate for 127.0.0.1 (as serve --tls-self-signed makes one) and the pool that trusts it.
func selfSigned(t *testing.T) (*tls.Config, *x509.CertPool) {
	t.Helper()
	pub, key, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "tenfour test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}}
	der, err := x509.CreateCertificate(nil, tmpl, tmpl, pub, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}, MinVersion: tls.VersionTLS12}, pool
}

// listenTLS binds the world's SIP over TLS on a free loopback port and points the world's requests at it; the
// phones' client trusts its certificate.
func (w *sipWorld) listenTLS(t *testing.T) *sipgo.Client {
	t.Helper()
	conf, pool := selfSigned(t)
	if err := w.SIP.ListenTLS("127.0.0.1:0", conf); err != nil {
		t.Fatal(err)
	}
	if err := w.SIP.ListenTLS("127.0.0.1:0", conf); err == nil {
		t.Fatal("a second TLS listener was bound")
	}
	ap, err := netip.ParseAddrPort(w.SIP.TLSAddr())
	if err != nil {
		t.Fatal(err)
	}
	w.port = int(ap.Port())
	return phoneClient(t, sipgo.WithUserAgenTLSConfig(&tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}))
}

// A phone registers over TLS (sips, the server's certificate), OPTIONS are answered on it, and its registration
// is what an INVITE over TLS is let through by; a client that does not trust the certificate gets nowhere.
func TestRegisterOverTLS(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := startSIP(t, engine)
		c := w.listenTLS(t)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if res, err := c.Do(ctx, w.request(sip.OPTIONS, phone, "TLS", "")); err != nil || res.StatusCode != sip.StatusOK {
			t.Fatalf("OPTIONS over TLS: %v %v, want 200", res, err)
		}
		if res := w.register(t, c, "TLS", phone, testkit.Password, 300); res.StatusCode != sip.StatusOK {
			t.Fatalf("REGISTER over TLS: %d", res.StatusCode)
		}
		if !w.online(t, phone) {
			t.Fatal("registered over TLS, the phone is offline")
		}
		untrusting := phoneClient(t)
		quick, stop := context.WithTimeout(ctx, 2*time.Second) // a refused handshake: no answer at all
		defer stop()
		if res, err := untrusting.Do(quick, w.request(sip.OPTIONS, phone, "TLS", "")); err == nil {
			t.Fatalf("a client that does not trust the certificate was answered %d", res.StatusCode)
		}
	})
}

// --sip-tls-addr's default is the --sip-addr host on the next port: 5061 beside 5060.
func TestNextPort(t *testing.T) {
	for in, want := range map[string]string{"127.0.0.1:5060": "127.0.0.1:5061", "[::1]:0": "[::1]:0", ":5070": ":5071"} {
		if got, err := sipside.NextPort(in); err != nil || got != want {
			t.Errorf("NextPort(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"127.0.0.1", "h:65535", "h:x"} {
		if got, err := sipside.NextPort(in); err == nil {
			t.Errorf("NextPort(%q) = %q, want an error", in, got)
		}
	}
}
