package bench

// Audio forwarding against LiveKit (issue 21): one Opus publisher at 50 packets/s, N subscribers, the server in its
// own process (CPU from /proc), every client in this process. Both servers get the same client harness: one pion
// PeerConnection per client built by termclient.NewPeerConnection (Opus only, UDP over IPv4, ICE on the loopback
// interface), the same reader (benchSub: every packet's index and arrival time) and the same paced sender (benchSender: each packet
// carries its index after a silent 20 ms Opus frame, its send time kept). Only the signalling differs:
//
//   - tenfour: a terminal's socket (`session.login`, `rtc.offer`/`rtc.candidate`), all N+1 terminals in one group,
//     the publisher holding the floor (`floor.request`) — what a PTT group call is.
//   - LiveKit: its signalling WebSocket `/rtc` (protobuf messages, peers_lkwire.go): join with an HS256 access
//     token, answer the subscriber PeerConnection's offers, publish with `addTrack` and an offer on the publisher
//     PeerConnection, trickle both ways, `pingReq` at the interval the join response asks for. One room, the
//     subscribers auto-subscribed.

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"

	"tenfour/internal/app"
	"tenfour/internal/config"
	"tenfour/internal/media"
	"tenfour/internal/media/rtcapi"
	"tenfour/internal/platform/rtcpread"
	"tenfour/internal/platform/ticker"
	"tenfour/internal/sim"
	"tenfour/internal/termclient"
)

// AudioOptions describe one audio-forwarding run.
type AudioOptions struct {
	Bin         string // the server binary (tenfour or livekit-server)
	Dir         string // work directory (emptied)
	Subscribers int    // N (200)
	Packets     int    // packets in the measured window, at 50 a second (500 = 10 s)
	Log         io.Writer
	// OnPhase, if set, is called with the server's pid as each phase starts: "idle" (every client connected, no
	// audio yet), "window" (the measured window) and "done" (its end) — to profile the server process (perf).
	OnPhase PhaseHook
}

// PhaseHook is called with the server's pid as each phase of a peers run starts (a nil hook does nothing).
type PhaseHook func(phase string, pid int)

func (h PhaseHook) at(phase string, pid int) {
	if h != nil {
		h(phase, pid)
	}
}

// AudioResult is what one server measured.
type AudioResult struct {
	Server          string
	Subscribers     int           // subscribers that received the stream
	SetupTime       time.Duration // every client connected and receiving
	Window          time.Duration
	CPU             float64 // server cores over the window
	IdleCPU         float64 // server cores with every client connected, before any audio (3 s)
	Expected, Lost  int     // packets in the window × subscribers, and those that never arrived
	Delays          []time.Duration
	RSSBase, RSS    int64 // server RSS before the clients and at the end of the window
	PublishedPerSec float64
}

// StreamsPerCore is the forwarded streams one core of the server carries at this load.
func (r AudioResult) StreamsPerCore() float64 {
	if r.CPU <= 0 {
		return 0
	}
	return float64(r.Subscribers) / r.CPU
}

// --- the shared harness -----------------------------------------------------------------------------------------

func opusTrack(id, stream string) (*webrtc.TrackLocalStaticRTP, error) {
	return webrtc.NewTrackLocalStaticRTP(webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeOpus, ClockRate: 48000,
		Channels: 2}, id, stream)
}

// benchSub records, for one subscriber, when each packet index arrived (0: not yet).
type benchSub struct {
	arrived []atomic.Int64
	count   atomic.Int64
}

func newBenchSub(max int) *benchSub { return &benchSub{arrived: make([]atomic.Int64, max)} }

func (s *benchSub) read(t *webrtc.TrackRemote) {
	rtcapi.EachPacket(t, func(p *rtp.Packet) {
		now := time.Now().UnixNano()
		if idx, ok := packetIndex(p.Payload); ok && idx < len(s.arrived) {
			if s.arrived[idx].CompareAndSwap(0, now) {
				s.count.Add(1)
			}
		}
	})
}

// benchPayload is a silent 20 ms Opus frame followed by the packet's index (4 bytes, big-endian).
func benchPayload(idx int) []byte {
	b := append([]byte(nil), termclient.SilentPacket...)
	return binary.BigEndian.AppendUint32(b, uint32(idx))
}

func packetIndex(pl []byte) (int, bool) {
	n := len(termclient.SilentPacket)
	if len(pl) != n+4 || string(pl[:n]) != string(termclient.SilentPacket) {
		return 0, false
	}
	return int(binary.BigEndian.Uint32(pl[n:])), true
}

// benchSender writes the publisher's packets, 20 ms apart, keeping each index's send time.
type benchSender struct {
	track *webrtc.TrackLocalStaticRTP
	sent  []int64
	next  int
	seq   uint16
	ts    uint32
}

func (s *benchSender) send(ctx context.Context, n int) error {
	return paced(ctx, n, 20*time.Millisecond, func() error {
		if s.next >= len(s.sent) {
			return errors.New("bench sender: out of packet indexes")
		}
		s.seq++
		s.sent[s.next] = time.Now().UnixNano()
		err := s.track.WriteRTP(&rtp.Packet{Header: rtp.Header{Version: 2, PayloadType: 111, SequenceNumber: s.seq,
			Timestamp: s.ts, Marker: s.next == 0}, Payload: benchPayload(s.next)})
		s.next++
		s.ts += 960
		return err
	})
}

// audioSession is what a protocol sets up: the sender and the subscribers' records.
type audioSession struct {
	sender *benchSender
	subs   []*benchSub
	close  func()
}

// measureAudio runs the shared measurement on a set-up session: send until every subscriber receives, then 25
// packets more, then the measured window (CPU from /proc), then a tail.
func measureAudio(ctx context.Context, srv *serverProc, s *audioSession, o AudioOptions, res *AudioResult, t0 time.Time) error {
	o.OnPhase.at("idle", srv.pid())
	var err error
	if res.IdleCPU, err = srv.coresOver(ctx, 3*time.Second); err != nil {
		return err
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		if err := s.sender.send(ctx, 10); err != nil {
			return err
		}
		all := true
		for _, sub := range s.subs {
			if sub.count.Load() == 0 {
				all = false
				break
			}
		}
		if all {
			break
		}
		if time.Now().After(deadline) {
			got := 0
			for _, sub := range s.subs {
				if sub.count.Load() > 0 {
					got++
				}
			}
			return fmt.Errorf("%s: %d of %d subscribers receive after 20 s", res.Server, got, len(s.subs))
		}
	}
	res.SetupTime = time.Since(t0)
	if err := s.sender.send(ctx, 25); err != nil {
		return err
	}
	first := s.sender.next
	o.OnPhase.at("window", srv.pid())
	cpu0, w0 := srv.cpu(), time.Now()
	if err := s.sender.send(ctx, o.Packets); err != nil {
		return err
	}
	res.Window = time.Since(w0)
	res.CPU = float64(srv.cpu()-cpu0) / float64(res.Window)
	res.RSS = srv.rss()
	res.PublishedPerSec = float64(o.Packets) / res.Window.Seconds()
	o.OnPhase.at("done", srv.pid())
	last := s.sender.next
	if err := s.sender.send(ctx, 25); err != nil {
		return err
	}
	_ = sleepCtx(ctx, time.Second)
	res.Subscribers = len(s.subs)
	for _, sub := range s.subs {
		for i := first; i < last; i++ {
			res.Expected++
			at := sub.arrived[i].Load()
			if at == 0 {
				res.Lost++
				continue
			}
			res.Delays = append(res.Delays, time.Duration(at-s.sender.sent[i]))
		}
	}
	return srv.alive()
}

func packetBudget(o AudioOptions) int { return 1000 + 50 + o.Packets + 1000 }

// startTenfour empties dir, has provision fill its data directory (dir/data), and starts bin serving it on free
// ports, its media on the loopback interface only, open to clients sign-ins from this one address; the server then
// settles for a second (its resident set after that is a run's base). extra are more flags of serve.
func startTenfour(ctx context.Context, log io.Writer, bin, dir string, clients int, provision func(data string) error, extra ...string) (*serverProc, string, error) {
	data := filepath.Join(dir, "data")
	if err := os.RemoveAll(dir); err != nil {
		return nil, "", err
	}
	if err := os.MkdirAll(data, 0o755); err != nil {
		return nil, "", err
	}
	if err := provision(data); err != nil {
		return nil, "", fmt.Errorf("provision: %w", err)
	}
	port, err := freePort()
	if err != nil {
		return nil, "", err
	}
	udp, err := media.FreeUDPPort()
	if err != nil {
		return nil, "", err
	}
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	srv, err := startReady(ctx, log, "tenfour", bin, base+"/ds/ws", append([]string{"serve", "--data", data,
		"--addr", "127.0.0.1:" + strconv.Itoa(port), "--media-udp-port", strconv.Itoa(udp), "--media-interfaces", "lo",
		"--log-level", "warn", "--conns-per-ip", "0", "--signin-burst-per-address", strconv.Itoa(clients + 100),
		"--signin-interval-per-address", "1ms"}, extra...)...)
	if err != nil {
		return nil, "", err
	}
	_ = sleepCtx(ctx, time.Second)
	return srv, base, nil
}

// --- tenfour ----------------------------------------------------------------------------------------------------

const audioFirst = 50000001

// RunAudioTenfour measures tenfour: N+1 terminals (phone apps) in one group, the first one talking.
func RunAudioTenfour(ctx context.Context, o AudioOptions) (AudioResult, error) {
	res := AudioResult{Server: "tenfour"}
	srv, base, err := startTenfour(ctx, o.Log, o.Bin, o.Dir, o.Subscribers+1, func(data string) error {
		return provisionGroup(ctx, data, audioFirst, o.Subscribers+1)
	})
	if err != nil {
		return res, err
	}
	defer stop(srv.proc)
	res.RSSBase = srv.rss()
	t0, budget := time.Now(), packetBudget(o)
	var clients []*termclient.Client
	var pcs []*webrtc.PeerConnection
	sess := &audioSession{close: func() {
		for _, pc := range pcs {
			_ = pc.Close()
		}
		for _, c := range clients {
			_ = c.Close()
		}
	}}
	defer func() { sess.close() }()
	join := func(i int) (*termclient.Client, *webrtc.PeerConnection, *webrtc.TrackLocalStaticRTP, error) {
		c, err := termclient.Dial(ctx, termclient.Options{URL: base, UID: strconv.Itoa(audioFirst + i), Password: fanPassword})
		if err != nil {
			return nil, nil, nil, err
		}
		clients = append(clients, c)
		pc, track, err := tenfourMedia(ctx, c)
		if pc != nil {
			pcs = append(pcs, pc)
		}
		return c, pc, track, err
	}
	talker, _, track, err := join(0)
	if err != nil {
		return res, fmt.Errorf("talker: %w", err)
	}
	for i := 1; i <= o.Subscribers; i++ {
		sub := newBenchSub(budget)
		_, pc, _, err := join(i)
		if err != nil {
			return res, fmt.Errorf("subscriber %d: %w", i, err)
		}
		pc.OnTrack(func(t *webrtc.TrackRemote, _ *webrtc.RTPReceiver) { sub.read(t) })
		sess.subs = append(sess.subs, sub)
	}
	r, err := talker.RequestFloor(ctx, "", "", false)
	if err != nil || r.Status != "granted" {
		return res, fmt.Errorf("floor.request: %+v %v", r, err)
	}
	defer func() { _ = talker.ReleaseFloor(context.Background(), r.CallID) }()
	sess.sender = &benchSender{track: track, sent: make([]int64, budget)}
	return res, measureAudio(ctx, srv, sess, o, &res, t0)
}

// tenfourMedia negotiates a terminal's PeerConnection over its socket as termclient.Connect does (rtc.config,
// rtc.offer, trickled rtc.candidate, `rtc.state` connected), with the harness's PeerConnection. OnTrack is set by
// the caller (before any packet can arrive: the server forwards only once the floor is taken).
func tenfourMedia(ctx context.Context, c *termclient.Client) (*webrtc.PeerConnection, *webrtc.TrackLocalStaticRTP, error) {
	if err := c.Call(ctx, "rtc.config", nil, nil); err != nil {
		return nil, nil, err
	}
	pc, err := termclient.NewPeerConnection(true, webrtc.Configuration{})
	if err != nil {
		return nil, nil, err
	}
	track, err := opusTrack("mic", "termclient")
	if err != nil {
		return pc, nil, err
	}
	tr, err := pc.AddTransceiverFromTrack(track, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionSendrecv})
	if err != nil {
		return pc, nil, err
	}
	go rtcpread.Drain(tr.Sender().Read)
	connected := make(chan struct{})
	var once sync.Once
	pc.OnConnectionStateChange(func(s webrtc.PeerConnectionState) {
		if s == webrtc.PeerConnectionStateConnected {
			once.Do(func() { close(connected) })
		}
	})
	offer, err := pc.CreateOffer(nil)
	if err != nil {
		return pc, nil, err
	}
	gathered := webrtc.GatheringCompletePromise(pc)
	if err := pc.SetLocalDescription(offer); err != nil {
		return pc, nil, err
	}
	select { // loopback only: one host candidate, gathered at once; it goes in the offer
	case <-gathered:
	case <-ctx.Done():
		return pc, nil, ctx.Err()
	}
	var answer struct {
		SDP string `json:"sdp"`
	}
	if err := c.Call(ctx, "rtc.offer", map[string]string{"type": "offer", "sdp": pc.LocalDescription().SDP}, &answer); err != nil {
		return pc, nil, err
	}
	if err := pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeAnswer, SDP: answer.SDP}); err != nil {
		return pc, nil, err
	}
	wctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	select {
	case <-connected:
	case <-wctx.Done():
		return pc, nil, fmt.Errorf("peer connection: %w", wctx.Err())
	}
	_, err = c.WaitEvent(wctx, "rtc.state", func(e termclient.Event) bool { return strings.Contains(string(e.Data), `"connected"`) })
	return pc, track, err
}

// provisionGroup creates n phone-app terminals in one group (so the first one's talk reaches all the others), with
// cheap password hashes as the scale run's provision does.
func provisionGroup(ctx context.Context, dataDir string, first, n int) error {
	d, err := app.Open(ctx, config.Config{DataDir: dataDir})
	if err != nil {
		return err
	}
	defer d.Close()
	_, err = sim.Provision(ctx, d, sim.ProvisionOptions{Customer: "Bench Peers", First: first, Count: n,
		Password: fanPassword, GroupSize: n, PhoneApps: n, PasswordHash: cheapHash(fanPassword)})
	return err
}

// --- LiveKit ----------------------------------------------------------------------------------------------------

const (
	livekitKey    = "benchkey" // LiveKit wants a secret of 32 characters or more outside its --dev mode
	livekitSecret = "bench-secret-of-at-least-32-characters"
	livekitRoom   = "bench"
)

// LiveKitConfig is the configuration the bench runs LiveKit with: loopback, no TLS, one UDP port for every
// PeerConnection, ICE candidates on lo only, no external IP discovery, log level warn, one API key; everything
// else at its defaults (docs/performance.md shows it).
func LiveKitConfig(port, udpPort, tcpPort int) string {
	return fmt.Sprintf(`port: %d
bind_addresses: ["127.0.0.1"]
rtc:
  udp_port: %d
  tcp_port: %d
  use_external_ip: false
  node_ip: 127.0.0.1
  enable_loopback_candidate: true
  interfaces:
    includes: ["lo"]
keys:
  %s: %s
logging:
  level: warn
`, port, udpPort, tcpPort, livekitKey, livekitSecret)
}

// liveKit is a LiveKit server started for a run: its process and base URL.
type liveKit struct {
	srv  *serverProc
	base string
}

// startLiveKit empties dir, writes LiveKitConfig there with free ports and starts bin on it; the server then
// settles for a second.
func startLiveKit(ctx context.Context, dir, bin string, log io.Writer) (*liveKit, error) {
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	ports := make([]int, 3) // HTTP, UDP (media), TCP (media fallback)
	for i := range ports {
		p, err := freePort()
		if i == 1 {
			p, err = media.FreeUDPPort()
		}
		if err != nil {
			return nil, err
		}
		ports[i] = p
	}
	cfg := filepath.Join(dir, "livekit.yaml")
	if err := os.WriteFile(cfg, []byte(LiveKitConfig(ports[0], ports[1], ports[2])), 0o600); err != nil {
		return nil, err
	}
	base := "http://127.0.0.1:" + strconv.Itoa(ports[0])
	srv, err := startReady(ctx, log, "livekit", bin, base+"/", "--config", cfg)
	if err != nil {
		return nil, err
	}
	_ = sleepCtx(ctx, time.Second)
	return &liveKit{srv: srv, base: base}, nil
}

// RunAudioLiveKit measures LiveKit: one room, one publisher, N auto-subscribed subscribers.
func RunAudioLiveKit(ctx context.Context, o AudioOptions) (AudioResult, error) {
	res := AudioResult{Server: "LiveKit " + LiveKitVersion}
	lk, err := startLiveKit(ctx, o.Dir, o.Bin, o.Log)
	if err != nil {
		return res, err
	}
	srv := lk.srv
	defer stop(srv.proc)
	res.RSSBase = srv.rss()
	t0, budget := time.Now(), packetBudget(o)
	var clients []*lkClient
	sess := &audioSession{}
	defer func() {
		for _, c := range clients {
			c.close()
		}
	}()
	for i := 1; i <= o.Subscribers; i++ {
		sub := newBenchSub(budget)
		c, err := lkJoin(ctx, lk.base, "sub-"+strconv.Itoa(i), "", sub.read)
		if err != nil {
			return res, fmt.Errorf("subscriber %d: %w", i, err)
		}
		clients = append(clients, c)
		sess.subs = append(sess.subs, sub)
	}
	pub, err := lkJoin(ctx, lk.base, "publisher", "", nil)
	if err != nil {
		return res, fmt.Errorf("publisher: %w", err)
	}
	clients = append(clients, pub)
	track, err := opusTrack("bench-mic", "bench")
	if err != nil {
		return res, err
	}
	if err := pub.publish(ctx, lkAddAudioTrack("bench-mic", "mic"), track); err != nil {
		return res, fmt.Errorf("publish: %w", err)
	}
	sess.sender = &benchSender{track: track, sent: make([]int64, budget)}
	return res, measureAudio(ctx, srv, sess, o, &res, t0)
}

// lkClient is one LiveKit participant: its signalling socket, its subscriber PeerConnection (the server offers)
// and, for the publisher, its publisher PeerConnection (the client offers).
type lkClient struct {
	ws     *websocket.Conn
	cancel context.CancelFunc
	codec  string // "" (audio) or the video codec of its PeerConnections
	sub    *webrtc.PeerConnection
	pub    *webrtc.PeerConnection
	wmu    sync.Mutex
	mu     sync.Mutex
	subICE early // guarded by mu
	pubICE early

	joined    chan struct{}
	published chan struct{}
	pubAnswer chan webrtc.SessionDescription
	failed    chan error
	pingEvery time.Duration
}

func lkToken(identity string, publish bool) (string, error) {
	now := time.Now()
	return hs256(livekitSecret, map[string]any{"iss": livekitKey, "sub": identity, "name": identity,
		"nbf": now.Add(-time.Minute).Unix(), "exp": now.Add(time.Hour).Unix(),
		"video": map[string]any{"room": livekitRoom, "roomJoin": true, "canPublish": publish, "canSubscribe": true}})
}

// lkJoin joins the room: a subscriber (onTrack set: it is given each track it is sent) or the publisher (nil),
// its PeerConnections of codec ("" for audio, or a video codec).
func lkJoin(ctx context.Context, base, identity, codec string, onTrack func(*webrtc.TrackRemote)) (*lkClient, error) {
	publisher := onTrack == nil
	tok, err := lkToken(identity, publisher)
	if err != nil {
		return nil, err
	}
	auto := "1"
	if publisher {
		auto = "0"
	}
	q := url.Values{"access_token": {tok}, "auto_subscribe": {auto}, "protocol": {"16"}, "sdk": {"go"}, "version": {"2.19.0"}}
	dctx, dcancel := context.WithTimeout(ctx, 15*time.Second)
	defer dcancel()
	ws, _, err := websocket.Dial(dctx, "ws"+strings.TrimPrefix(base, "http")+"/rtc?"+q.Encode(), nil)
	if err != nil {
		return nil, err
	}
	ws.SetReadLimit(4 << 20)
	sub, err := lkPeerConnection(codec)
	if err != nil {
		_ = ws.CloseNow()
		return nil, err
	}
	cctx, cancel := context.WithCancel(context.Background())
	c := &lkClient{ws: ws, cancel: cancel, codec: codec, sub: sub, joined: make(chan struct{}), published: make(chan struct{}),
		pubAnswer: make(chan webrtc.SessionDescription, 1), failed: make(chan error, 1)}
	if onTrack != nil {
		sub.OnTrack(func(t *webrtc.TrackRemote, _ *webrtc.RTPReceiver) { onTrack(t) })
	}
	sub.OnICECandidate(func(ci *webrtc.ICECandidate) { c.trickle(ci, lkTargetSubscriber) })
	go c.readLoop(cctx)
	select {
	case <-c.joined:
	case err := <-c.failed:
		c.close()
		return nil, err
	case <-dctx.Done():
		c.close()
		return nil, fmt.Errorf("no join response: %w", dctx.Err())
	}
	go ticker.Every(cctx, c.pingEvery, func() { _ = c.send(lkPing(time.Now().UnixMilli())) })
	// The subscriber PeerConnection is the primary one: wait until it is connected.
	if err := waitPC(dctx, sub); err != nil {
		c.close()
		return nil, fmt.Errorf("subscriber peer connection: %w", err)
	}
	return c, nil
}

// lkPeerConnection is a harness PeerConnection: termclient's audio one, or its video one in codec.
func lkPeerConnection(codec string) (*webrtc.PeerConnection, error) {
	if codec == "" {
		return termclient.NewPeerConnection(true, webrtc.Configuration{})
	}
	return termclient.NewVideoPeerConnection(true, codec, webrtc.Configuration{})
}

func waitPC(ctx context.Context, pc *webrtc.PeerConnection) error {
	for {
		switch pc.ConnectionState() {
		case webrtc.PeerConnectionStateConnected:
			return nil
		case webrtc.PeerConnectionStateFailed, webrtc.PeerConnectionStateClosed:
			return errors.New(pc.ConnectionState().String())
		}
		if err := sleepCtx(ctx, 10*time.Millisecond); err != nil {
			return err
		}
	}
}

// send writes a SignalRequest (protobuf: peers_lkwire.go).
func (c *lkClient) send(b []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return c.ws.Write(ctx, websocket.MessageBinary, b)
}

func (c *lkClient) trickle(ci *webrtc.ICECandidate, target uint64) {
	if ci == nil {
		return
	}
	init, err := json.Marshal(ci.ToJSON())
	if err != nil {
		return
	}
	_ = c.send(lkRequest(lkReqTrickle, lkTrickle{CandidateInit: string(init), Target: target}.encode()))
}

func (c *lkClient) fail(err error) {
	select {
	case c.failed <- err:
	default:
	}
}

func (c *lkClient) readLoop(ctx context.Context) {
	var joinOnce, pubOnce sync.Once
	for {
		_, msg, err := c.ws.Read(ctx)
		if err != nil {
			c.fail(err)
			return
		}
		m, err := decodeLK(msg)
		if err != nil {
			c.fail(fmt.Errorf("signal response: %w", err))
			return
		}
		switch {
		case m.Join:
			c.pingEvery = time.Duration(max(1, m.PingInterval)) * time.Second
			joinOnce.Do(func() { close(c.joined) })
		case m.Offer != nil:
			if err := c.answerOffer(*m.Offer); err != nil {
				c.fail(fmt.Errorf("answer: %w", err))
			}
		case m.Answer != nil:
			select {
			case c.pubAnswer <- webrtc.SessionDescription{Type: webrtc.SDPTypeAnswer, SDP: m.Answer.SDP}:
			default:
			}
		case m.Trickle != nil:
			c.addCandidate(*m.Trickle)
		case m.TrackPublished:
			pubOnce.Do(func() { close(c.published) })
		case m.Leave:
			c.fail(errors.New("the server asked the client to leave"))
		}
	}
}

// early holds the ICE candidates LiveKit trickles before their PeerConnection has its remote description, to be
// added once it has (lkClient.remote).
type early struct {
	set  bool // the remote description is set: candidates go straight to the PeerConnection
	held []webrtc.ICECandidateInit
}

// remote sets pc's remote description, then adds the candidates e held back for it.
func (c *lkClient) remote(pc *webrtc.PeerConnection, e *early, d webrtc.SessionDescription) error {
	if err := pc.SetRemoteDescription(d); err != nil {
		return err
	}
	c.mu.Lock()
	e.set = true
	held := e.held
	e.held = nil
	c.mu.Unlock()
	for _, ci := range held {
		_ = pc.AddICECandidate(ci)
	}
	return nil
}

func (c *lkClient) answerOffer(o lkDesc) error {
	if err := c.remote(c.sub, &c.subICE, webrtc.SessionDescription{Type: webrtc.SDPTypeOffer, SDP: o.SDP}); err != nil {
		return err
	}
	ans, err := c.sub.CreateAnswer(nil)
	if err != nil {
		return err
	}
	if err := c.sub.SetLocalDescription(ans); err != nil {
		return err
	}
	return c.send(lkRequest(lkReqAnswer, lkDesc{Type: "answer", SDP: c.sub.LocalDescription().SDP, ID: o.ID}.encode()))
}

func (c *lkClient) addCandidate(t lkTrickle) {
	var ci webrtc.ICECandidateInit
	if json.Unmarshal([]byte(t.CandidateInit), &ci) != nil || ci.Candidate == "" {
		return
	}
	c.mu.Lock()
	pc, e := c.sub, &c.subICE
	if t.Target != lkTargetSubscriber {
		pc, e = c.pub, &c.pubICE
	}
	if !e.set {
		e.held = append(e.held, ci)
		c.mu.Unlock()
		return
	}
	c.mu.Unlock()
	if pc != nil {
		_ = pc.AddICECandidate(ci)
	}
}

// publish announces a track (addTrack, an lkAdd…Track request) and negotiates the publisher PeerConnection
// sending track.
func (c *lkClient) publish(ctx context.Context, addTrack []byte, track webrtc.TrackLocal) error {
	if err := c.send(addTrack); err != nil {
		return err
	}
	wctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	select {
	case <-c.published:
	case err := <-c.failed:
		return err
	case <-wctx.Done():
		return fmt.Errorf("no trackPublished: %w", wctx.Err())
	}
	pub, err := lkPeerConnection(c.codec)
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.pub = pub
	c.mu.Unlock()
	pub.OnICECandidate(func(ci *webrtc.ICECandidate) { c.trickle(ci, lkTargetPublisher) })
	tr, err := pub.AddTransceiverFromTrack(track, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionSendonly})
	if err != nil {
		return err
	}
	go rtcpread.Drain(tr.Sender().Read)
	offer, err := pub.CreateOffer(nil)
	if err != nil {
		return err
	}
	if err := pub.SetLocalDescription(offer); err != nil {
		return err
	}
	if err := c.send(lkRequest(lkReqOffer, lkDesc{Type: "offer", SDP: offer.SDP, ID: 1}.encode())); err != nil {
		return err
	}
	var ans webrtc.SessionDescription
	select {
	case ans = <-c.pubAnswer:
	case err := <-c.failed:
		return err
	case <-wctx.Done():
		return fmt.Errorf("no answer: %w", wctx.Err())
	}
	if err := c.remote(pub, &c.pubICE, ans); err != nil {
		return err
	}
	if err := waitPC(wctx, pub); err != nil {
		return fmt.Errorf("publisher peer connection: %w", err)
	}
	return nil
}

func (c *lkClient) close() {
	c.cancel()
	_ = c.send(lkRequest(lkReqLeave, nil))
	_ = c.ws.CloseNow()
	_ = c.sub.Close()
	c.mu.Lock()
	pub := c.pub
	c.mu.Unlock()
	if pub != nil {
		_ = pub.Close()
	}
}
