package media

// Node-to-node relay (docs/adr/0026): one PeerConnection per pair of cluster nodes, on the same UDP port and the
// same WebRTC API as the clients' peers. It carries Lanes audio transceivers, each sendrecv: a node's talker
// burst takes one outgoing lane per other node (a Downstream, so the lane is one continuous RTP stream across
// the bursts it carries in turn), and every incoming lane has a read loop that hands its packets to a Route
// exactly as a client's upstream does. Which burst a lane carries is told out of band (internal/cluster).

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"

	"tenfour/internal/platform/rtcpread"
)

// DefaultLanes is how many bursts a node can relay to another at once (and receive from it).
const DefaultLanes = 32

// Relay is one node-to-node PeerConnection.
type Relay struct {
	// Node is the other node's id.
	Node string

	e       *Engine
	pc      *webrtc.PeerConnection
	out     []*Downstream
	in      []*Lane
	ready   atomic.Bool
	closed  atomic.Bool
	onState func(r *Relay, ready bool)
	mu      sync.Mutex // negotiation
}

// Lane is one incoming lane of a relay: the other node's packets of the burst it carries now.
type Lane struct {
	Index   int
	relay   *Relay
	packets atomic.Uint64

	mu     sync.Mutex
	delays []uint32 // the last laneSamples per-packet forwarding delays, µs (a ring)
	next   int

	// Packets that came while the lane had no route: a burst's first packets can arrive before its
	// announcement (NATS) has been handled here. They are held from the talkspurt's first packet (the marker)
	// and played when the route is set, so a listener on this node misses nothing of the start.
	hmu   sync.Mutex // read loop and SetRoute
	route *Route     // where the packets go; nil: held (below), then dropped
	held  [laneHoldPackets]heldPacket
	first int  // oldest held
	count int  // packets held
	spurt bool // what is held starts with a talkspurt's first packet
}

// heldPacket is one packet a lane holds until its route is known.
type heldPacket struct {
	b  []byte
	at time.Time
}

const (
	laneSamples = 4096
	// laneHoldPackets and laneHoldAge bound what a lane holds for a burst not yet announced: 500 ms of 20 ms frames,
	// played only if the announcement comes within a second of the packet.
	laneHoldPackets = 25
	laneHoldAge     = time.Second
)

// Delays are the lane's recent per-packet forwarding delays (read → last listener written), this node's hop.
func (l *Lane) Delays() []time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]time.Duration, len(l.delays))
	for i, d := range l.delays {
		out[i] = time.Duration(d) * time.Microsecond
	}
	return out
}

func (l *Lane) sample(d time.Duration) {
	l.mu.Lock()
	if len(l.delays) < laneSamples {
		l.delays = append(l.delays, uint32(d/time.Microsecond))
	} else {
		l.delays[l.next] = uint32(d / time.Microsecond)
		l.next = (l.next + 1) % laneSamples
	}
	l.mu.Unlock()
}

// SetRoute says where the lane's packets go from now on; nil drops them. A route set on a lane that had none
// first plays what the lane held of the burst's start (hold).
func (l *Lane) SetRoute(r *Route) {
	l.hmu.Lock()
	defer l.hmu.Unlock()
	was := l.route
	l.route = r
	played := 0
	if r != nil && was == nil && l.spurt {
		cutoff := time.Now().Add(-laneHoldAge)
		var pkt rtp.Packet
		for i := range l.count {
			h := &l.held[(l.first+i)%laneHoldPackets]
			if h.at.After(cutoff) && pkt.Unmarshal(h.b) == nil {
				r.forward(&pkt, h.at)
				played++
			}
		}
	}
	mHeldPlayed.Add(float64(played))
	mDropped.Add(float64(l.count - played))
	l.count, l.spurt = 0, false
}

// hold keeps a packet read while the lane has no route (under hmu). A talkspurt's first packet starts afresh;
// what is held without one is never played (it may be the end of a burst nobody here hears).
func (l *Lane) hold(b []byte, marker bool, at time.Time) {
	if marker {
		l.count, l.spurt = 0, true
	}
	i := (l.first + l.count) % laneHoldPackets
	if l.count == laneHoldPackets {
		l.first = (l.first + 1) % laneHoldPackets
		mDropped.Inc()
	} else {
		l.count++
	}
	h := &l.held[i]
	h.b = append(h.b[:0], b...)
	h.at = at
}

// Packets counts packets received on the lane.
func (l *Lane) Packets() uint64 { return l.packets.Load() }

// Relay is the lane's relay.
func (l *Lane) Relay() *Relay { return l.relay }

// NewRelay makes a relay with lanes outgoing and incoming lanes (0 = DefaultLanes); onState is called (from pion's
// goroutines) when it becomes ready and when it stops being ready (then it is closed).
func (e *Engine) NewRelay(node string, lanes int, onState func(r *Relay, ready bool)) (*Relay, error) {
	if lanes <= 0 {
		lanes = DefaultLanes
	}
	pc, keys, err := e.newPC(nil, false)
	if err != nil {
		return nil, err
	}
	r := &Relay{Node: node, e: e, pc: pc, onState: onState}
	for i := range lanes {
		track, err := webrtc.NewTrackLocalStaticRTP(Opus, "lane"+strconv.Itoa(i), "tenfour-relay")
		if err != nil {
			_ = pc.Close()
			return nil, err
		}
		r.out = append(r.out, newDownstream(track))
		r.in = append(r.in, &Lane{Index: i, relay: r})
	}
	pc.OnTrack(func(tr *webrtc.TrackRemote, rcv *webrtc.RTPReceiver) {
		i, err := strconv.Atoi(strings.TrimPrefix(tr.ID(), "lane"))
		if err != nil || i < 0 || i >= len(r.in) || !strings.HasPrefix(tr.ID(), "lane") {
			return
		}
		go rtcpread.Drain(rcv.Read)
		r.in[i].read(tr)
	})
	pc.OnConnectionStateChange(func(s webrtc.PeerConnectionState) {
		switch s {
		case webrtc.PeerConnectionStateConnected:
			if len(r.out) > 0 {
				e.goDirect(keys, r.out[0].boundSender(), nil, outsOf(r.out)...)
			}
			if !r.ready.Swap(true) && r.onState != nil {
				r.onState(r, true)
			}
		case webrtc.PeerConnectionStateFailed, webrtc.PeerConnectionStateClosed, webrtc.PeerConnectionStateDisconnected:
			// disconnected: 5 s without a packet from the other node (ICE keepalives included) — it is gone or cut
			// off; the link is rebuilt rather than waited for.
			go r.Close()
		}
	})
	mRelays.Inc()
	return r, nil
}

// Lanes is how many lanes go each way.
func (r *Relay) Lanes() int { return len(r.out) }

// Out is outgoing lane i: a burst routed to it reaches the other node.
func (r *Relay) Out(i int) *Downstream { return r.out[i] }

// In is incoming lane i.
func (r *Relay) In(i int) *Lane { return r.in[i] }

// Ready tells whether media flows.
func (r *Relay) Ready() bool { return r.ready.Load() }

// Offer starts the negotiation (the node with the smaller id offers): every lane's track is added, and the offer
// carries every candidate.
func (r *Relay) Offer() (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, d := range r.out {
		tr, err := r.pc.AddTransceiverFromTrack(d.track, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionSendrecv})
		if err != nil {
			return "", fmt.Errorf("media: relay lane: %w", err)
		}
		r.e.bind(d, tr.Sender(), r.pc)
		go rtcpread.Drain(tr.Sender().Read)
	}
	offer, err := r.pc.CreateOffer(nil)
	if err != nil {
		return "", err
	}
	return setLocal(r.pc, offer)
}

// Accept applies the other node's answer.
func (r *Relay) Accept(sdp string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeAnswer, SDP: sdp})
}

// Answer answers the other node's offer: each offered lane takes one of this node's tracks.
func (r *Relay) Answer(sdp string) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeOffer, SDP: sdp}); err != nil {
		return "", fmt.Errorf("media: relay offer: %w", err)
	}
	for _, d := range r.out {
		sender, err := r.pc.AddTrack(d.track)
		if err != nil {
			return "", fmt.Errorf("media: relay lane: %w", err)
		}
		r.e.bind(d, sender, r.pc)
		go rtcpread.Drain(sender.Read)
	}
	answer, err := r.pc.CreateAnswer(nil)
	if err != nil {
		return "", err
	}
	return setLocal(r.pc, answer)
}

// Close ends the relay; its lanes' read loops end with it.
func (r *Relay) Close() {
	if r.closed.Swap(true) {
		return
	}
	for _, l := range r.in {
		l.SetRoute(nil)
	}
	r.e.unbind(outsOf(r.out)...)
	_ = r.pc.Close()
	r.ready.Store(false)
	if r.onState != nil {
		r.onState(r, false)
	}
	mRelays.Dec()
}

// Closed tells whether the relay was closed.
func (r *Relay) Closed() bool { return r.closed.Load() }

// read is an incoming lane's one read loop: each packet goes to the lane's route as a talker's would.
func (l *Lane) read(tr *webrtc.TrackRemote) {
	readLoop(tr, l.relay.e.cfg.MeasureCPU, func(b []byte, pkt *rtp.Packet, now time.Time, _ bool) {
		l.packets.Add(1)
		if pkt.Unmarshal(b) != nil {
			return
		}
		l.hmu.Lock()
		r := l.route
		if r == nil {
			l.hold(b, pkt.Marker, now)
			l.hmu.Unlock()
			return
		}
		r.forward(pkt, now)
		l.hmu.Unlock()
		if len(r.Targets) > 0 {
			l.sample(time.Since(now))
		}
	})
}
