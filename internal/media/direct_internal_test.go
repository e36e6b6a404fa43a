package media

import (
	"bytes"
	"context"
	"crypto/tls"
	"net"
	"testing"
	"time"

	"github.com/pion/dtls/v3"
	"github.com/pion/dtls/v3/pkg/crypto/selfsign"
)

// The direct path's keys come from what the server's side of the handshake tells the ServerHello hook and the
// key log. They must equal what pion's own DTLS connection exports, for a SHA-256 and a SHA-384 suite, with and
// without the extended master secret, for both SRTP profiles.
func TestCapturedKeysMatchTheDTLSExporter(t *testing.T) {
	cert, err := selfsign.GenerateSelfSigned()
	if err != nil {
		t.Fatal(err)
	}
	for _, suite := range []dtls.CipherSuiteID{dtls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
		dtls.TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384} {
		for _, ems := range []dtls.ExtendedMasterSecretType{dtls.RequireExtendedMasterSecret, dtls.DisableExtendedMasterSecret} {
			for _, profile := range []dtls.SRTPProtectionProfile{dtls.SRTP_AEAD_AES_128_GCM, dtls.SRTP_AES128_CM_HMAC_SHA1_80} {
				keys := &keyCapture{}
				server, _ := dtlsPair(t, cert, suite, ems, profile, keys)
				state, ok := server.ConnectionState()
				if !ok {
					t.Fatal("no state")
				}
				want, err := state.ExportKeyingMaterial("EXTRACTOR-dtls_srtp", nil, 60)
				if err != nil {
					t.Fatal(err)
				}
				got, err := keys.ExportKeyingMaterial("EXTRACTOR-dtls_srtp", nil, 60)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("suite %v ems %v: exported keys differ", suite, ems)
				}
				if keys.profile != profile {
					t.Fatalf("profile %v, want %v", keys.profile, profile)
				}
				if _, err := keys.srtpContext(); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	// Nothing captured (the server was the DTLS client): no keys, the connection stays on pion's writer.
	if _, err := (&keyCapture{}).srtpContext(); err == nil {
		t.Fatal("a context without keys")
	}
}

// dtlsPair runs a DTLS handshake over loopback UDP with the server side captured into keys.
func dtlsPair(t *testing.T, cert tls.Certificate, suite dtls.CipherSuiteID, ems dtls.ExtendedMasterSecretType,
	profile dtls.SRTPProtectionProfile, keys *keyCapture) (*dtls.Conn, *dtls.Conn) {
	t.Helper()
	sc, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	cc, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	shared := []dtls.Option{dtls.WithCertificates(cert), dtls.WithCipherSuites(suite), dtls.WithExtendedMasterSecret(ems),
		dtls.WithSRTPProtectionProfiles(profile), dtls.WithInsecureSkipVerify(true)}
	sopts := []dtls.ServerOption{dtls.WithKeyLogWriter(keys), dtls.WithServerHelloMessageHook(keys.serverHello)}
	for _, o := range shared {
		sopts = append(sopts, o)
	}
	copts := make([]dtls.ClientOption, 0, len(shared))
	for _, o := range shared {
		copts = append(copts, o)
	}
	server, err := dtls.ServerWithOptions(sc, cc.LocalAddr(), sopts...)
	if err != nil {
		t.Fatal(err)
	}
	client, err := dtls.ClientWithOptions(cc, sc.LocalAddr(), copts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { server.Close(); client.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- client.HandshakeContext(ctx) }()
	if err := server.HandshakeContext(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	return server, client
}
