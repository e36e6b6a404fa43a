package camera

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/webrtc/v4"

	"tenfour/internal/media"
	"tenfour/internal/media/ffchild"
	"tenfour/internal/medialib"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/defaults"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/realtime"
	"tenfour/internal/platform/ticker"
)

// Options configure cameras; zero fields take the defaults.
type Options struct {
	// DataDir holds recordings (camera-records/<customer>/<yyyy>/<mm>/<dd>/).
	DataDir string
	// NodeID is this node's --node-id in a cluster ("" alone): the recordings it writes carry it, and Restore
	// closes only its own left open (docs/adr/0024).
	NodeID string
	// MaxPerCustomer is the most cameras (connections the server holds to cameras) a customer may have (16).
	MaxPerCustomer int
	// Retention deletes recordings older than this; 0 keeps them.
	Retention time.Duration
	// FFmpeg is the ffmpeg executable ("ffmpeg" on PATH).
	FFmpeg string
	// ConnectTimeout bounds connecting to a camera and each read from it (5 s).
	ConnectTimeout time.Duration
	// NoMediaTimeout restarts a pull that receives nothing this long; also the "online" window (10 s).
	NoMediaTimeout time.Duration
	// FirstMedia is how long proxy, snap and record wait for a camera's first keyframe (8 s).
	FirstMedia time.Duration
	// IdleStop stops a pull nobody watches, records or asked for since (60 s).
	IdleStop time.Duration
	// BackoffMin and BackoffMax bound the restart delay of a failing pull (0.5 s, 30 s).
	BackoffMin, BackoffMax time.Duration
	// ProbeEvery is how often the cameras not pulled are asked whether they answer (30 s; probe.go).
	ProbeEvery time.Duration
	// AllowNets are the networks cameras may be pulled from (--camera-allow-nets); empty: anywhere.
	AllowNets Networks
	// Jobs is the server's one limiter of ffmpeg work clients ask for (snapshots here, upload transcodes in
	// broadcast; docs/adr/0030); nil: a limiter of the service's own with ffchild.DefaultLimits.
	Jobs *ffchild.Limiter
}

func (o Options) withDefaults() Options {
	defaults.Positive(&o.MaxPerCustomer, 16)
	o.FFmpeg = cmp.Or(o.FFmpeg, "ffmpeg")
	defaults.Positive(&o.ConnectTimeout, 5*time.Second)
	defaults.Positive(&o.NoMediaTimeout, 10*time.Second)
	defaults.Positive(&o.FirstMedia, 8*time.Second)
	defaults.Positive(&o.IdleStop, 60*time.Second)
	defaults.Positive(&o.BackoffMin, 500*time.Millisecond)
	defaults.Positive(&o.BackoffMax, 30*time.Second)
	defaults.Positive(&o.ProbeEvery, defaultProbeEvery)
	if o.Jobs == nil { // not cmp.Or: that would make a limiter even when one is given
		o.Jobs = ffchild.NewLimiter(ffchild.DefaultLimits())
	}
	return o
}

// Hub is what cameras need of the socket hub.
type Hub interface {
	Publish(customerID int64, typ string, data any, to realtime.Audience)
}

// Socket events to consoles.
const (
	// EventState tells a customer's consoles that a stream's state changed ({streamId, state, code, key}).
	EventState = "camera.state"
	// EventChanged tells them the camera list changed ({op, camera}).
	EventChanged = "camera.changed"
	// EventRecord tells them a recording started or ended ({record}).
	EventRecord = "camera.record"
)

// Service runs cameras: the store, the pulled streams, viewers and recordings.
type Service struct {
	db     *db.DB
	store  *Store
	hub    Hub
	media  *media.Engine
	opts   Options
	ffmpeg string // resolved path, "" when missing

	ctx    context.Context
	cancel context.CancelFunc

	mu       sync.Mutex
	streams  map[streamKey]*stream
	reach    map[streamKey]Reach // what the probes found of the cameras not pulled (probe.go)
	closed   bool
	children atomic.Int64 // running ffmpeg children (pulls, recorders, snapshots)
	now      func() time.Time
	wg       sync.WaitGroup
	cloud    Cloud // keeps snapshots; nil: not kept
}

// Cloud is where snapshots are kept: the media cloud (internal/medialib).
type Cloud interface {
	KeepShot(ctx context.Context, p identity.Principal, shot medialib.Shot) (medialib.Item, error)
}

// SetCloud keeps every snapshot a console takes in the media cloud (call before serving).
func (s *Service) SetCloud(c Cloud) { s.cloud = c }

// New builds the service; ffmpeg is looked up now (missing: camera media answers ErrNoTool, the rest works).
func New(d *db.DB, hub Hub, eng *media.Engine, opts Options) *Service {
	opts = opts.withDefaults()
	ctx, cancel := context.WithCancel(context.Background())
	s := &Service{db: d, store: &Store{db: d}, hub: hub, media: eng, opts: opts, ctx: ctx, cancel: cancel,
		streams: map[streamKey]*stream{}, reach: map[streamKey]Reach{}, now: time.Now}
	if p, err := exec.LookPath(opts.FFmpeg); err == nil {
		s.ffmpeg = p
	} else {
		slog.Warn("cameras: ffmpeg not found; cameras can be registered but not pulled, watched or recorded " +
			"(install it: `make test-deps` or apt-get install ffmpeg)")
	}
	return s
}

// Store is the camera store.
func (s *Service) Store() *Store { return s.store }

// HasTool tells whether ffmpeg is installed.
func (s *Service) HasTool() bool { return s.ffmpeg != "" }

// Children is how many ffmpeg children run now.
func (s *Service) Children() int64 { return s.children.Load() }

// Run stops idle pulls and asks the cameras not pulled whether they answer (probe.go) until ctx ends, then
// stops everything.
func (s *Service) Run(ctx context.Context) {
	go s.runProbes(ctx)
	ticker.Every(ctx, time.Second, func() {
		cutoff := s.now().Add(-s.opts.IdleStop)
		s.mu.Lock()
		var idle []*stream
		for k, st := range s.streams {
			if st.idle(cutoff) {
				idle = append(idle, st)
				delete(s.streams, k)
			}
		}
		s.mu.Unlock()
		for _, st := range idle {
			// what the pull last knew is the camera's reach until the next probe asks
			r := ReachOffline
			if st.online() {
				r = ReachOnline
			}
			st.stop()
			s.mu.Lock()
			s.reach[st.key] = r
			s.mu.Unlock()
			s.publishState(st.key, StateIdle, nil)
		}
	})
	s.Close()
}

// Close stops every pull, viewer and recording and waits for every child process.
func (s *Service) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	list := make([]*stream, 0, len(s.streams))
	for _, st := range s.streams {
		list = append(list, st)
	}
	s.streams = map[streamKey]*stream{}
	s.mu.Unlock()
	var wg sync.WaitGroup
	for _, st := range list {
		wg.Go(st.stop)
	}
	wg.Wait()
	s.cancel()
	s.wg.Wait()
	if s.media != nil {
		s.media.ForgetVideo()
	}
}

var errClosed = errors.New("cameras: shutting down")

// ensure returns the stream of a camera, starting its pull when it is not running.
func (s *Service) ensure(cam Camera) (*stream, error) {
	if s.ffmpeg == "" {
		return nil, ErrNoTool
	}
	key := streamKey{cam.customerID, cam.StreamID}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errClosed
	}
	if st := s.streams[key]; st != nil {
		st.touch()
		return st, nil
	}
	st := newStream(s, cam)
	s.streams[key] = st
	go st.run()
	return st, nil
}

// running returns the stream if it is pulled now.
func (s *Service) running(customer int64, stream string) *stream {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.streams[streamKey{customer, stream}]
}

// stopStream ends a stream's pull (camera deleted or changed).
func (s *Service) stopStream(customer int64, stream string) {
	s.mu.Lock()
	st := s.streams[streamKey{customer, stream}]
	delete(s.streams, streamKey{customer, stream})
	s.mu.Unlock()
	if st != nil {
		st.stop()
		s.publishState(st.key, StateIdle, nil)
	}
}

// waitMedia waits until the stream plays, fails, or wait ends; a failure is its coded reason.
func (s *Service) waitMedia(ctx context.Context, st *stream, wait time.Duration) error {
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	for {
		state, reason, changed := st.status()
		switch {
		case state == StatePlaying:
			return nil
		case state == StateFailed && reason != nil:
			return reason
		}
		select {
		case <-changed:
		case <-deadline.C:
			if state == StateFailed || state == StateConnecting {
				return ErrNoMedia
			}
			return ErrOffline
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// publishState tells the customer's consoles a stream's state.
func (s *Service) publishState(key streamKey, st State, reason *httpx.Error) {
	if s.hub == nil {
		return
	}
	ev := map[string]any{"streamId": key.stream, "state": st}
	if reason != nil {
		ev["code"], ev["key"] = reason.Code, reason.Key
	}
	if r := s.reachOf(key); st == StateIdle && r != ReachUnknown {
		ev["reach"] = r
	}
	s.hub.Publish(key.customer, EventState, ev, realtime.Consoles)
}

// Verbs declares the camera events.
func (s *Service) Verbs() []realtime.Verb {
	return []realtime.Verb{
		realtime.Event(EventState, realtime.ConsoleOnly),
		realtime.Event(EventChanged, realtime.ConsoleOnly),
		realtime.Event(EventRecord, realtime.ConsoleOnly),
	}
}

// watch attaches a new WebRTC viewer to a camera's stream and returns the answer. The offer is answered first, so a
// malformed one starts no pull.
func (s *Service) watch(cam Camera, offer string) (string, *stream, error) {
	if s.ffmpeg == "" {
		return "", nil, ErrNoTool
	}
	track, err := webrtc.NewTrackLocalStaticRTP(media.CameraH264, "video", "camera-"+cam.StreamID)
	if err != nil {
		return "", nil, err
	}
	v := &viewer{track: track}
	var vw atomic.Pointer[media.Viewer]
	var owner atomic.Pointer[stream]
	var once sync.Once
	v.closeFn = func() {
		once.Do(func() {
			v.closed.Store(true)
			if st := owner.Load(); st != nil {
				st.removeViewer(v)
			}
			if p := vw.Load(); p != nil {
				_ = p.Close()
			}
		})
	}
	pc, answer, err := s.media.NewViewer(offer, track, func(state webrtc.PeerConnectionState) {
		switch state {
		case webrtc.PeerConnectionStateConnected:
			v.ready.Store(true)
		case webrtc.PeerConnectionStateFailed, webrtc.PeerConnectionStateClosed, webrtc.PeerConnectionStateDisconnected:
			v.ready.Store(false)
			go v.closeFn()
		}
	})
	if err != nil {
		return "", nil, httpx.BadParam("sdp", err.Error())
	}
	vw.Store(pc)
	st, err := s.ensure(cam)
	if err != nil {
		v.closeFn()
		return "", nil, err
	}
	owner.Store(st)
	st.addViewer(v)
	if v.closed.Load() { // the connection failed before the viewer was attached
		st.removeViewer(v)
		return "", nil, ErrOffline
	}
	return answer, st, nil
}
