// Package config holds the server configuration, read from flags and TENFOUR_* environment variables.
package config

import (
	"flag"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Config is passed explicitly to everything that needs it; there is no package-level instance.
type Config struct {
	Addr      string // HOST:PORT to listen on
	DataDir   string // SQLite database, recordings, uploads
	DB        string // "" = embedded SQLite in DataDir; postgres://… for PostgreSQL
	Demo      bool   // seed the demo customers and run a simulated fleet in-process
	DemoFleet int    // with Demo: how many demo terminals the in-process fleet runs (0 = none)
	// DemoFleetSOS is the mean time between one demo terminal's SOS alarms (0 = never).
	DemoFleetSOS time.Duration
	// DemoFleetQuiet makes the fleet passive: its terminals log in and report where they are once, then do nothing
	// unless driven (the browser suite's fleet; see sim.Options.Passive).
	DemoFleetQuiet bool
	TLSCert        string
	TLSKey         string
	TLSSelfSigned  bool
	// AllowedOrigins are extra browser origins allowed on the socket (the serving host is always allowed).
	AllowedOrigins []string
	PublicURL      string // how clients reach this server, for mediaServer/mediaFileUrl; derived from Addr if empty
	// Tiles is the street map archive (PMTiles, internal/tiles); empty: streets.pmtiles in DataDir when there.
	Tiles string

	SMTP  SMTP
	Voice Voice
	// Camera configures video surveillance (internal/camera).
	Camera Camera
	// FFmpegJobs bound the ffmpeg work clients ask for: snapshots, upload transcodes (ffchild.Limiter, docs/adr/0030).
	FFmpegJobs FFmpegJobs
	// GPSRetention deletes GPS points older than this; 0 keeps them.
	GPSRetention time.Duration
	// GPS is each terminal's GPS budget and how far back a fix may lie (zero values: geo's defaults).
	GPS GPSLimits
	// Safety settings (SOS re-alert, lone-worker alarm thresholds).
	Safety Safety
	// Patrol tunes the patrol order engine (zero values: patrol's defaults).
	Patrol Patrol
	// TrustedProxies are reverse proxies (addresses or CIDR prefixes) whose X-Forwarded-For names the client.
	TrustedProxies []string
	// EventRetention deletes durable socket events (replayed on `sync`) older than this; 0 keeps them.
	EventRetention time.Duration
	// HTTP limits slow request bodies and connections per address (zero values: no cap, default deadlines).
	HTTP HTTPLimits
	// Uploads are the file service's size limits (POST /filews/upload/media).
	Uploads Uploads
	// StorageQuota is the bytes each customer may keep in uploads (file store, media cloud, broadcast library;
	// internal/platform/quota); 0 = unlimited.
	StorageQuota int64
	// SignIn is the per-address sign-in limit (zero: the defaults).
	SignIn SignIn

	// Cluster joins this node to others on the same PostgreSQL over NATS (internal/cluster, docs/adr/0024);
	// NATS empty: the node runs alone.
	Cluster Cluster

	// SIP is the SIP side (internal/sip, docs/sip.md); Addr empty: off.
	SIP SIP

	// MetricsToken opens GET /metrics to `Authorization: Bearer <MetricsToken>`; empty: /metrics is off.
	MetricsToken string

	ShutdownTimeout time.Duration
	LogLevel        string
	LogJSON         bool
}

// HTTPLimits protect the listener from clients that hold connections (docs/security.md "Limits").
type HTTPLimits struct {
	BodyTimeout time.Duration // a request body must arrive within this, plus one second per BodyMinRate bytes
	BodyMinRate int64         // bytes per second a long body (an upload) must keep up
	ConnsPerIP  int           // open TCP connections per peer address; 0 = no cap (trusted proxies are never capped)
}

// GPSLimits bound what one terminal may report (docs/terminal-protocol.md "Positions").
type GPSLimits struct {
	Rate   float64       // positions per second, sustained
	Burst  int           // positions at once (an offline backlog)
	MaxAge time.Duration // a fix time further back is refused
}

// SMTP is the outgoing mail server for verification codes.
type SMTP struct {
	Host     string
	Port     int
	User     string
	Password string
	From     string
	// TLS is "starttls" (default when a user is set), "tls" or "none".
	TLS string
}

// Camera configures cameras: pulled with ffmpeg, recorded, and the demo's simulated cameras.
type Camera struct {
	MaxPerCustomer int            // cameras (connections to cameras) per customer; add answers 107 beyond it
	Retention      time.Duration  // delete camera recordings older than this; 0 keeps them
	FFmpeg         string         // the ffmpeg executable
	DemoRTSPPort   int            // with --demo: the simulated cameras' RTSP port on 127.0.0.1 (0 = no simulated cameras)
	AllowNets      []netip.Prefix // networks cameras may be pulled from (--camera-allow-nets); empty: any (docs/security.md "Camera addresses")
}

// FFmpegJobs: at most Server ffmpeg children for client requests at once, PerCustomer of them for one customer,
// a request queued at most Wait before "101 system busy" (0: one per CPU, half of that, 10 s).
type FFmpegJobs struct {
	Server, PerCustomer int
	Wait                time.Duration
}

// Voice configures the media server (WebRTC SFU), floor control and recordings.
type Voice struct {
	// UDPPort is the one UDP port every WebRTC peer uses (ICE UDP mux); 0 picks a free port.
	UDPPort int
	// PublicIPs are advertised as extra host candidates (NAT 1:1: the server's public address).
	PublicIPs []string
	// Interfaces limits the network interfaces media listens on (names; empty = all, "lo" = loopback only).
	Interfaces []string
	// TURNPort starts an embedded TURN server on this UDP port for clients behind NAT; 0 = off.
	TURNPort int
	// TURNSecret signs the short-lived TURN credentials handed to clients; empty = random per start.
	TURNSecret string
	// MaxTalkTime ends a talk burst that holds the floor longer (spec code 418 maxDurationLimit).
	MaxTalkTime time.Duration
	// RingTimeout ends an individual call that is not answered in time (spec code 408).
	RingTimeout time.Duration
	// GroupHangTime keeps a group call open after its last talk burst.
	GroupHangTime time.Duration
	// RecordingRetention deletes recordings and their rows older than this; 0 keeps them.
	RecordingRetention time.Duration
	// ReleaseTail keeps forwarding a released talker's packets still in flight; 0 = the voice service's default
	// (250 ms). No flag: tests that check every packet across talker switches on a loaded machine lengthen it.
	ReleaseTail time.Duration
}

// Uploads are the largest files accepted per kind, in bytes (0 = the file service's default).
type Uploads struct {
	Image, File, Audio, Video int64
}

// SignIn is the per-address limit of sign-in attempts (docs/adr/0008-sign-in-throttling-and-lockout.md), people's
// (requests to a credential endpoint, patrol and caster logins) and devices' (terminal password logins, speaker
// registrations) each: a burst of BurstPerAddress, then one every IntervalPerAddress. A right password of an
// account the address signed in before (within 24 h) gives its attempt back, so first sign-ins and everything
// that is not a right secret spend it. Terminals behind one NAT address (a carrier's APN) spend it only on their
// first password logins: raise the burst to such a fleet's size.
//
// BurstPerAccount is how many password checks of one account may run at once before one every 6 s (the
// guard against one password guessed from many addresses): raise it where many positions share one account.
type SignIn struct {
	BurstPerAddress    int
	IntervalPerAddress time.Duration
	BurstPerAccount    int
}

// Default per-address sign-in limit, people's and devices' each: ten first console sign-ins at once (each a
// verify+auth pair, a shift change behind one office NAT), then one attempt every 3 s.
const (
	DefaultSignInBurst    = 20
	DefaultSignInInterval = 3 * time.Second
	DefaultAccountBurst   = 5
)

// SQLitePath is where the embedded database lives.
func (c Config) SQLitePath() string { return filepath.Join(c.DataDir, "tenfour.db") }

// UsesPostgres tells whether the configured database is PostgreSQL.
func (c Config) UsesPostgres() bool {
	return strings.HasPrefix(c.DB, "postgres://") || strings.HasPrefix(c.DB, "postgresql://")
}

// Cluster is a node's membership of a cluster (--nats, --node-id, docs/operations.md).
type Cluster struct {
	NATS      string        // nats://host:4222 (comma-separated for several); empty: no cluster
	NodeID    string        // this node's unique name
	NATSCA    string        // CA file that signed the NATS servers' certificates (tls://)
	NATSCert  string        // client certificate file for NATS (mutual TLS)
	NATSKey   string        // its key
	NATSCreds string        // NATS credentials file (JWT + nkey)
	Timeout   time.Duration // a node silent this long is dead and its accounts go offline
}

// SIP configures the SIP side (internal/sip, docs/sip.md).
type SIP struct {
	Addr string // HOST:PORT of the UDP and TCP listeners; empty: no SIP
	// TLSAddr is HOST:PORT of SIP over TLS with the HTTPS certificate; empty: Addr's host on the next port when
	// the server has a certificate (5061 beside 5060), else none; "off": none.
	TLSAddr string
	// Optional: Addr is the demo's default, not the operator's choice: when it is taken (another SIP server, a
	// second demo on the machine) the demo runs without SIP and says so, instead of not starting at all.
	Optional bool
	// MinExpires is the shortest registration accepted (0: internal/sip's default). No flag: tests shorten it.
	MinExpires time.Duration
}

// DemoSIPAddr is where serve --demo answers SIP unless --sip-addr says otherwise (the README's demo contract).
const DemoSIPAddr = "127.0.0.1:5060"

// Safety tunes SOS alarms and the lone-worker engine.
type Safety struct {
	SOSRealert       time.Duration // unacknowledged alarms alert the consoles again this often
	LoneOfflineGrace time.Duration // a lone worker may be disconnected this long before an offline alarm
	LoneBatteryOff   int           // battery % at or below which a lone worker gone offline counts as "battery off"
	LoneWeakSignal   int           // signal level (0–5) at or below which a due check raises a weak-signal alarm
}

// Patrol tunes the patrol order engine (docs/adr/0019).
type Patrol struct {
	LateGrace time.Duration // after its class a point may still be punched (late) this long; then missing points are missed
	Every     time.Duration // how often orders are generated and judged (no flag: tests set it)
}

// ParseServe reads `tenfour serve` flags; every flag has a TENFOUR_<NAME> environment variable
// (dashes become underscores), and a flag given on the command line wins over the environment.
func ParseServe(args []string) (Config, error) {
	var c Config
	var origins, publicIPs, mediaIfaces, trustedProxies string
	var cameraNets string
	var retentionDays, cameraRetentionDays int
	var gpsRetentionDays, eventRetentionDays int
	var upImage, upFile, upAudio, upVideo, storageQuotaMB int64
	var bodyRateKB int64
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.StringVar(&c.Addr, "addr", "127.0.0.1:8080", "HOST:PORT to listen on")
	fs.StringVar(&c.DataDir, "data", "./data", "data directory (SQLite database, media files)")
	fs.StringVar(&c.DB, "db", "", "database URL (postgres://…); empty = embedded SQLite in the data directory")
	fs.BoolVar(&c.Demo, "demo", false, "seed demo customers on an empty database and run a simulated fleet")
	fs.IntVar(&c.DemoFleet, "demo-fleet", 61, "with --demo: simulated demo terminals run in-process (0 = none; at most 61: 10000150-10000160 are left to people)")
	fs.DurationVar(&c.DemoFleetSOS, "demo-fleet-sos", 24*time.Hour, "with --demo: mean time between one demo terminal's SOS alarms (SOS buttons 4× as often; 0 = never)")
	fs.BoolVar(&c.DemoFleetQuiet, "demo-fleet-quiet", false, "with --demo: the fleet's terminals log in and report their position once, then stay still and silent: no talk, SOS, movement, network loss or message answers of their own (they still answer individual calls; the browser suite runs so)")
	fs.StringVar(&c.TLSCert, "tls-cert", "", "TLS certificate file (PEM)")
	fs.StringVar(&c.TLSKey, "tls-key", "", "TLS private key file (PEM)")
	fs.BoolVar(&c.TLSSelfSigned, "tls-self-signed", false, "serve HTTPS with a generated self-signed certificate (LAN use)")
	fs.StringVar(&origins, "allowed-origins", "", "comma-separated extra browser origins allowed on the socket")
	fs.StringVar(&trustedProxies, "trusted-proxies", "", "comma-separated reverse proxies (addresses or CIDR prefixes) whose X-Forwarded-For names the client (throttling, sign-in log)")
	fs.StringVar(&c.PublicURL, "public-url", "", "URL clients use to reach this server (default: derived from --addr)")
	fs.StringVar(&c.Tiles, "tiles", "", "street map archive (PMTiles) the console shows when the online tiles cannot be reached (default: streets.pmtiles in the data directory, when there)")
	fs.StringVar(&c.SMTP.Host, "smtp-host", "", "SMTP server for verification mails")
	fs.IntVar(&c.SMTP.Port, "smtp-port", 587, "SMTP port")
	fs.StringVar(&c.SMTP.User, "smtp-user", "", "SMTP user")
	fs.StringVar(&c.SMTP.Password, "smtp-password", "", "SMTP password")
	fs.StringVar(&c.SMTP.From, "smtp-from", "tenfour@localhost", "From address of verification mails")
	fs.StringVar(&c.SMTP.TLS, "smtp-tls", "", "starttls, tls or none (default starttls when --smtp-user is set, else none)")
	fs.IntVar(&c.Voice.UDPPort, "media-udp-port", 17443, "UDP port shared by every WebRTC peer (0 = any free port)")
	fs.StringVar(&publicIPs, "media-public-ip", "", "comma-separated public IPs to advertise for media (NAT 1:1)")
	fs.StringVar(&mediaIfaces, "media-interfaces", "", "comma-separated network interfaces for media (empty = all; lo = loopback only)")
	fs.IntVar(&c.Voice.TURNPort, "turn-port", 0, "UDP port of the embedded TURN server (0 = off)")
	fs.StringVar(&c.Voice.TURNSecret, "turn-secret", "", "secret for TURN credentials (empty = random per start)")
	fs.DurationVar(&c.Voice.MaxTalkTime, "max-talk-time", 60*time.Second, "longest a talker may hold the floor")
	fs.DurationVar(&c.Voice.RingTimeout, "ring-timeout", 30*time.Second, "how long an individual call rings before it times out")
	fs.DurationVar(&c.Voice.GroupHangTime, "group-hang-time", 8*time.Second, "how long a group call stays open after its last talk burst")
	fs.IntVar(&retentionDays, "recording-retention-days", 90, "delete voice recordings older than this many days (0 = keep)")
	fs.IntVar(&c.Camera.MaxPerCustomer, "camera-max", 16, "cameras one customer may register: the connections the server holds to cameras at most (camera add answers 107 beyond it)")
	fs.IntVar(&cameraRetentionDays, "camera-retention-days", 30, "delete camera recordings and recorded video calls and monitorings older than this many days (0 = keep)")
	fs.StringVar(&c.Camera.FFmpeg, "ffmpeg", "ffmpeg", "the ffmpeg executable that pulls, records and snapshots cameras")
	fs.IntVar(&c.Camera.DemoRTSPPort, "demo-rtsp-port", 18554, "with --demo: RTSP port (127.0.0.1) of the simulated cameras, 4 per demo customer (0 = none)")
	fs.StringVar(&cameraNets, "camera-allow-nets", "", "comma-separated networks (CIDR) cameras may be pulled from, checked at add/update and where the name resolves at every pull; empty = any address, internal and link-local included (docs/security.md \"Camera addresses\")")
	fs.IntVar(&c.FFmpegJobs.Server, "ffmpeg-jobs", 0, "ffmpeg children for client requests (snapshots, audio uploads) at once on this server (0 = one per CPU, at least 2); beyond it requests queue")
	fs.IntVar(&c.FFmpegJobs.PerCustomer, "ffmpeg-jobs-per-customer", 0, "of those, at most this many for one customer (0 = half of --ffmpeg-jobs, at least 1)")
	fs.DurationVar(&c.FFmpegJobs.Wait, "ffmpeg-queue-wait", 10*time.Second, "a request waits this long for an ffmpeg slot, then is answered 101 system busy")
	fs.IntVar(&gpsRetentionDays, "gps-retention-days", 90, "delete GPS points older than this many days (0 = keep)")
	fs.Float64Var(&c.GPS.Rate, "gps-rate", 10, "positions per second one terminal may report, sustained (beyond it: code 429)")
	fs.IntVar(&c.GPS.Burst, "gps-burst", 5000, "positions one terminal may report at once, e.g. a backlog after a coverage gap (at least 500, one full batch)")
	fs.DurationVar(&c.GPS.MaxAge, "gps-max-age", 72*time.Hour, "a reported fix time further back than this is refused")
	fs.DurationVar(&c.Safety.SOSRealert, "sos-realert", 10*time.Second, "alert the consoles again this often about an SOS nobody acknowledged")
	fs.DurationVar(&c.Safety.LoneOfflineGrace, "lonework-offline-grace", 30*time.Second, "a lone worker may be disconnected this long before an offline alarm")
	fs.IntVar(&c.Safety.LoneBatteryOff, "lonework-battery-off", 5, "battery % at or below which a lone worker who went offline counts as \"battery off\"")
	fs.IntVar(&c.Safety.LoneWeakSignal, "lonework-weak-signal", 1, "signal level (1-5) at or below which a due lone-work check raises a weak-signal alarm")
	fs.DurationVar(&c.Patrol.LateGrace, "patrol-late-grace", 30*time.Minute, "after its class ends a patrol point may still be punched (counted late) this long; then unpunched points are missed and the order is judged")
	fs.IntVar(&eventRetentionDays, "event-retention-days", 30, "delete durable socket events (replayed to reconnecting clients) older than this many days (0 = keep)")
	fs.Int64Var(&upImage, "upload-max-image-mb", 10, "largest image upload (photos, tone icons, attachments), MB")
	fs.Int64Var(&upFile, "upload-max-file-mb", 50, "largest document upload (attachments), MB")
	fs.Int64Var(&upAudio, "upload-max-audio-mb", 20, "largest audio upload (voice notes, tones), MB")
	fs.Int64Var(&upVideo, "upload-max-video-mb", 200, "largest video upload (media cloud), MB")
	fs.Int64Var(&storageQuotaMB, "storage-quota-mb", 10240, "MB of uploads each customer may keep (files, media cloud, broadcast library); a full customer's uploads get code 79 (0 = unlimited)")
	fs.StringVar(&c.Cluster.NATS, "nats", "", "NATS server URL(s) (nats://host:4222 or tls://…, comma-separated) joining this node to a cluster on the same --db PostgreSQL; empty = this node runs alone")
	fs.StringVar(&c.Cluster.NodeID, "node-id", "", "with --nats: this node's unique name in the cluster (letters, digits, - and _)")
	fs.StringVar(&c.Cluster.NATSCA, "nats-ca", "", "with --nats: CA certificate file (PEM) the NATS servers' certificates are checked against")
	fs.StringVar(&c.Cluster.NATSCert, "nats-cert", "", "with --nats: client certificate file (PEM) for NATS servers that require one")
	fs.StringVar(&c.Cluster.NATSKey, "nats-key", "", "with --nats: the client certificate's key file (PEM)")
	fs.StringVar(&c.Cluster.NATSCreds, "nats-creds", "", "with --nats: NATS credentials file (JWT and nkey)")
	fs.DurationVar(&c.Cluster.Timeout, "node-timeout", 5*time.Second, "with --nats: a node not heard from this long is dead: the others take its terminals offline and its floors over")
	fs.StringVar(&c.SIP.TLSAddr, "sip-tls-addr", "", "HOST:PORT where SIP phones connect over TLS (sips) with the --tls-cert or --tls-self-signed certificate (default with a certificate: the --sip-addr host on the next port, 5061 beside 5060; off = none)")
	fs.StringVar(&c.SIP.Addr, "sip-addr", "", "HOST:PORT where SIP phones and gateways register and call, UDP and TCP (empty = no SIP; with --demo: "+DemoSIPAddr+"; off = no SIP with --demo)")
	fs.StringVar(&c.MetricsToken, "metrics-token", "", "bearer token that GET /metrics requires (Authorization: Bearer …); empty = /metrics is off")
	fs.DurationVar(&c.HTTP.BodyTimeout, "body-timeout", 30*time.Second, "a request body must arrive within this (plus one second per --body-min-rate-kb KB for large ones, e.g. uploads); slower clients are cut off")
	fs.Int64Var(&bodyRateKB, "body-min-rate-kb", 4, "KB per second a long request body (an upload) must keep up beyond --body-timeout")
	fs.IntVar(&c.HTTP.ConnsPerIP, "conns-per-ip", 256, "open connections one peer address may hold (0 = no cap); trusted proxies are not capped. Raise it when many terminals share one NAT address, or for a simulated fleet on one machine")
	fs.IntVar(&c.SignIn.BurstPerAddress, "signin-burst-per-address", DefaultSignInBurst, "sign-in attempts one address may make at once before the interval applies, people's (credential requests) and devices' (terminal password logins, speaker registrations) each; a right password of an account the address signed in before gives its attempt back; raise it to a fleet's size for its first logins behind one NAT address")
	fs.DurationVar(&c.SignIn.IntervalPerAddress, "signin-interval-per-address", DefaultSignInInterval, "after the burst, one sign-in attempt per address (people's and devices' each) this often")
	fs.IntVar(&c.SignIn.BurstPerAccount, "signin-burst-per-account", DefaultAccountBurst, "password checks of one account at once (from any addresses) before one every 6 s; raise it where many positions share one account")
	fs.DurationVar(&c.ShutdownTimeout, "shutdown-timeout", 10*time.Second, "graceful shutdown limit")
	fs.StringVar(&c.LogLevel, "log-level", "info", "debug, info, warn or error")
	fs.BoolVar(&c.LogJSON, "log-json", false, "log as JSON lines")
	if err := applyEnv(fs); err != nil {
		return c, err
	}
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	c.AllowedOrigins = splitList(origins)
	c.TrustedProxies = splitList(trustedProxies)
	c.Voice.PublicIPs = splitList(publicIPs)
	c.Voice.Interfaces = splitList(mediaIfaces)
	if retentionDays < 0 || c.Voice.MaxTalkTime <= 0 {
		return c, fmt.Errorf("--recording-retention-days must be ≥ 0 and --max-talk-time > 0")
	}
	c.Voice.RecordingRetention = time.Duration(retentionDays) * 24 * time.Hour
	if cameraRetentionDays < 0 || c.Camera.MaxPerCustomer < 1 || c.Camera.DemoRTSPPort < 0 || c.Camera.DemoRTSPPort > 65535 {
		return c, fmt.Errorf("--camera-retention-days must be ≥ 0, --camera-max ≥ 1 and --demo-rtsp-port 0-65535")
	}
	c.Camera.Retention = time.Duration(cameraRetentionDays) * 24 * time.Hour
	for _, v := range splitList(cameraNets) {
		p, err := netip.ParsePrefix(v)
		if err != nil {
			return c, fmt.Errorf("--camera-allow-nets: %q is not a CIDR prefix (10.0.0.0/8, fd00::/8)", v)
		}
		c.Camera.AllowNets = append(c.Camera.AllowNets, p.Masked())
	}
	if c.FFmpegJobs.Server < 0 || c.FFmpegJobs.PerCustomer < 0 || c.FFmpegJobs.Wait <= 0 {
		return c, fmt.Errorf("--ffmpeg-jobs and --ffmpeg-jobs-per-customer must be ≥ 0 and --ffmpeg-queue-wait > 0")
	}
	if gpsRetentionDays < 0 {
		return c, fmt.Errorf("--gps-retention-days must be ≥ 0")
	}
	c.GPSRetention = time.Duration(gpsRetentionDays) * 24 * time.Hour
	if c.GPS.Rate <= 0 || c.GPS.Burst < 500 || c.GPS.MaxAge < time.Minute {
		return c, fmt.Errorf("--gps-rate must be > 0, --gps-burst ≥ 500 and --gps-max-age ≥ 1m")
	}
	if sf := c.Safety; sf.SOSRealert < time.Second || sf.LoneOfflineGrace < time.Second || sf.LoneBatteryOff < 1 ||
		sf.LoneBatteryOff > 100 || sf.LoneWeakSignal < 1 || sf.LoneWeakSignal > 5 {
		return c, fmt.Errorf("--sos-realert and --lonework-offline-grace must be ≥ 1s, --lonework-battery-off 1-100, --lonework-weak-signal 1-5")
	}
	if c.Patrol.LateGrace < time.Minute || c.Patrol.LateGrace > 24*time.Hour {
		return c, fmt.Errorf("--patrol-late-grace must be 1m to 24h")
	}
	if eventRetentionDays < 0 {
		return c, fmt.Errorf("--event-retention-days must be ≥ 0")
	}
	c.EventRetention = time.Duration(eventRetentionDays) * 24 * time.Hour
	if upImage < 1 || upFile < 1 || upAudio < 1 || upVideo < 1 || max(upImage, upFile, upAudio, upVideo) > 1<<20 {
		return c, fmt.Errorf("--upload-max-*-mb must be 1 to 1048576")
	}
	c.Uploads = Uploads{Image: upImage << 20, File: upFile << 20, Audio: upAudio << 20, Video: upVideo << 20}
	if storageQuotaMB < 0 || storageQuotaMB > 1<<30 {
		return c, fmt.Errorf("--storage-quota-mb must be 0 (unlimited) to 1073741824")
	}
	c.StorageQuota = storageQuotaMB << 20
	if c.HTTP.BodyTimeout < time.Second || bodyRateKB < 1 || c.HTTP.ConnsPerIP < 0 {
		return c, fmt.Errorf("--body-timeout must be ≥ 1s, --body-min-rate-kb ≥ 1 and --conns-per-ip ≥ 0")
	}
	c.HTTP.BodyMinRate = bodyRateKB << 10
	if c.SignIn.BurstPerAddress < 1 || c.SignIn.IntervalPerAddress <= 0 || c.SignIn.BurstPerAccount < 1 {
		return c, fmt.Errorf("--signin-burst-per-address and --signin-burst-per-account must be ≥ 1 and --signin-interval-per-address > 0")
	}
	switch {
	case c.SIP.Addr == "off":
		c.SIP.Addr = ""
	case c.SIP.Addr == "" && c.Demo:
		c.SIP.Addr, c.SIP.Optional = DemoSIPAddr, true
	}
	if (c.TLSCert == "") != (c.TLSKey == "") {
		return c, fmt.Errorf("--tls-cert and --tls-key go together")
	}
	if c.SIP.TLSAddr != "" && c.SIP.TLSAddr != "off" && (c.SIP.Addr == "" || c.TLSCert == "" && !c.TLSSelfSigned) {
		return c, fmt.Errorf("--sip-tls-addr needs --sip-addr and a certificate (--tls-cert or --tls-self-signed)")
	}
	if c.DB != "" && !c.UsesPostgres() {
		return c, fmt.Errorf("--db must be a postgres:// URL (leave it empty for embedded SQLite)")
	}
	if err := c.Cluster.check(c.UsesPostgres()); err != nil {
		return c, err
	}
	return c, nil
}

// applyEnv sets flag defaults from TENFOUR_* variables so explicit flags still override them.
func applyEnv(fs *flag.FlagSet) error {
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		name := "TENFOUR_" + strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_"))
		if v, ok := os.LookupEnv(name); ok && err == nil {
			if e := f.Value.Set(v); e != nil {
				err = fmt.Errorf("%s: %w", name, e)
			}
		}
	})
	return err
}

// splitList splits a comma-separated flag value, dropping blanks.
func splitList(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// check validates the cluster flags: a cluster needs the shared PostgreSQL store and a node name.
func (cl Cluster) check(postgres bool) error {
	if cl.NATS == "" {
		if cl.NodeID != "" || cl.NATSCA != "" || cl.NATSCert != "" || cl.NATSKey != "" || cl.NATSCreds != "" {
			return fmt.Errorf("--node-id and --nats-* go with --nats")
		}
		return nil
	}
	if !postgres {
		return fmt.Errorf("--nats needs --db postgres://…: the nodes of a cluster share one PostgreSQL (embedded SQLite cannot be shared)")
	}
	if cl.NodeID == "" {
		return fmt.Errorf("--nats needs --node-id: each node of a cluster has its own name")
	}
	if (cl.NATSCert == "") != (cl.NATSKey == "") {
		return fmt.Errorf("--nats-cert and --nats-key go together")
	}
	if cl.Timeout < 2*time.Second || cl.Timeout > time.Minute {
		return fmt.Errorf("--node-timeout must be 2s to 1m")
	}
	return nil
}
