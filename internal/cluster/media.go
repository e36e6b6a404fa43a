package cluster

// Voice media across nodes (docs/adr/0026): every pair of live nodes keeps one media.Relay — a pion
// PeerConnection on each node's media UDP port — negotiated over NATS request/reply (the node with the smaller id
// offers; the other asks for an offer when it has none). A group burst granted here takes one outgoing lane per
// other node and is announced on that node's subject (lane, group, talker); the other node plays what arrives on
// the lane to its listeners through its voice service, exactly as a local talker's packets. Announcements of one
// node to another travel on one subject from one connection, so a lane's start and end arrive in order.

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"tenfour/internal/call"
	"tenfour/internal/media"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/realtime"
	"tenfour/internal/platform/ticker"
)

const (
	subjMediaOffer = "tenfour.media.offer."   // + node: a relay offer to that node (request/reply)
	subjMediaHello = "tenfour.media.hello."   // + node: "offer me a relay", from a node that has none to it
	subjMediaBurst = "tenfour.media.burst."   // + node: which burst each of the sender's lanes to it carries
	subjMediaMon   = "tenfour.media.monitor." // + node: start (request/reply) or stop a terminal monitoring there
	subjCallInvite = "tenfour.call.invite."   // + node: ring a terminal there for a call of the sender (request/reply)
	subjCallState  = "tenfour.call.state."    // + node: the state of a call of the sender with a party there
	subjCallOp     = "tenfour.call.op."       // + node: a party's request, run on its call's node (request/reply)
	relayEvery     = 500 * time.Millisecond   // how often links are checked against the live nodes
	relaySetup     = 10 * time.Second         // a link not carrying media this long after its offer is rebuilt
	laneQuiet      = time.Second              // a freed lane is not reused sooner (its burst's last packets drain)
)

// MediaSide is the voice service's side of the relay (internal/call.Service).
type MediaSide interface {
	RemoteStarted(ctx context.Context, lane *media.Lane, b call.RelayBurst) error
	RemoteEnded(lane *media.Lane)
	RelayGone(r *media.Relay)
	Reroute()
	MonitorFor(ctx context.Context, node string, customer int64, by, byName, target string) error
	MonitorStopFor(node, by string)
	LegInvite(ctx context.Context, from string, inv call.LegInvite) (any, error)
	LegState(from string, st call.LegState)
	LegOp(ctx context.Context, from string, op call.LegOp) (any, error)
}

// MediaRelay relays this node's group bursts to the other nodes and plays theirs here (call.MediaRelay).
type MediaRelay struct {
	n     *Node
	eng   *media.Engine
	side  MediaSide
	lanes int

	mu     sync.Mutex
	links  map[string]*link
	bursts map[uint64]*outBurst
	hello  map[string]time.Time // when this node last asked a node for an offer
	closed bool
}

type link struct {
	r     *media.Relay
	since time.Time
	up    bool        // negotiated: lanes may be announced
	used  []uint64    // lane → the burst it carries (0: free)
	freed []time.Time // lane → when it was freed
}

type outBurst struct {
	info  call.RelayBurst
	lanes map[string]int  // node → lane
	only  map[string]bool // relayed to these nodes alone (a monitored terminal, a call's parties); nil = every node
}

type offerMsg struct {
	From string `json:"from"`
	SDP  string `json:"sdp"`
}

type burstMsg struct {
	From  string          `json:"from"`
	Lane  int             `json:"lane"`
	End   bool            `json:"end,omitempty"`
	Burst call.RelayBurst `json:"burst"`
}

// Media joins the voice service to the other nodes' media; lanes is how many bursts may go to one node at once
// (0 = media.DefaultLanes). Run its Run loop with the node's.
func (n *Node) Media(eng *media.Engine, side MediaSide, lanes int) (*MediaRelay, error) {
	if lanes <= 0 {
		lanes = media.DefaultLanes
	}
	m := &MediaRelay{n: n, eng: eng, side: side, lanes: lanes, links: map[string]*link{}, bursts: map[uint64]*outBurst{},
		hello: map[string]time.Time{}}
	for subj, fn := range map[string]nats.MsgHandler{subjMediaOffer + n.opt.NodeID: m.onOffer,
		subjMediaHello + n.opt.NodeID: m.onHello, subjMediaBurst + n.opt.NodeID: m.onBurst,
		subjMediaMon + n.opt.NodeID: m.onMonitor, subjCallInvite + n.opt.NodeID: m.onCallInvite,
		subjCallState + n.opt.NodeID: m.onCallState, subjCallOp + n.opt.NodeID: m.onCallOp} {
		s, err := n.nc.Subscribe(subj, fn)
		if err != nil {
			return nil, err
		}
		_ = s.SetPendingLimits(1<<16, 64<<20)
	}
	return m, nil
}

// Run keeps one link to every live node until ctx ends, then closes them.
func (m *MediaRelay) Run(ctx context.Context) {
	ticker.NowAndEvery(ctx, relayEvery, m.check)
	m.mu.Lock()
	m.closed = true
	links := make([]*link, 0, len(m.links))
	for _, l := range m.links {
		if l.r != nil {
			links = append(links, l)
		}
	}
	m.mu.Unlock()
	for _, l := range links {
		l.r.Close()
	}
}

// check closes links to nodes that are gone and builds the missing ones.
func (m *MediaRelay) check() {
	m.n.mu.Lock()
	alive := m.n.alive
	m.n.mu.Unlock()
	me := m.n.opt.NodeID
	var stale []*media.Relay
	var offer, ask []string
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	for node, l := range m.links {
		if l.r == nil { // an offer on its way
			continue
		}
		if !alive[node] || (!l.r.Ready() && time.Since(l.since) > relaySetup) {
			stale = append(stale, l.r)
		}
	}
	for node := range alive {
		if node == me || m.links[node] != nil {
			continue
		}
		if me < node {
			offer = append(offer, node)
		} else if time.Since(m.hello[node]) > 2*time.Second {
			m.hello[node] = time.Now()
			ask = append(ask, node)
		}
	}
	m.mu.Unlock()
	for _, r := range stale {
		r.Close() // linkDown forgets it
	}
	for _, node := range ask {
		_ = m.n.nc.Publish(subjMediaHello+node, mustJSON(offerMsg{From: me}))
	}
	for _, node := range offer {
		go m.offer(node)
	}
}

// newLink makes the relay to a node and registers it (replacing an older one).
func (m *MediaRelay) newLink(node string) (*link, *media.Relay, error) {
	r, err := m.eng.NewRelay(node, m.lanes, m.relayState)
	if err != nil {
		return nil, nil, err
	}
	l := &link{r: r, since: time.Now(), used: make([]uint64, m.lanes), freed: make([]time.Time, m.lanes)}
	m.mu.Lock()
	old := m.links[node]
	m.links[node] = l
	closed := m.closed
	m.mu.Unlock()
	if old != nil && old.r != nil {
		old.r.Close()
	}
	if closed {
		r.Close()
		return nil, nil, context.Canceled
	}
	return l, r, nil
}

// offer builds the link to a node with a larger id.
func (m *MediaRelay) offer(node string) {
	m.mu.Lock()
	if m.links[node] != nil || m.closed {
		m.mu.Unlock()
		return
	}
	m.links[node] = &link{r: nil} // placeholder: one offer at a time
	m.mu.Unlock()
	drop := func() {
		m.mu.Lock()
		if l := m.links[node]; l != nil && l.r == nil {
			delete(m.links, node)
		}
		m.mu.Unlock()
	}
	r, err := m.eng.NewRelay(node, m.lanes, m.relayState)
	if err != nil {
		drop()
		slog.Warn("cluster: media relay", "to", node, "err", err)
		return
	}
	l := &link{r: r, since: time.Now(), used: make([]uint64, m.lanes), freed: make([]time.Time, m.lanes)}
	m.mu.Lock()
	m.links[node] = l // registered before the offer leaves: the other node's announcements may come first
	m.mu.Unlock()
	sdp, err := r.Offer()
	var reply *nats.Msg
	if err == nil {
		reply, err = m.n.nc.Request(subjMediaOffer+node, mustJSON(offerMsg{From: m.n.opt.NodeID, SDP: sdp}), 5*time.Second)
	}
	var ans offerMsg
	if err == nil {
		err = json.Unmarshal(reply.Data, &ans)
	}
	if err == nil {
		err = r.Accept(ans.SDP)
	}
	if err != nil {
		slog.Debug("cluster: media relay offer", "to", node, "err", err)
		r.Close()
		return
	}
	m.linkUp(node, l)
}

// onOffer answers a relay offer of a node with a smaller id.
func (m *MediaRelay) onOffer(msg *nats.Msg) {
	var o offerMsg
	if json.Unmarshal(msg.Data, &o) != nil || o.From == "" {
		return
	}
	go func() {
		l, r, err := m.newLink(o.From)
		if err != nil {
			return
		}
		sdp, err := r.Answer(o.SDP)
		if err != nil {
			slog.Warn("cluster: media relay answer", "to", o.From, "err", err)
			r.Close()
			return
		}
		if err := msg.Respond(mustJSON(offerMsg{From: m.n.opt.NodeID, SDP: sdp})); err != nil {
			r.Close()
			return
		}
		m.linkUp(o.From, l)
	}()
}

// onHello: a node with a larger id has no link to this one (it restarted, or its link failed): offer anew.
func (m *MediaRelay) onHello(msg *nats.Msg) {
	var o offerMsg
	if json.Unmarshal(msg.Data, &o) != nil || o.From == "" || o.From < m.n.opt.NodeID {
		return
	}
	m.mu.Lock()
	l := m.links[o.From]
	young := l != nil && (l.r == nil || time.Since(l.since) < 3*time.Second)
	m.mu.Unlock()
	if young {
		return // an offer is on its way
	}
	if l != nil {
		l.r.Close()
	}
	go m.offer(o.From)
}

// linkUp announces this node's running bursts on a new link and gives them its lanes.
func (m *MediaRelay) linkUp(node string, l *link) {
	m.mu.Lock()
	if m.links[node] != l {
		m.mu.Unlock()
		return
	}
	l.up = true
	for src, ob := range m.bursts {
		if ob.only == nil || ob.only[node] {
			m.allocLocked(node, l, src, ob)
		}
	}
	m.mu.Unlock()
	m.side.Reroute()
}

// relayState: a relay stopped carrying media (closed, failed, or 5 s without a packet from its node).
func (m *MediaRelay) relayState(r *media.Relay, ready bool) {
	if ready {
		return
	}
	m.mu.Lock()
	if l := m.links[r.Node]; l != nil && l.r == r {
		delete(m.links, r.Node)
		for _, ob := range m.bursts {
			delete(ob.lanes, r.Node)
		}
	}
	m.mu.Unlock()
	go func() {
		m.side.RelayGone(r)
		m.side.Reroute()
	}()
}

// allocLocked gives a burst a free lane to a node and announces it there.
func (m *MediaRelay) allocLocked(node string, l *link, src uint64, ob *outBurst) {
	now := time.Now()
	for i, u := range l.used {
		if u == 0 && now.Sub(l.freed[i]) >= laneQuiet {
			l.used[i] = src
			ob.lanes[node] = i
			l.r.Out(i).Assign(src)
			_ = m.n.nc.Publish(subjMediaBurst+node, mustJSON(burstMsg{From: m.n.opt.NodeID, Lane: i, Burst: ob.info}))
			return
		}
	}
	slog.Warn("cluster: no free media lane to a node; the burst is not heard there", "node", node, "lanes", len(l.used),
		"gid", ob.info.GID)
}

// Started relays a burst of this node to every linked node (call.MediaRelay).
func (m *MediaRelay) Started(b call.RelayBurst) {
	m.mu.Lock()
	defer m.mu.Unlock()
	ob := &outBurst{info: b, lanes: map[string]int{}}
	m.bursts[b.Src] = ob
	for node, l := range m.links {
		if l.up {
			m.allocLocked(node, l, b.Src, ob)
		}
	}
}

// StartedFor relays a source of this node to one node only (call.MediaRelay).
func (m *MediaRelay) StartedFor(node string, b call.RelayBurst) { m.StartedTo([]string{node}, b) }

// StartedTo relays a source of this node to some nodes only: those of a call's parties (call.MediaRelay).
func (m *MediaRelay) StartedTo(nodes []string, b call.RelayBurst) {
	m.mu.Lock()
	defer m.mu.Unlock()
	ob := &outBurst{info: b, lanes: map[string]int{}, only: map[string]bool{}}
	m.bursts[b.Src] = ob
	for _, node := range nodes {
		ob.only[node] = true
		if l := m.links[node]; l != nil && l.up {
			m.allocLocked(node, l, b.Src, ob)
		}
	}
}

type monitorMsg struct {
	From     string `json:"from"`
	Customer int64  `json:"customer"`
	By       string `json:"by"`
	ByName   string `json:"byName,omitempty"`
	Target   string `json:"msId,omitempty"`
	Stop     bool   `json:"stop,omitempty"`
}

// Monitor asks the node holding a terminal to relay its microphone here for a dispatcher (call.MediaRelay).
func (m *MediaRelay) Monitor(ctx context.Context, customer int64, by, byName, target string) (string, error) {
	node := m.n.holderOf(target)
	if node == "" {
		return "", realtime.ErrNotOnline
	}
	msg, err := m.n.nc.RequestWithContext(ctx, subjMediaMon+node, mustJSON(monitorMsg{From: m.n.opt.NodeID,
		Customer: customer, By: by, ByName: byName, Target: target}))
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, nats.ErrTimeout):
		return "", realtime.ErrTimeout
	case errors.Is(err, nats.ErrNoResponders):
		return "", realtime.ErrNotOnline
	case err != nil:
		return "", err
	}
	var r replyMsg
	if err := json.Unmarshal(msg.Data, &r); err != nil {
		return "", err
	}
	if r.Code != "" && r.Code != "0" {
		return "", httpx.E(http.StatusConflict, r.Code, r.Key, r.Msg)
	}
	return node, nil
}

// request runs a NATS request/reply with a node's voice service and returns its reply's data; a refusal comes back
// as the refusing node's coded error.
func (m *MediaRelay) request(ctx context.Context, subj string, v any) (json.RawMessage, error) {
	msg, err := m.n.nc.RequestWithContext(ctx, subj, mustJSON(v))
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, nats.ErrTimeout):
		return nil, realtime.ErrTimeout
	case errors.Is(err, nats.ErrNoResponders):
		return nil, realtime.ErrNotOnline
	case err != nil:
		return nil, err
	}
	var r replyMsg
	if err := json.Unmarshal(msg.Data, &r); err != nil {
		return nil, err
	}
	if r.Code != "" && r.Code != "0" {
		return nil, httpx.E(http.StatusConflict, r.Code, r.Key, r.Msg)
	}
	return r.Data, nil
}

// respond answers a request with fn's result or its coded error.
func respond(msg *nats.Msg, fn func(ctx context.Context) (any, error)) {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), realtime.AckTimeout)
		defer cancel()
		var r replyMsg
		var he *httpx.Error
		res, err := fn(ctx)
		switch {
		case errors.As(err, &he):
			r.Code, r.Key, r.Msg = he.Code, he.Key, he.Msg
		case err != nil:
			r.Code, r.Msg = realtime.ErrTimeout.Code, err.Error()
		default:
			r.Data, _ = json.Marshal(res)
		}
		_ = msg.Respond(mustJSON(r))
	}()
}

type callMsg struct {
	From   string          `json:"from"`
	Invite *call.LegInvite `json:"invite,omitempty"`
	State  *call.LegState  `json:"state,omitempty"`
	Op     *call.LegOp     `json:"op,omitempty"`
}

// Holder is the node a terminal is connected to, "" when none (call.MediaRelay).
func (m *MediaRelay) Holder(acct string) string { return m.n.holderOf(acct) }

// CallInvite asks a node to connect its terminals to a call of this node (call.MediaRelay).
func (m *MediaRelay) CallInvite(ctx context.Context, node string, inv call.LegInvite) (json.RawMessage, error) {
	return m.request(ctx, subjCallInvite+node, callMsg{From: m.n.opt.NodeID, Invite: &inv})
}

// CallState tells a node the state of a call of this node with a party there (call.MediaRelay). It travels on
// the publishing connection that also announces this node's lanes, so a call's state and its bursts stay in order.
func (m *MediaRelay) CallState(node string, st call.LegState) {
	_ = m.n.nc.Publish(subjCallState+node, mustJSON(callMsg{From: m.n.opt.NodeID, State: &st}))
}

// CallOp runs a party's request on its call's node (call.MediaRelay).
func (m *MediaRelay) CallOp(ctx context.Context, node string, op call.LegOp) (json.RawMessage, error) {
	return m.request(ctx, subjCallOp+node, callMsg{From: m.n.opt.NodeID, Op: &op})
}

func (m *MediaRelay) onCallInvite(msg *nats.Msg) {
	var cm callMsg
	if json.Unmarshal(msg.Data, &cm) != nil || cm.From == "" || cm.Invite == nil {
		return
	}
	respond(msg, func(ctx context.Context) (any, error) { return m.side.LegInvite(ctx, cm.From, *cm.Invite) })
}

func (m *MediaRelay) onCallState(msg *nats.Msg) {
	var cm callMsg
	if json.Unmarshal(msg.Data, &cm) != nil || cm.From == "" || cm.State == nil {
		return
	}
	m.side.LegState(cm.From, *cm.State)
}

func (m *MediaRelay) onCallOp(msg *nats.Msg) {
	var cm callMsg
	if json.Unmarshal(msg.Data, &cm) != nil || cm.From == "" || cm.Op == nil {
		return
	}
	respond(msg, func(ctx context.Context) (any, error) { return m.side.LegOp(ctx, cm.From, *cm.Op) })
}

// MonitorStop tells a terminal's node that its monitoring from here ended (call.MediaRelay).
func (m *MediaRelay) MonitorStop(node, by string) {
	_ = m.n.nc.Publish(subjMediaMon+node, mustJSON(monitorMsg{From: m.n.opt.NodeID, By: by, Stop: true}))
}

// onMonitor: another node's dispatcher starts or stops monitoring a terminal of this node.
func (m *MediaRelay) onMonitor(msg *nats.Msg) {
	var mm monitorMsg
	if json.Unmarshal(msg.Data, &mm) != nil || mm.From == "" {
		return
	}
	if mm.Stop {
		m.side.MonitorStopFor(mm.From, mm.By)
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), realtime.AckTimeout)
		defer cancel()
		var r replyMsg
		var he *httpx.Error
		if err := m.side.MonitorFor(ctx, mm.From, mm.Customer, mm.By, mm.ByName, mm.Target); errors.As(err, &he) {
			r.Code, r.Key, r.Msg = he.Code, he.Key, he.Msg
		} else if err != nil {
			r.Code, r.Msg = realtime.ErrTimeout.Code, err.Error()
		}
		_ = msg.Respond(mustJSON(r))
	}()
}

// Ended frees a burst's lanes and tells the nodes (call.MediaRelay).
func (m *MediaRelay) Ended(src uint64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	ob := m.bursts[src]
	if ob == nil {
		return
	}
	delete(m.bursts, src)
	now := time.Now()
	for node, i := range ob.lanes {
		if l := m.links[node]; l != nil && l.r != nil && l.used[i] == src {
			l.used[i], l.freed[i] = 0, now
			_ = m.n.nc.Publish(subjMediaBurst+node, mustJSON(burstMsg{From: m.n.opt.NodeID, Lane: i, End: true}))
		}
	}
}

// Targets are the lanes a burst goes to (call.MediaRelay).
func (m *MediaRelay) Targets(src uint64) []media.Target {
	m.mu.Lock()
	defer m.mu.Unlock()
	ob := m.bursts[src]
	if ob == nil {
		return nil
	}
	out := make([]media.Target, 0, len(ob.lanes))
	for node, i := range ob.lanes {
		if l := m.links[node]; l != nil && l.r != nil {
			out = append(out, media.Target{D: l.r.Out(i), Src: src})
		}
	}
	return out
}

// onBurst: another node says what one of its lanes to this node carries now.
func (m *MediaRelay) onBurst(msg *nats.Msg) {
	var b burstMsg
	if json.Unmarshal(msg.Data, &b) != nil {
		return
	}
	m.mu.Lock()
	l := m.links[b.From]
	m.mu.Unlock()
	if l == nil || l.r == nil || b.Lane < 0 || b.Lane >= l.r.Lanes() {
		return
	}
	lane := l.r.In(b.Lane)
	if b.End {
		m.side.RemoteEnded(lane)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := m.side.RemoteStarted(ctx, lane, b.Burst); err != nil {
		slog.Warn("cluster: a burst of another node", "from", b.From, "gid", b.Burst.GID, "err", err)
	}
}

// Links lists the nodes this node has a media link carrying media with (tests, diagnostics): connected, and
// negotiated on this side too (linkUp), so that a burst starting now gets a lane there. The answering side's
// connection may be up a moment before it marks the link negotiated.
func (m *MediaRelay) Links() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for node, l := range m.links {
		if l.r != nil && l.up && l.r.Ready() {
			out = append(out, node)
		}
	}
	return out
}

// InPackets counts the packets this node's incoming lanes received, per node (tests, diagnostics: where a burst
// relayed here stopped).
func (m *MediaRelay) InPackets() map[string]uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := map[string]uint64{}
	for node, l := range m.links {
		if l.r == nil {
			continue
		}
		for i := range l.r.Lanes() {
			out[node] += l.r.In(i).Packets()
		}
	}
	return out
}

// InDelays are the recent forwarding delays of every incoming lane: this node's hop for other nodes' bursts.
func (m *MediaRelay) InDelays() []time.Duration {
	m.mu.Lock()
	var relays []*media.Relay
	for _, l := range m.links {
		if l.r != nil {
			relays = append(relays, l.r)
		}
	}
	m.mu.Unlock()
	var out []time.Duration
	for _, r := range relays {
		for i := range r.Lanes() {
			out = append(out, r.In(i).Delays()...)
		}
	}
	return out
}
