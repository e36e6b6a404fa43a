package sip

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4/pkg/media/oggreader"
	"github.com/pion/webrtc/v4/pkg/media/oggwriter"

	"tenfour/internal/media/ffchild"
	"tenfour/internal/termclient"
)

// The talk keys (RFC 4733 events, docs/sip.md): press one to ask for the floor, the other to release it.
const (
	keyTalk    = '*'
	keyRelease = '#'
)

// Why a call ends (besides the phone's BYE, which ends the dialog's context).
var (
	errLostRTP    = errors.New("sip: the phone sent no RTP")
	errGroupEnded = errors.New("sip: the group side's session ended")
)

// bridge joins one SIP call to its group: a terminal session logged in as the SIP account (its socket and WebRTC
// media, so the floor, priorities, pre-emption, talk-time limits, recordings and call records are internal/call's),
// and two ffmpeg children between the phone's G.711 and the group's Opus.
type bridge struct {
	term *termclient.Client
	gid  string // the group of a call into a group
	call string // the individual call's id (individual.go): its floor requests name it; "" in a group
	log  *slog.Logger
	law  string // ffchild.FormatMulaw or FormatAlaw, as answered

	// calls gets the session's call events (call.invite, call.state) in an individual call; nil in a group, where
	// an individual call offered to the phone is refused busy
	calls chan<- termclient.Event

	dec     atomic.Pointer[oggwriter.OggWriter] // the group's Opus into the decoder; nil until the call is answered
	talking atomic.Bool                         // the SIP side holds the floor
	revoked chan struct{}                       // the server took the floor away
	callID  atomic.Value                        // the call whose floor it holds (string)

	phoneMu sync.Mutex // one writer at a time on the phone's RTP: the group's audio and the tones
	phone   *rtpSession
}

// openBridge logs the group side in: a terminal session of the SIP account with its media connected. calls gets
// its call events (an individual call), nil in a group call.
func (s *Server) openBridge(ctx context.Context, a admission, log *slog.Logger, calls chan<- termclient.Event) (*bridge, error) {
	b := &bridge{log: log, calls: calls}
	if a.gid != 0 {
		b.gid = strconv.FormatInt(int64(a.gid), 10)
	}
	b.callID.Store("")
	b.revoked = make(chan struct{}, 1)
	term, err := s.opt.Calls.Login(ctx, termclient.Options{UID: a.p.AccountID, OnEvent: b.event,
		Media: termclient.MediaOptions{Loopback: true, OnPacket: b.fromGroup}})
	if err != nil {
		return nil, err
	}
	if err := term.Connect(ctx); err != nil {
		term.Close()
		return nil, err
	}
	b.term = term
	return b, nil
}

// closeBridge logs the group side out. The phone's registration holds the account online (Options.Hold), so that
// logout leaves its presence alone.
func (s *Server) closeBridge(b *bridge) {
	if b.talking.Load() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_ = b.term.ReleaseFloor(ctx, b.callID.Load().(string))
		cancel()
	}
	b.term.Close()
}

// primeFrames is how many 20 ms frames of silence a call's decoder is given when it starts (see run). What it
// makes of them comes out at once or ahead of the group's first talk; toPhone sends none of it, so the phone's
// jitter buffer never queues the warm-up ahead of the talker.
const primeFrames = 10

// digitalSilence is the loudness of a G.711 frame of zeros at the most: µ-law's 0xFF is 0, A-law has no zero and
// its 0xD5 is 8.
const digitalSilence = 8

// fromGroup takes a packet the group side hears (its termclient's receive path) into the decoder.
func (b *bridge) fromGroup(p *rtp.Packet) {
	if w := b.dec.Load(); w != nil {
		_ = w.WriteRTP(p)
	}
}

// run carries the answered call until it ends: the phone's audio into the group while it holds the floor, the
// group's into the phone, the talk keys into floor requests. It returns why the call ended.
func (b *bridge) run(ctx context.Context, phone *rtpSession, ffmpeg string, rtpTimeout time.Duration) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	b.law, b.phone = phone.law, phone
	enc, err := startTranscoder(ctx, ffmpeg, b.law, toOpus)
	if err != nil {
		return err
	}
	dec, err := startTranscoder(ctx, ffmpeg, ffchild.FormatOgg, g711Output(b.law))
	if err != nil {
		cancel(err)
		_ = enc.wait()
		return err
	}
	ogg, err := oggwriter.NewWith(dec, 48000, 2)
	if err != nil {
		cancel(err)
		_, _ = io.Copy(io.Discard, enc.Out)
		_, _ = io.Copy(io.Discard, dec.Out)
		_ = enc.wait()
		_ = dec.wait()
		return err
	}
	// ffmpeg sets its decoding up on the first packets it reads and holds the first few frames back meanwhile:
	// fed nothing before the group's first talk, it did that then, and each call's first spurt reached the phone
	// about 100 ms late (issue 34's bench: p95 121 ms, later spurts 21 ms; 3 frames of silence left 61 ms, 6
	// and 10 none — of 10, ffmpeg let 4 out at once and the rest with the first talk). Silence now, with the
	// call, makes it ready before anyone talks.
	for range primeFrames {
		if err := ogg.WriteRTP(&rtp.Packet{Payload: termclient.SilentPacket}); err != nil {
			b.log.Warn("sip: priming the decoder", "err", err)
			break
		}
	}
	b.dec.Store(ogg)

	var wg sync.WaitGroup
	floor := make(chan rune, 4)
	wg.Add(5)
	go func() { defer wg.Done(); cancel(b.toGroup(ctx, enc.Out)) }()
	go func() { defer wg.Done(); cancel(b.toPhone(ctx, dec.Out)) }()
	go func() { defer wg.Done(); b.floorKeys(ctx, floor) }()
	go func() { defer wg.Done(); b.watchRevoked(ctx) }()
	go func() {
		defer wg.Done()
		select {
		case <-b.term.Done():
			cancel(errGroupEnded)
		case <-ctx.Done():
		}
	}()
	stop := context.AfterFunc(ctx, func() { _ = phone.conn.SetReadDeadline(time.Now()) }) // unblocks the phone's read
	defer stop()
	cancel(b.fromPhone(ctx, phone, enc, floor, rtpTimeout))

	b.dec.Store(nil)
	wg.Wait()
	err = context.Cause(ctx)
	if e := enc.wait(); e != nil && ctx.Err() == nil {
		b.log.Warn("sip: ffmpeg (to the group)", "err", e)
	}
	_ = dec.wait()
	if n := enc.dropped.Load() + dec.dropped.Load(); n > 0 {
		b.log.Info("sip: audio dropped behind ffmpeg", "writes", n)
	}
	return err
}

// fromPhone reads the phone's RTP: its audio goes to the encoder while the SIP side holds the floor, its talk keys
// to floorKeys (dropped when presses come faster than the floor answers); a phone silent for rtpTimeout is gone.
// A phone that offered no keys (no telephone-event: a radio gateway) talks by voice activity (vad.go).
func (b *bridge) fromPhone(ctx context.Context, phone *rtpSession, enc io.Writer, floor chan<- rune, rtpTimeout time.Duration) error {
	buf := make([]byte, 1500)
	var p rtp.Packet
	var keys keyPresses
	var voice *voiceActivity
	if phone.events < 0 {
		voice = newVoiceActivity(phone.law)
	}
	for {
		err := phone.read(&p, buf, rtpTimeout)
		switch {
		case ctx.Err() != nil:
			return context.Cause(ctx)
		case errors.Is(err, os.ErrDeadlineExceeded):
			return errLostRTP
		case err != nil:
			return err
		}
		var key rune
		pressed := false
		switch {
		case p.PayloadType == phone.pt:
			if voice != nil {
				key, pressed = voice.frame(p.Payload)
			}
			if b.talking.Load() {
				_, _ = enc.Write(p.Payload)
			}
		case int(p.PayloadType) == phone.events:
			key, pressed = keys.press(&p)
		}
		if pressed {
			select {
			case floor <- key:
			default:
			}
		}
	}
}

// toGroup sends the encoder's Opus packets (one per Ogg page) as the terminal's microphone while the floor is the
// SIP side's (what is left in the encoder after a release is not sent).
func (b *bridge) toGroup(ctx context.Context, out io.Reader) error {
	pages, _, err := oggreader.NewWith(out) // returns once the encoder wrote its header: at the first talk
	if err != nil {
		return err
	}
	for {
		packet, _, err := pages.ParseNextPage()
		if err != nil {
			return err
		}
		if bytes.HasPrefix(packet, []byte("OpusTags")) || !b.talking.Load() {
			continue
		}
		if err := b.term.Send(ctx, [][]byte{packet}, 0); err != nil {
			return err
		}
	}
}

// toPhone writes the decoder's G.711 to the phone, one 20 ms frame per RTP packet.
func (b *bridge) toPhone(ctx context.Context, out io.Reader) error {
	frame := make([]byte, frameSamples)
	opening := true // until the group's first sound: the decoder's warm-up (primeFrames) is not the phone's to hear
	for {
		if _, err := io.ReadFull(out, frame); err != nil {
			return err
		}
		if opening && Loudness(b.law, frame) <= digitalSilence {
			continue
		}
		opening = false
		if err := b.writePhone(frame); err != nil {
			return err
		}
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
	}
}

func (b *bridge) writePhone(frame []byte) error {
	b.phoneMu.Lock()
	defer b.phoneMu.Unlock()
	return b.phone.write(frame)
}

// play sends a tone to the phone at its pace.
func (b *bridge) play(ctx context.Context, t tone) {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for _, f := range t.in(b.law) {
		if b.writePhone(f) != nil {
			return
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			return
		}
	}
}

// floorKeys turns the talk keys into floor requests and releases of the group's call, as a terminal's PTT
// button: the grant or the refusal is heard as a tone.
func (b *bridge) floorKeys(ctx context.Context, keys <-chan rune) {
	for {
		var key rune
		select {
		case key = <-keys:
		case <-ctx.Done():
			return
		}
		switch {
		case key == keyTalk && !b.talking.Load():
			r, err := b.term.RequestFloor(ctx, b.call, b.gid, false)
			if err != nil || r.Status != "granted" {
				b.log.Info("sip: floor refused", "code", termclient.Code(err), "status", r.Status)
				b.play(ctx, toneRefused)
				continue
			}
			b.callID.Store(r.CallID)
			b.talking.Store(true)
			b.play(ctx, toneGranted)
		case key == keyRelease && b.talking.Load():
			b.talking.Store(false)
			if err := b.term.ReleaseFloor(ctx, b.callID.Load().(string)); err != nil {
				b.log.Info("sip: floor release", "err", err)
			}
		}
	}
}

// event sees the group side's socket events: floor.revoked matters to the bridge, rtc.state to its Connect, the
// call events to an individual call (or an offered one is refused busy in a group call); the rest (the group's
// floor states, presence…) is not kept.
func (b *bridge) event(e termclient.Event) bool {
	switch {
	case e.Type == "floor.revoked":
		select {
		case b.revoked <- struct{}{}:
		default: // one pending is enough
		}
	case (e.Type == "call.invite" || e.Type == "call.state") && b.calls != nil:
		select {
		case b.calls <- e: // its reader follows the call throughout, in order (individual.go)
		default:
			b.log.Warn("sip: a call event dropped: its reader is behind", "type", e.Type)
		}
	case e.Type == "call.invite":
		go b.refuseBusy(e)
	}
	return e.Type == "rtc.state"
}

// watchRevoked hears the server take the floor away (pre-emption, the talk-time limit): the phone's audio stops
// going to the group and the phone hears the refusal tone.
func (b *bridge) watchRevoked(ctx context.Context) {
	for {
		select {
		case <-b.revoked:
		case <-ctx.Done():
			return
		}
		if b.talking.Swap(false) {
			b.play(ctx, toneRefused)
		}
	}
}
