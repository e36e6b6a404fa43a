package media

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"time"

	"github.com/pion/logging"
	"github.com/pion/turn/v5"
	"github.com/pion/webrtc/v4"
)

// TURNRealm is the realm of the embedded TURN server.
const TURNRealm = "tenfour"

// turnCredentialTTL is how long the credentials handed to a client stay valid (a session lasts at most a day).
const turnCredentialTTL = 24 * time.Hour

// startTURN runs the embedded TURN server: UDP on TURNPort, relays on the advertised address, time-limited
// credentials (TURN REST API style: username "expiry:msId", password HMAC-SHA1 of it with the secret).
func (e *Engine) startTURN() error {
	relayIP := net.ParseIP(e.turnHost())
	if relayIP == nil {
		relayIP = net.IPv4(127, 0, 0, 1)
	}
	conn, err := net.ListenPacket("udp4", "0.0.0.0:"+strconv.Itoa(e.cfg.TURNPort))
	if err != nil {
		return fmt.Errorf("media: TURN port %d: %w", e.cfg.TURNPort, err)
	}
	lf := logging.NewDefaultLoggerFactory()
	lf.DefaultLogLevel = logging.LogLevelError
	srv, err := turn.NewServer(turn.ServerConfig{
		Realm:         TURNRealm,
		AuthHandler:   turn.LongTermTURNRESTAuthHandler(e.cfg.TURNSecret, lf.NewLogger("turn")),
		LoggerFactory: lf,
		PacketConnConfigs: []turn.PacketConnConfig{{
			PacketConn:            conn,
			RelayAddressGenerator: &turn.RelayAddressGeneratorStatic{RelayAddress: relayIP, Address: "0.0.0.0"},
		}},
	})
	if err != nil {
		conn.Close()
		return fmt.Errorf("media: TURN: %w", err)
	}
	e.turn = srv
	return nil
}

// turnHost is the address clients reach TURN on.
func (e *Engine) turnHost() string {
	if e.cfg.TURNHost != "" {
		return e.cfg.TURNHost
	}
	if len(e.cfg.PublicIPs) > 0 {
		return e.cfg.PublicIPs[0]
	}
	return "127.0.0.1"
}

// ICEServers is what a client puts in its RTCPeerConnection configuration: the embedded TURN server with
// credentials for this account, or nothing when TURN is off (host candidates on the server's UDP port suffice
// when the client can reach it directly).
func (e *Engine) ICEServers(account string) []webrtc.ICEServer {
	if e.turn == nil {
		return []webrtc.ICEServer{}
	}
	user, pass, err := turn.GenerateLongTermTURNRESTCredentials(e.cfg.TURNSecret, account, turnCredentialTTL)
	if err != nil {
		return []webrtc.ICEServer{}
	}
	host := net.JoinHostPort(e.turnHost(), strconv.Itoa(e.cfg.TURNPort))
	return []webrtc.ICEServer{{
		URLs:       []string{"turn:" + host + "?transport=udp"},
		Username:   user,
		Credential: pass,
	}}
}

// HostOf is the host part of a URL ("" if it has none), for TURNHost from the server's public URL.
func HostOf(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	return u.Hostname()
}
