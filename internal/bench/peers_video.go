package bench

// Video forwarding against LiveKit (issue 36): one camera-like publisher (the simulated terminals' test-pattern
// clip, VP8 or H.264, each frame padded to 1 Mbit/s at the clip's 15 frames a second), N subscribers, the server
// in its own process (CPU from /proc), every client in this process — the audio row's harness (peers_audio.go).
// Both servers get the same publisher frames, the same subscriber PeerConnections (termclient's video API: the
// codec, Opus, RTCP reports and NACK) and the same reader (videoSub). Only the signalling differs:
//
//   - tenfour: video monitoring (docs/video.md): a phone-app terminal's camera watched by N dispatchers, each
//     on its own console socket (`video.monitorStart`, `video.offer`), the terminal sending its camera once.
//   - LiveKit: one room; the publisher announces a camera track (`addTrack`, type video) and publishes it, the
//     subscribers auto-subscribed (the audio row's signalling, peers_lkwire.go).

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"
	pionmedia "github.com/pion/webrtc/v4/pkg/media"

	"tenfour/internal/app"
	"tenfour/internal/config"
	"tenfour/internal/media/rtcapi"
	"tenfour/internal/platform/wsclient"
	"tenfour/internal/sim"
	"tenfour/internal/termclient"
	"tenfour/internal/video"
)

// VideoBitrate is each published stream's rate: every frame is padded to VideoBitrate / ClipFPS.
const VideoBitrate = 1_000_000

// VideoOptions describe one video-forwarding run.
type VideoOptions struct {
	Bin         string // the server binary (tenfour or livekit-server)
	Dir         string // work directory (emptied)
	Codec       string // "VP8" or "H264"
	Subscribers int    // N (60)
	Window      time.Duration
	Log         io.Writer
	OnPhase     PhaseHook // "idle" (every subscriber connected, no video yet), "window" and "done", as AudioOptions'
}

// VideoResult is what one server measured.
type VideoResult struct {
	Server, Codec  string
	Subscribers    int           // subscribers that received the stream
	SetupTime      time.Duration // every client connected and receiving frames
	Window         time.Duration
	CPU            float64 // server cores over the window
	IdleCPU        float64 // server cores with every client connected, before any video (3 s)
	Frames         int     // frames published in the window
	Expected, Lost int     // packets forwarded in the window to all subscribers (by their sequence numbers), those missing
	FramesLost     int     // frames whose last packet some subscriber never received
	Bitrate        float64 // the publisher's payload bits a second
	RSSBase, RSS   int64
}

// StreamsPerCore is the forwarded streams one core of the server carries at this load.
func (r VideoResult) StreamsPerCore() float64 {
	if r.CPU <= 0 {
		return 0
	}
	return float64(r.Subscribers) / r.CPU
}

// videoFrames are the clip's frames in codec, each padded with zeros (after the frame's own data: a decoder
// stops at the frame's end, a forwarder does not look) to the size that makes VideoBitrate at the clip's rate.
func videoFrames(codec string) ([][]byte, error) {
	size := termclient.ClipSizes[0]
	clip, err := termclient.ClipFor(codec, size.Width, size.Height)
	if err != nil {
		return nil, err
	}
	per := (VideoBitrate/8 + termclient.ClipFPS - 1) / termclient.ClipFPS // rounded up: at least the rate
	frames := make([][]byte, len(clip.Frames))
	for i, f := range clip.Frames {
		frames[i] = append(append(make([]byte, 0, max(per, len(f.Data))), f.Data...), make([]byte, max(0, per-len(f.Data)))...)
	}
	return frames, nil
}

// videoSub counts, for one subscriber, the distinct video packets by sequence number and the frames (packets
// with the marker bit) it received.
type videoSub struct {
	mu     sync.Mutex
	seen   [1 << 16 / 64]uint64 // by sequence number, cleared as the highest one moves on
	lo, hi int64                // first and highest sequence number, unwrapped (hi -1: none yet)
	unique int
	frames int
}

func newVideoSub() *videoSub { return &videoSub{hi: -1} }

func (s *videoSub) packet(p *rtp.Packet) {
	s.mu.Lock()
	defer s.mu.Unlock()
	seq := int64(p.SequenceNumber)
	if s.hi < 0 {
		s.lo, s.hi = seq, seq-1
	}
	ext := s.hi + int64(int16(p.SequenceNumber-uint16(s.hi))) // the unwrapped number nearest the highest
	if ext < s.lo || ext < s.hi-1<<15 {
		return // from before the first, or too old to tell apart from a newer one
	}
	for n := s.hi + 1; n <= ext; n++ { // numbers entering the window are new
		s.seen[uint16(n)/64] &^= 1 << (uint16(n) % 64)
	}
	s.hi = max(s.hi, ext)
	w, bit := uint16(ext)/64, uint64(1)<<(uint16(ext)%64)
	if s.seen[w]&bit != 0 {
		return // a retransmission (NACK) of one it has
	}
	s.seen[w] |= bit
	s.unique++
	if p.Marker {
		s.frames++
	}
}

func (s *videoSub) read(t *webrtc.TrackRemote) {
	if t.Kind() != webrtc.RTPCodecTypeVideo {
		return
	}
	rtcapi.EachPacket(t, s.packet)
}

type videoCounts struct {
	hi             int64
	unique, frames int
}

func (s *videoSub) counts() videoCounts {
	s.mu.Lock()
	defer s.mu.Unlock()
	return videoCounts{s.hi, s.unique, s.frames}
}

// videoSession is what a protocol sets up: the publisher's frame writer and the subscribers' counts.
type videoSession struct {
	publish func(frame []byte, d time.Duration) error
	subs    []*videoSub
}

// measureVideo runs the shared measurement: 3 s idle, frames until every subscriber has some, one second more,
// a pause (nothing in flight), the window (CPU from /proc), a pause, then each subscriber's counts over the window.
func measureVideo(ctx context.Context, srv *serverProc, s *videoSession, o VideoOptions, res *VideoResult, t0 time.Time) error {
	frames, err := videoFrames(o.Codec)
	if err != nil {
		return err
	}
	next := 0
	interval := time.Second / termclient.ClipFPS
	send := func(n int) error {
		return paced(ctx, n, interval, func() error {
			err := s.publish(frames[next%len(frames)], interval)
			next++
			return err
		})
	}
	o.OnPhase.at("idle", srv.pid())
	if res.IdleCPU, err = srv.coresOver(ctx, 3*time.Second); err != nil {
		return err
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		if err := send(termclient.ClipFPS / 3); err != nil {
			return err
		}
		got := 0
		for _, sub := range s.subs {
			if sub.counts().frames > 0 {
				got++
			}
		}
		if got == len(s.subs) {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: %d of %d subscribers receive frames after 30 s", res.Server, got, len(s.subs))
		}
	}
	res.SetupTime = time.Since(t0)
	if err := send(termclient.ClipFPS); err != nil {
		return err
	}
	settle := func() ([]videoCounts, error) {
		if err := sleepCtx(ctx, 500*time.Millisecond); err != nil {
			return nil, err
		}
		c := make([]videoCounts, len(s.subs))
		for i, sub := range s.subs {
			c[i] = sub.counts()
		}
		return c, nil
	}
	before, err := settle()
	if err != nil {
		return err
	}
	res.Frames = int(o.Window / interval)
	bytes := 0
	for i := range res.Frames {
		bytes += len(frames[(next+i)%len(frames)])
	}
	o.OnPhase.at("window", srv.pid())
	cpu0, w0 := srv.cpu(), time.Now()
	if err := send(res.Frames); err != nil {
		return err
	}
	o.OnPhase.at("done", srv.pid())
	res.Window = time.Since(w0) + interval // the last frame's own interval
	res.CPU = float64(srv.cpu()-cpu0) / float64(res.Window)
	res.RSS = srv.rss()
	res.Bitrate = float64(bytes*8) / res.Window.Seconds()
	after, err := settle()
	if err != nil {
		return err
	}
	res.Subscribers = len(s.subs)
	for i := range s.subs {
		span, got := int(after[i].hi-before[i].hi), after[i].unique-before[i].unique
		res.Expected += span
		res.Lost += max(0, span-got)
		res.FramesLost += max(0, res.Frames-(after[i].frames-before[i].frames))
	}
	return srv.alive()
}

// --- tenfour ----------------------------------------------------------------------------------------------------

const videoFirst = 51000001

// RunVideoTenfour measures tenfour: a phone-app terminal's camera watched by N dispatchers (video monitoring).
func RunVideoTenfour(ctx context.Context, o VideoOptions) (VideoResult, error) {
	res := VideoResult{Server: "tenfour", Codec: o.Codec}
	srv, base, err := startTenfour(ctx, o.Log, o.Bin, o.Dir, o.Subscribers+1, func(data string) error {
		return provisionViewers(ctx, data, o.Subscribers)
	})
	if err != nil {
		return res, err
	}
	defer stop(srv.proc)
	res.RSSBase = srv.rss()
	t0 := time.Now()
	var closers []io.Closer
	defer func() {
		for _, c := range closers {
			_ = c.Close()
		}
	}()
	codec := o.Codec
	cam, err := termclient.Dial(ctx, termclient.Options{URL: base, UID: strconv.Itoa(videoFirst), Password: fanPassword,
		OnRequest: func(typ string, _ json.RawMessage) (string, any) {
			if typ == "video.monitorStart" {
				return "0", map[string]string{"codec": codec}
			}
			return "0", struct{}{}
		}})
	if err != nil {
		return res, fmt.Errorf("camera terminal: %w", err)
	}
	closers = append(closers, cam)
	camVideo := make(chan *termclient.Video, 1)
	camErr := make(chan error, 1)
	go func() {
		e, err := cam.WaitEvent(ctx, "request:video.monitorStart", nil)
		var req struct{ CallID string }
		if err == nil {
			err = e.Decode(&req)
		}
		var v *termclient.Video
		if err == nil {
			v, err = cam.StartVideo(ctx, req.CallID, codec)
		}
		if err != nil {
			camErr <- err
			return
		}
		camVideo <- v
	}()
	s := &videoSession{}
	hc := &http.Client{Timeout: 10 * time.Second}
	for i := range o.Subscribers {
		id := strconv.Itoa(videoFirst + 1 + i)
		tok, err := wsclient.SignIn(ctx, hc, base, id, fanPassword)
		if err != nil {
			return res, fmt.Errorf("dispatcher %s: %w", id, err)
		}
		sub := newVideoSub()
		c, err := termclient.Dial(ctx, termclient.Options{URL: base, Token: tok,
			Media: termclient.MediaOptions{Loopback: true, OnVideoPacket: sub.packet}})
		if err != nil {
			return res, fmt.Errorf("dispatcher %s: %w", id, err)
		}
		closers = append(closers, c)
		var r struct{ CallID, Codec string }
		if err := c.Call(ctx, "video.monitorStart", map[string]any{"msId": strconv.Itoa(videoFirst), "codecs": []string{codec}}, &r); err != nil {
			return res, fmt.Errorf("dispatcher %s: video.monitorStart: %w", id, err)
		}
		v, err := c.StartVideo(ctx, r.CallID, r.Codec)
		if err != nil {
			return res, fmt.Errorf("dispatcher %s: video session: %w", id, err)
		}
		closers = append(closers, v)
		s.subs = append(s.subs, sub)
	}
	select {
	case v := <-camVideo:
		closers = append(closers, v)
		s.publish = v.SendFrame
	case err := <-camErr:
		return res, fmt.Errorf("camera session: %w", err)
	case <-ctx.Done():
		return res, ctx.Err()
	}
	return res, measureVideo(ctx, srv, s, o, &res, t0)
}

// provisionViewers creates the camera terminal (a phone app) and n dispatchers, administrators of its group, in a
// customer whose video limits admit every one of them watching (each viewer is a monitored entry).
func provisionViewers(ctx context.Context, dataDir string, n int) error {
	d, err := app.Open(ctx, config.Config{DataDir: dataDir})
	if err != nil {
		return err
	}
	defer d.Close()
	p, err := sim.Provision(ctx, d, sim.ProvisionOptions{Customer: "Bench Video", First: videoFirst, Count: 1,
		Password: fanPassword, PhoneApps: 1, Dispatchers: n, PasswordHash: cheapHash(fanPassword)})
	if err != nil {
		return err
	}
	l := video.DefaultLimits
	l.MaxMonitors = n
	return video.NewStore(d, nil).SetLimits(ctx, p.CustomerID, l, time.Now().UnixMilli())
}

// --- LiveKit ----------------------------------------------------------------------------------------------------

// RunVideoLiveKit measures LiveKit: one room, one camera publisher, N auto-subscribed subscribers.
func RunVideoLiveKit(ctx context.Context, o VideoOptions) (VideoResult, error) {
	res := VideoResult{Server: "LiveKit " + LiveKitVersion, Codec: o.Codec}
	lk, err := startLiveKit(ctx, o.Dir, o.Bin, o.Log)
	if err != nil {
		return res, err
	}
	defer stop(lk.srv.proc)
	res.RSSBase = lk.srv.rss()
	t0 := time.Now()
	var clients []*lkClient
	defer func() {
		for _, c := range clients {
			c.close()
		}
	}()
	s := &videoSession{}
	for i := 1; i <= o.Subscribers; i++ {
		sub := newVideoSub()
		c, err := lkJoin(ctx, lk.base, "sub-"+strconv.Itoa(i), o.Codec, sub.read)
		if err != nil {
			return res, fmt.Errorf("subscriber %d: %w", i, err)
		}
		clients = append(clients, c)
		s.subs = append(s.subs, sub)
	}
	pub, err := lkJoin(ctx, lk.base, "publisher", o.Codec, nil)
	if err != nil {
		return res, fmt.Errorf("publisher: %w", err)
	}
	clients = append(clients, pub)
	vc, err := termclient.VideoCodec(o.Codec)
	if err != nil {
		return res, err
	}
	cam, err := webrtc.NewTrackLocalStaticSample(vc, "bench-cam", "bench")
	if err != nil {
		return res, err
	}
	size := termclient.ClipSizes[0]
	if err := pub.publish(ctx, lkAddVideoTrack("bench-cam", "camera", size.Width, size.Height), cam); err != nil {
		return res, fmt.Errorf("publish: %w", err)
	}
	s.publish = func(frame []byte, d time.Duration) error {
		return cam.WriteSample(pionmedia.Sample{Data: frame, Duration: d})
	}
	return res, measureVideo(ctx, lk.srv, s, o, &res, t0)
}
