package media

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

// Latency buckets from 50 µs to 1 s: forwarding lives at the low end, grants and first packets higher.
var latencyBuckets = []float64{.00005, .0001, .00025, .0005, .001, .0025, .005, .01, .02, .05, .1, .25, .5, 1}

var (
	// MPressToGrant is observed by the floor controller: request received → grant decided.
	MPressToGrant = promauto.NewHistogram(prometheus.HistogramOpts{
		Name: "tenfour_voice_press_to_grant_seconds", Buckets: latencyBuckets,
		Help: "Floor request received to floor granted (immediate grants).",
	})
	mGrantToFirst = promauto.NewHistogram(prometheus.HistogramOpts{
		Name: "tenfour_voice_grant_to_first_packet_seconds", Buckets: latencyBuckets,
		Help: "Floor granted to the talker's first packet forwarded.",
	})
	mDelay = promauto.NewHistogram(prometheus.HistogramOpts{
		Name: "tenfour_voice_forward_delay_seconds", Buckets: latencyBuckets,
		Help: "Server-added delay per packet: received from the talker to written to its last listener.",
	})
	mForwarded = promauto.NewCounter(prometheus.CounterOpts{
		Name: "tenfour_voice_packets_forwarded_total", Help: "RTP packets written to listeners.",
	})
	mDropped = promauto.NewCounter(prometheus.CounterOpts{
		Name: "tenfour_voice_packets_unrouted_total", Help: "RTP packets from clients that hold no floor (dropped).",
	})
	mRecordSkipped = promauto.NewCounter(prometheus.CounterOpts{
		Name: "tenfour_voice_record_packets_skipped_total",
		Help: "Malformed Opus packets left out of recordings (the rest of each burst is recorded).",
	})
	mPeers = promauto.NewGauge(prometheus.GaugeOpts{
		Name: "tenfour_voice_peers", Help: "Open WebRTC peer connections.",
	})
)

// mRelays counts the node-to-node relays (relay.go, docs/adr/0026).
var mRelays = promauto.NewGauge(prometheus.GaugeOpts{
	Name: "tenfour_voice_relays", Help: "Open node-to-node media relays (cluster).",
})

// mDirect counts the downstreams on the direct path (direct.go, docs/adr/0027).
var mDirect = promauto.NewGauge(prometheus.GaugeOpts{
	Name: "tenfour_voice_direct_downstreams",
	Help: "Listener audio streams sent on the direct path (SRTP from the shared socket) rather than pion's writer.",
})

// mHeldPlayed counts packets a relay lane held until its burst's announcement came, then played (relay.go).
var mHeldPlayed = promauto.NewCounter(prometheus.CounterOpts{
	Name: "tenfour_voice_lane_held_played_total",
	Help: "Packets of another node's burst that arrived before the burst's announcement, held and then played.",
})

// The socket's reader (socket.go, docs/adr/0029).
var (
	mInline = promauto.NewGauge(prometheus.GaugeOpts{
		Name: "tenfour_voice_inline_upstreams",
		Help: "Talkers' connections whose audio is decrypted and forwarded in the media socket's reader rather than by pion.",
	})
	mThinned = promauto.NewCounter(prometheus.CounterOpts{
		Name: "tenfour_voice_rtcp_thinned_total",
		Help: "Receiver reports from direct clients dropped in the socket's reader.",
	})
	mConsentAnswered = promauto.NewCounter(prometheus.CounterOpts{
		Name: "tenfour_voice_consent_answered_total",
		Help: "Direct voice clients' ICE consent checks answered in the socket's reader rather than by pion.",
	})
	mInboundRejected = promauto.NewCounter(prometheus.CounterOpts{
		Name: "tenfour_voice_inbound_rejected_total",
		Help: "Talkers' packets read in the socket's reader that failed SRTP authentication or were replays (dropped).",
	})
)
