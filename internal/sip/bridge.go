package sip

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/rtp"

	"tenfour/internal/directory"
	"tenfour/internal/platform/identity"
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
// and libopus in process between a G.711 phone and the group's Opus (an Opus phone's audio passes as it is;
// transcode.go).
type bridge struct {
	term *termclient.Client
	gid  string // the group of a call into a group
	call string // the individual call's id (individual.go): its floor requests name it; "" in a group
	log  *slog.Logger

	// calls gets the session's call events (call.invite, call.state) in an individual call; nil in a group, where
	// an individual call offered to the phone is refused busy
	calls chan<- termclient.Event

	media   LocalMedia              // the session's audio in process (Calls.Local)
	dec     atomic.Pointer[toPhone] // the group's audio to the phone; nil until the call is answered
	talking atomic.Bool             // the SIP side holds the floor, or talks on a duplex call's open line
	line    atomic.Bool             // the individual call is full duplex: no floor, no keys (line.go)
	revoked chan struct{}           // the server took the floor away
	callID  atomic.Value            // the call whose floor it holds (string)

	phoneMu sync.Mutex // one writer at a time on the phone's RTP: the group's audio and the tones
	phone   *rtpSession

	// The phone's side of the media (its SDP direction, reinvite.go): hears — it takes this side's audio (not on
	// hold); speaks — it sends (a phone holding or held may send nothing, and is not lost for it).
	hears, speaks atomic.Bool
	// the payload types the phone sends its audio and its keys on (-1: no keys), and the codec of its audio; a
	// re-INVITE may change them (reinvite.go)
	inPT, inEvents, inCodec atomic.Int32
	// talk is how the account asks for the floor (a directory.SIPTalk mode, Calls.Talk)
	talk   string
	live   *liveCalls
	dialog sipDialog
}

// openBridge logs the group side in: a terminal session of the SIP account with its media connected. calls gets
// its call events (an individual call), nil in a group call.
func (s *Server) openBridge(ctx context.Context, a admission, log *slog.Logger, calls chan<- termclient.Event) (*bridge, error) {
	b := &bridge{log: log, calls: calls, live: &s.live, talk: s.talkOf(ctx, a.p)}
	if a.gid != 0 {
		b.gid = strconv.FormatInt(int64(a.gid), 10)
	}
	b.callID.Store("")
	b.revoked = make(chan struct{}, 1)
	b.media = s.opt.Calls.Local(a.p.AccountID, b.fromGroup)
	term, err := s.opt.Calls.Login(ctx, termclient.Options{UID: a.p.AccountID, OnEvent: b.event,
		Media: termclient.MediaOptions{Local: b.media.Ticket()}})
	if err != nil {
		b.media.Close()
		return nil, err
	}
	if err := term.Connect(ctx); err != nil {
		term.Close()
		b.media.Close()
		return nil, err
	}
	b.term = term
	return b, nil
}

// talkOf is how account p asks for the floor (Calls.Talk); auto when that cannot be read.
func (s *Server) talkOf(ctx context.Context, p identity.Principal) string {
	if s.opt.Calls.Talk == nil {
		return directory.SIPTalkAuto
	}
	talk, err := s.opt.Calls.Talk.SIPTalk(ctx, p.CustomerID, p.AccountID)
	if err != nil {
		slog.WarnContext(ctx, "sip: the account's talk setting", "msId", p.AccountID, "err", err)
		return directory.SIPTalkAuto
	}
	return talk
}

// closeBridge logs the group side out. The phone's registration holds the account online (Options.Hold), so that
// logout leaves its presence alone.
func (s *Server) closeBridge(b *bridge) {
	if b.talking.Load() && !b.line.Load() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_ = b.term.ReleaseFloor(ctx, b.callID.Load().(string))
		cancel()
	}
	b.term.Close()
	b.media.Close()
}

// fromGroup takes a packet the group side hears (the session's local media: media.Hear) through the decoder to
// the phone.
func (b *bridge) fromGroup(h *rtp.Header, payload []byte) {
	if d := b.dec.Load(); d != nil {
		if err := d.packet(h.SequenceNumber, payload, b.writePhone); err != nil && !errors.Is(err, errLatePacket) && !errors.Is(err, errClosedTranscoder) {
			b.log.Debug("sip: the group's audio to the phone", "err", err)
		}
	}
}

// connect gives the bridge the call's media with the phone, and registers the call for its re-INVITEs
// (reinvite.go) until disconnect: before the call's answer goes out, so that a re-INVITE right after it finds the
// call.
func (b *bridge) connect(phone *rtpSession, dialog sipDialog) (disconnect func()) {
	b.phoneMu.Lock()
	b.phone, b.dialog = phone, dialog
	b.phoneMu.Unlock()
	b.hears.Store(true)
	b.speaks.Store(true)
	b.inPT.Store(int32(phone.pt))
	b.inEvents.Store(int32(phone.events))
	b.inCodec.Store(int32(phone.codec))
	return b.live.attach(dialog.callID, b)
}

// run carries the connected call until it ends: the phone's audio into the group while it holds the floor, the
// group's into the phone, the talk keys into floor requests. It returns why the call ended.
func (b *bridge) run(ctx context.Context, rtpTimeout time.Duration) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	phone := b.phone
	b.phoneMu.Lock() // a re-INVITE changing the codec now waits for this decoder, then replaces it
	dec, err := newToPhone(b.phone.codec)
	if err == nil {
		b.dec.Store(dec)
	}
	b.phoneMu.Unlock()
	if err != nil {
		return err
	}
	defer func() { b.dec.Swap(nil).close() }() // the decoder of the call's last codec (a re-INVITE may change it)

	var wg sync.WaitGroup
	floor := make(chan rune, 4)
	wg.Add(3)
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
	cancel(b.fromPhone(ctx, phone, floor, rtpTimeout))
	wg.Wait()
	return context.Cause(ctx)
}

// fromPhone reads the phone's RTP: its audio goes to the encoder while the SIP side holds the floor, its talk keys
// to floorKeys (dropped when presses come faster than the floor answers); a phone silent for rtpTimeout is gone.
// A phone that offered no keys (no telephone-event: a radio gateway) talks by voice activity (vad.go), and so
// does an account set to talk by voice (its keys are then ignored); an account set to keys never talks by voice.
func (b *bridge) fromPhone(ctx context.Context, phone *rtpSession, floor chan<- rune, rtpTimeout time.Duration) error {
	buf := make([]byte, 1500)
	send := func(packet []byte) error {
		b.media.Say(packet)
		return nil
	}
	wasTalking := false
	var p rtp.Packet
	var keys keyPresses
	keysTalk := b.talk != directory.SIPTalkVoice // an account set to voice: its keys are ignored
	byVoice := !keysTalk || (b.talk != directory.SIPTalkKeys && b.inEvents.Load() < 0)
	var coding phoneCoding
	defer coding.close()
	for {
		err := phone.read(&p, buf, rtpTimeout)
		switch {
		case ctx.Err() != nil:
			return context.Cause(ctx)
		case errors.Is(err, os.ErrDeadlineExceeded) && !b.speaks.Load():
			continue // on hold: the phone may send nothing
		case errors.Is(err, os.ErrDeadlineExceeded):
			return errLostRTP
		case err != nil:
			return err
		}
		var key rune
		pressed := false
		switch {
		case int32(p.PayloadType) == b.inPT.Load():
			if err := coding.follow(Codec(b.inCodec.Load()), byVoice); err != nil {
				return err
			}
			if coding.voice != nil {
				key, pressed = coding.voice.frame(p.Payload)
			}
			talking := b.talking.Load()
			if talking && !wasTalking {
				coding.enc.reset() // what was left of the last talk is not the start of this one
			}
			if wasTalking = talking; talking {
				if err := coding.enc.write(p.Payload, send); err != nil {
					return err
				}
			}
		case keysTalk && int32(p.PayloadType) == b.inEvents.Load():
			key, pressed = keys.press(&p)
		}
		if pressed && !b.line.Load() { // on an open line the keys and the voice ask for nothing
			select {
			case floor <- key:
			default:
			}
		}
	}
}

// phoneCoding is what reads the phone's audio in its codec: the encoder toward the group and, for a phone that
// talks by voice, its voice activity; made anew when a re-INVITE changes the codec.
type phoneCoding struct {
	codec Codec
	enc   *toGroup
	voice *voiceActivity
}

// follow has the coding read codec (byVoice: with voice activity), making it anew on a change.
func (c *phoneCoding) follow(codec Codec, byVoice bool) error {
	if c.enc != nil && c.codec == codec {
		return nil
	}
	c.close()
	enc, err := newToGroup(codec)
	if err != nil {
		return err
	}
	c.codec, c.enc = codec, enc
	if byVoice {
		if c.voice, err = newVoiceActivity(codec); err != nil {
			return err
		}
	}
	return nil
}

func (c *phoneCoding) close() {
	if c.enc != nil {
		c.enc.close()
		c.enc = nil
	}
	if c.voice != nil {
		c.voice.close()
		c.voice = nil
	}
}

// phoneCodec is the codec of the call's audio with the phone now (a re-INVITE may change it).
func (b *bridge) phoneCodec() Codec {
	b.phoneMu.Lock()
	defer b.phoneMu.Unlock()
	return b.phone.codec
}

// writePhone sends a frame to the phone, unless it is on hold (it does not take audio now).
func (b *bridge) writePhone(frame []byte) error {
	if !b.hears.Load() {
		return nil
	}
	b.phoneMu.Lock()
	defer b.phoneMu.Unlock()
	return b.phone.write(frame)
}

// play sends a tone to the phone at its pace.
func (b *bridge) play(ctx context.Context, t tone) {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for _, f := range t.in(b.phoneCodec()) {
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
