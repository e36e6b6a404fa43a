package sip_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emiago/sipgo"
	"github.com/emiago/sipgo/sip"
	"github.com/pion/rtp"
	"github.com/pion/sdp/v3"
	"github.com/pion/webrtc/v4/pkg/media/oggwriter"
	"github.com/zaf/g711"

	"tenfour/internal/media/libopus"
	sipside "tenfour/internal/sip"
	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

// softphone is a SIP phone on loopback for the call tests: sipgo's dialog client for the INVITE, its own RTP
// socket sending 20 ms PCMU frames (silence unless told otherwise) and RFC 4733 keys, and keeping what it hears.
type softphone struct {
	t      *testing.T
	w      *sipWorld
	c      *sipgo.Client
	rtp    *net.UDPConn
	bye    func(context.Context) error // the call's dialog's BYE (its INVITE's, or one it answered: dial_test.go)
	dialog *sipgo.DialogClientSession  // the dialog of the call it placed (call)
	remote *net.UDPAddr
	rang   bool // a 180 came before the INVITE's final answer
	// transport is the INVITE's ("" is UDP; TLS wants c trusting the server's certificate: tls_test.go), sec the
	// phone's SRTP (nil: plain RTP; srtp_test.go)
	transport string
	sec       *phoneSRTP
	// law is the G.711 law it talks and hears (Ulaw unless a re-INVITE moved the call: reinvite_test.go)
	law sipside.Codec

	mu     sync.Mutex
	paused bool     // sends nothing (a phone on hold may not)
	queue  [][]byte // PCMU frames to send before silence again
	keys   []byte   // RFC 4733 events to send
	heard  [][]byte // PCMU payloads received
	stop   chan struct{}
}

func newSoftphone(t *testing.T, w *sipWorld) *softphone {
	t.Helper()
	conn, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return &softphone{t: t, w: w, c: phoneClient(t), rtp: conn, stop: make(chan struct{})}
}

// offer is the phone's SDP: PCMU, PCMA and telephone-event 101 on its RTP socket (on RTP/SAVP with its key
// when it has SRTP).
func (p *softphone) offer() []byte { return p.offerWith("sendrecv") }

// offerWith is the offer with the phone's side of the stream: sendrecv, sendonly (holding), inactive, recvonly.
func (p *softphone) offerWith(direction string) []byte {
	port := p.rtp.LocalAddr().(*net.UDPAddr).Port
	return fmt.Appendf(nil, "v=0\r\no=phone 1 1 IN IP4 127.0.0.1\r\ns=call\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\n"+
		"m=audio %d %s 0 8 101\r\na=rtpmap:0 PCMU/8000\r\na=rtpmap:8 PCMA/8000\r\n"+
		"a=rtpmap:101 telephone-event/8000\r\na=fmtp:101 0-16\r\na=ptime:20\r\na=%s\r\n%s", port, p.sec.protocol(), direction, p.sec.crypto())
}

// call INVITEs group gid, answering the digest challenge; on 200 it ACKs and starts its media. It returns the
// final status.
func (p *softphone) call(gid string) int {
	p.t.Helper()
	req := p.w.request(sip.INVITE, phone, cmp.Or(p.transport, "UDP"), gid)
	req.SetBody(p.offer())
	req.AppendHeader(sip.NewHeader("Content-Type", "application/sdp"))
	ua := sipgo.DialogUA{Client: p.c, ContactHDR: sip.ContactHeader{Address: sip.Uri{User: phone, Host: "127.0.0.1", Port: 5099}}}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	d, err := ua.WriteInvite(ctx, req)
	if err != nil {
		p.t.Fatalf("INVITE %s: %v", gid, err)
	}
	seen := func(r *sip.Response) error {
		p.rang = p.rang || r.StatusCode == sip.StatusRinging
		return nil
	}
	if err := d.WaitAnswer(ctx, sipgo.AnswerOptions{Username: phone, Password: testkit.Password, OnResponse: seen}); err != nil { // the challenge answered
		var re *sipgo.ErrDialogResponse
		if errors.As(err, &re) {
			return re.Res.StatusCode
		}
		p.t.Fatalf("INVITE %s: %v", gid, err)
	}
	p.bye, p.dialog = d.Bye, d
	var sd sdp.SessionDescription
	if err := sd.Unmarshal(d.InviteResponse.Body()); err != nil {
		p.t.Fatalf("answer SDP: %v\n%s", err, d.InviteResponse.Body())
	}
	md := sd.MediaDescriptions[0]
	if md.MediaName.Formats[0] != "0" || !slicesContains(md.MediaName.Formats, "101") {
		p.t.Fatalf("answer formats %v, want PCMU first and telephone-event 101", md.MediaName.Formats)
	}
	p.remote = &net.UDPAddr{IP: net.ParseIP(sd.ConnectionInformation.Address.Address), Port: md.MediaName.Port.Value}
	if err := p.sec.answered(md); err != nil {
		p.t.Fatalf("answer SDP: %v\n%s", err, d.InviteResponse.Body())
	}
	if err := d.Ack(ctx); err != nil {
		p.t.Fatal(err)
	}
	go p.send()
	go p.receive()
	p.t.Cleanup(p.hangUp)
	return sip.StatusOK
}

func slicesContains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// hangUp says BYE (once) and stops the media.
func (p *softphone) hangUp() {
	select {
	case <-p.stop:
		return
	default:
	}
	close(p.stop)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := p.bye(ctx); err != nil {
		p.t.Errorf("BYE: %v", err)
	}
}

// lose stops the phone's media without a BYE (a phone that lost its network).
func (p *softphone) lose() {
	close(p.stop)
	p.rtp.Close()
}

// send is the phone's microphone: a PCMU frame every 20 ms (queued audio, else silence), keys as RFC 4733
// events (three packets of one event, the last with the end bit).
func (p *softphone) send() {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	var seq uint16
	var ts uint32
	write := func(pt uint8, marker bool, ts uint32, payload []byte) {
		seq++
		b, _ := (&rtp.Packet{Header: rtp.Header{Version: 2, PayloadType: pt, SequenceNumber: seq, Timestamp: ts, SSRC: 0x1234,
			Marker: marker}, Payload: payload}).Marshal()
		_, _ = p.rtp.WriteToUDP(p.sec.seal(b), p.remote)
	}
	for {
		select {
		case <-tick.C:
		case <-p.stop:
			return
		}
		p.mu.Lock()
		if p.paused {
			p.mu.Unlock()
			continue
		}
		law := p.law
		frame := silence[law]
		if len(p.queue) > 0 {
			frame, p.queue = p.queue[0], p.queue[1:]
		}
		var key = -1
		if len(p.keys) > 0 {
			key, p.keys = int(p.keys[0]), p.keys[1:]
		}
		p.mu.Unlock()
		if key >= 0 {
			for i := range 3 {
				end := byte(0)
				if i == 2 {
					end = 0x80
				}
				write(101, i == 0, ts, []byte{byte(key), end | 10, 0, byte(160 * (i + 1))})
			}
		}
		write(ptOf(law), false, ts, frame)
		ts += 160
	}
}

func (p *softphone) receive() {
	buf := make([]byte, 1500)
	for {
		n, _, err := p.rtp.ReadFromUDP(buf)
		if err != nil {
			return
		}
		var pkt rtp.Packet
		if b, ok := p.sec.open(buf[:n]); !ok || pkt.Unmarshal(b) != nil {
			continue
		}
		p.mu.Lock()
		if pkt.PayloadType == ptOf(p.law) {
			p.heard = append(p.heard, bytes.Clone(pkt.Payload))
		}
		p.mu.Unlock()
	}
}

// press sends a key (RFC 4733 event: 10 is *, 11 is #).
func (p *softphone) press(key rune) {
	ev := map[rune]byte{'*': 10, '#': 11}[key]
	p.mu.Lock()
	p.keys = append(p.keys, ev)
	p.mu.Unlock()
}

// talk queues G.711 of a tone, in the phone's law.
func (p *softphone) talk(freq float64, d time.Duration) {
	pcm := sine(freq, d, 8000)
	p.mu.Lock()
	defer p.mu.Unlock()
	frames := g711.EncodeUlaw(pcm)
	if p.law == sipside.Alaw {
		frames = g711.EncodeAlaw(pcm)
	}
	for len(frames) >= 160 {
		p.queue = append(p.queue, frames[:160])
		frames = frames[160:]
	}
}

// silence is a 20 ms G.711 frame of silence in each law.
var silence = map[sipside.Codec][]byte{sipside.Ulaw: bytes.Repeat([]byte{0xff}, 160), sipside.Alaw: bytes.Repeat([]byte{0xd5}, 160)}

// ptOf is a G.711 law's static payload type.
func ptOf(law sipside.Codec) uint8 {
	if law == sipside.Alaw {
		return 8
	}
	return 0
}

// heardCount is how many frames the phone heard so far.
func (p *softphone) heardCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.heard)
}

// quiet is how many frames the phone heard after its first `from`, once none came for 300 ms (-1 before).
func (p *softphone) quiet(from int) int {
	n := p.heardCount()
	time.Sleep(300 * time.Millisecond)
	if p.heardCount() != n {
		return -1
	}
	return n - from
}

// heardSince is the loudness (RMS of 16-bit samples) of what the phone heard after its first `from` frames.
func (p *softphone) heardSince(from int) (frames int, rms float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var g711 []byte
	for _, f := range p.heard[min(from, len(p.heard)):] {
		g711 = append(g711, f...)
	}
	return len(p.heard), sipside.Loudness(p.law, g711)
}

// sine is 16-bit little-endian PCM of a tone at a third of full scale.
func sine(freq float64, d time.Duration, rate int) []byte {
	n := int(d.Seconds() * float64(rate))
	pcm := make([]byte, 2*n)
	for i := range n {
		binary.LittleEndian.PutUint16(pcm[2*i:], uint16(int16(10000*math.Sin(2*math.Pi*freq*float64(i)/float64(rate)))))
	}
	return pcm
}

func loudness(pcm []byte) float64 {
	if len(pcm) < 2 {
		return 0
	}
	var sum float64
	for i := 0; i+1 < len(pcm); i += 2 {
		v := float64(int16(binary.LittleEndian.Uint16(pcm[i:])))
		sum += v * v
	}
	return math.Sqrt(sum / float64(len(pcm)/2))
}

// loudFrames is how many 20 ms frames of 8 kHz 16-bit PCM are well above silence.
func loudFrames(pcm []byte) int {
	n := 0
	for ; len(pcm) >= 320; pcm = pcm[320:] {
		if loudness(pcm[:320]) > 1000 {
			n++
		}
	}
	return n
}

// opusPCM decodes Opus packets with ffmpeg into 8 kHz mono 16-bit PCM.
func opusPCM(t *testing.T, pkts []termclient.Packet) []byte {
	t.Helper()
	var ogg bytes.Buffer
	w, err := oggwriter.NewWith(&ogg, 48000, 2)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range pkts {
		_ = w.WriteRTP(&rtp.Packet{Header: rtp.Header{SequenceNumber: uint16(i), Timestamp: uint32(i * 960)}, Payload: p.Payload})
	}
	cmd := exec.Command("ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "ogg", "-i", "pipe:0", "-f", "s16le", "-ac", "1", "-ar", "8000", "pipe:1")
	cmd.Stdin = &ogg
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ffmpeg decoding what the terminal heard: %v", err)
	}
	return out
}

// floorTalker waits for a floor.state event of the group on c and returns its talker ("" when free).
func floorTalker(ctx context.Context, t *testing.T, c *termclient.Client, gid string, want string) {
	t.Helper()
	_, err := c.WaitEvent(ctx, "floor.state", func(e termclient.Event) bool {
		var v struct {
			GID    string `json:"gid"`
			Talker *struct {
				MsID string `json:"msId"`
			} `json:"talker"`
		}
		if e.Decode(&v) != nil || v.GID != gid {
			return false
		}
		return (v.Talker == nil && want == "") || (v.Talker != nil && v.Talker.MsID == want)
	})
	if err != nil {
		t.Fatalf("floor of group %s: no state with talker %q: %v", gid, want, err)
	}
}

// groupTerminal is the native terminal of the group Ops, logged in with its media connected (on loopback).
func (w *sipWorld) groupTerminal(ctx context.Context, t *testing.T) *termclient.Client {
	t.Helper()
	term := w.Client(termclient.Options{UID: terminal, Password: testkit.Password,
		Media: termclient.MediaOptions{Loopback: true, KeepPayloads: true}})
	if err := term.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	return term
}

func (w *sipWorld) groupID(t *testing.T, name string) string {
	t.Helper()
	var id int64
	if err := w.DB.QueryRow(context.Background(), `SELECT id FROM ptt_groups WHERE customer_id = ? AND name = ?`, w.Customer, name).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return strconv.FormatInt(id, 10)
}

// callWorld is startSIP for a test of calls: media on loopback, the id of the group "Ops" (every account's), and a
// context that ends after within.
func callWorld(t *testing.T, engine string, within time.Duration) (context.Context, *sipWorld, string) {
	t.Helper()
	w := startSIP(t, engine, testkit.LoopbackMedia)
	// the server compiles libopus as it starts (Server.Run); a call answered before that is done waits for it and
	// the audio sent meanwhile is not heard — a test run alone would place its first call in that second
	if err := libopus.Available(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), within)
	t.Cleanup(cancel)
	return ctx, w, w.groupID(t, "Ops")
}

// A registered phone calls its group: 200 with PCMU; `*` gives it the floor (the group's terminal sees it
// talk), its tone reaches the terminal, `#` frees the floor; the terminal's talk reaches the phone; a `*` while
// the terminal holds the floor is refused (a tone, the floor unchanged); BYE ends the session, the phone stays
// registered and may call again. A group it is not a member of, and one that does not exist, are refused alike.
func TestCallIntoGroup(t *testing.T) {
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Skip("no ffmpeg")
	}
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		ctx, w, gid := callWorld(t, engine, 60*time.Second)
		if res := w.register(t, phoneClient(t), "UDP", phone, testkit.Password, 300); res.StatusCode != sip.StatusOK {
			t.Fatalf("REGISTER: %d", res.StatusCode)
		}
		other := strconv.FormatInt(testkit.Group(t, w.DB, w.Customer, "Elsewhere"), 10)
		for _, g := range []string{other, "99999999", "ops"} {
			if code := newSoftphone(t, w).call(g); code != sip.StatusForbidden {
				t.Fatalf("INVITE to group %q the phone is not in: %d, want 403", g, code)
			}
		}

		term := w.groupTerminal(ctx, t)

		p := newSoftphone(t, w)
		if code := p.call(gid); code != sip.StatusOK {
			t.Fatalf("INVITE to its group: %d, want 200", code)
		}
		mark := p.heardCount()
		p.press('*')
		floorTalker(ctx, t, term, gid, phone)
		// the grant's tone: a short beep (150 ms: 7 frames), the group being silent
		testkit.Eventually(t, 5*time.Second, "the grant tone", func() bool { return p.quiet(mark) >= 7 })
		if n, rms := p.heardSince(mark); n-mark > 10 || rms < 1000 {
			t.Fatalf("the grant tone: %d frames at RMS %.0f, want 7 loud ones", n-mark, rms)
		}
		// the phone's silence goes to the group while it holds the floor, then its second of tone
		p.talkToGroup(ctx, term)
		p.press('#')
		floorTalker(ctx, t, term, gid, "")

		mark = p.hearGroup(ctx, term, gid)

		// refused while the terminal holds the floor: a tone to the phone, the floor stays the terminal's
		testkit.Eventually(t, 5*time.Second, "the terminal's talk fully heard", func() bool { return p.quiet(mark) > 0 })
		mark = p.heardCount()
		p.press('*')
		// the refusal's tone: a longer, lower one (400 ms: 20 frames), the group being silent
		testkit.Eventually(t, 5*time.Second, "the refusal tone", func() bool { return p.quiet(mark) >= 15 })
		if n, rms := p.heardSince(mark); n-mark > 25 || rms < 1000 {
			t.Fatalf("the refusal tone: %d frames at RMS %.0f, want 20 loud ones", n-mark, rms)
		}
		quiet, stop := context.WithTimeout(ctx, time.Second)
		defer stop()
		if _, err := term.WaitEvent(quiet, "floor.state", func(e termclient.Event) bool {
			return strings.Contains(string(e.Data), `"msId":"`+phone+`"`)
		}); err == nil {
			t.Fatal("the phone took the floor the terminal holds")
		}
		if err := term.ReleaseFloor(ctx, ""); err != nil {
			t.Fatal(err)
		}

		p.hangUp()
		time.Sleep(1500 * time.Millisecond) // the bridge's socket has closed and its logout run
		if !w.online(t, phone) {
			t.Fatal("after the call the registered phone is offline")
		}
		second := newSoftphone(t, w)
		if code := second.call(gid); code != sip.StatusOK {
			t.Fatalf("INVITE after the first call ended: %d, want 200 (the first session is gone)", code)
		}
		if code := newSoftphone(t, w).call(gid); code != sip.StatusBusyHere {
			t.Fatalf("a second INVITE of a phone in a call: %d, want 486", code)
		}

		// a phone that stops sending RTP is gone: its call ends (10 s), the next INVITE is answered again
		second.lose()
		testkit.Eventually(t, 25*time.Second, "the silent phone's call ends", func() bool {
			return newSoftphone(t, w).call(gid) == sip.StatusOK
		})
	})
}

// talkToGroup is the phone, holding the floor, saying a second of a 440 Hz tone: the group's terminal hears 40
// loud frames of it at least.
func (p *softphone) talkToGroup(ctx context.Context, term *termclient.Client) {
	p.t.Helper()
	before := term.ReceivedCount()
	p.talk(440, time.Second)
	if _, err := term.WaitPackets(ctx, before+100); err != nil {
		p.t.Fatal(err)
	}
	if n := loudFrames(opusPCM(p.t, term.Received()[before:])); n < 40 {
		p.t.Fatalf("the terminal heard %d loud frames of the phone's second of tone, want 40 at least", n)
	}
}

// hearGroup is the group's terminal taking the floor and playing a tone: the phone hears it. It returns how many
// frames the phone had heard before.
func (p *softphone) hearGroup(ctx context.Context, term *termclient.Client, gid string) int {
	p.t.Helper()
	mark := p.heardCount()
	if _, err := term.RequestFloor(ctx, "", gid, false); err != nil {
		p.t.Fatal(err)
	}
	if _, err := term.PlayOgg(ctx, toneOgg(p.t), 1); err != nil {
		p.t.Fatal(err)
	}
	testkit.Eventually(p.t, 10*time.Second, "the phone hears the group's talker", func() bool {
		_, rms := p.heardSince(mark)
		return rms > 1000
	})
	return mark
}

// toneOgg is an Ogg Opus file of a 440 Hz tone (ffmpeg's sine source), for a terminal to play.
func toneOgg(t *testing.T) string {
	t.Helper()
	path := t.TempDir() + "/tone.ogg"
	out, err := exec.Command("ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=1",
		"-c:a", "libopus", "-b:a", "32k", "-frame_duration", "20", "-ac", "2", "-ar", "48000", path).CombinedOutput()
	if err != nil {
		t.Fatalf("ffmpeg: %v %s", err, out)
	}
	return path
}

// A real phone, Debian's baresip (`make test-deps`): it registers, calls the group, presses `*` (RFC 4733) and its
// microphone — a WAV of a 440 Hz tone — reaches a native terminal in the group; `#` frees the floor; what the
// terminal says is in baresip's recording of what it heard. Once talking G.711 (transcoded in process), once
// Opus (its packets and the group's passed as they are).
func TestBaresipCallIntoGroup(t *testing.T) {
	for _, codec := range []string{"PCMU", "opus"} {
		t.Run(codec, func(t *testing.T) {
			ctx, w, gid := callWorld(t, "sqlite", 60*time.Second)
			b := startBaresip(ctx, t, w, codec)
			term := w.groupTerminal(ctx, t)
			b.say(fmt.Sprintf("/dial sip:%s@%s:%d\n", gid, w.host, w.port))
			b.talksTo(ctx, t, term)
			b.say("#")
			floorTalker(ctx, t, term, gid, "")
			b.hears(ctx, t, term, "", gid)
		})
	}
}

// baresip is Debian's baresip registered as the phone: its microphone a WAV of a 440 Hz tone, what it hears
// recorded in dir (sndfile's dump of its decoder), commands through its console (say).
type baresip struct {
	dir  string
	cons int
	rate int // its audio's sample rate: 8 kHz with G.711, 48 kHz with Opus
	t    *testing.T
}

// startBaresip starts baresip talking codec (baresip's name: PCMU, opus) — the test skips without it or
// ffmpeg — and waits until it is registered.
func startBaresip(ctx context.Context, t *testing.T, w *sipWorld, codec string) *baresip {
	t.Helper()
	bin, err := exec.LookPath("baresip")
	if err != nil {
		t.Skip("baresip is not installed (scripts/test-deps.sh installs it)")
	}
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Skip("no ffmpeg")
	}
	b := &baresip{dir: t.TempDir(), cons: testkit.FreePort(t), rate: 8000, t: t}
	module := "g711.so"
	if codec == "opus" {
		b.rate, module = 48000, "opus.so"
	}
	dir := b.dir
	if out, err := exec.Command("ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=60",
		"-ar", strconv.Itoa(b.rate), "-ac", "1", dir+"/mic.wav").CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v %s", err, out)
	}
	conf := fmt.Sprintf(`module_path /usr/lib/baresip/modules
sip_listen 127.0.0.1:0
audio_source aufile,%s/mic.wav
audio_player aubridge,nowhere
audio_alert aubridge,nowhere
ausrc_srate %d
auplay_srate %d
ausrc_channels 1
auplay_channels 1
snd_path %s
cons_listen 127.0.0.1:%d
module %s
module aufile.so
module aubridge.so
module sndfile.so
module cons.so
module_app account.so
module_app menu.so
`, dir, b.rate, b.rate, dir, b.cons, module)
	account := fmt.Sprintf("<sip:%s@%s:%d;transport=udp>;auth_pass=%s;regint=600;audio_codecs=%s\n", phone, w.host, w.port, testkit.Password, codec)
	for name, body := range map[string]string{"config": conf, "accounts": account} {
		if err := os.WriteFile(dir+"/"+name, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, "-f", dir)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("baresip:\n%s", out.String())
		}
	})
	testkit.Eventually(t, 15*time.Second, "baresip registered", func() bool { return w.online(t, phone) })
	return b
}

// say sends a command to baresip's console.
func (b *baresip) say(s string) {
	c, err := net.Dial("udp", fmt.Sprintf("127.0.0.1:%d", b.cons))
	if err != nil {
		b.t.Fatal(err)
	}
	defer c.Close()
	_, _ = c.Write([]byte(s))
}

// talksTo presses `*` until term sees baresip hold a floor, and checks that its tone then reaches term.
func (b *baresip) talksTo(ctx context.Context, t *testing.T, term *termclient.Client) {
	t.Helper()
	testkit.Eventually(t, 15*time.Second, "baresip talks", func() bool {
		b.say("*")
		quick, stop := context.WithTimeout(ctx, time.Second)
		defer stop()
		_, err := term.WaitEvent(quick, "floor.state", func(e termclient.Event) bool {
			return strings.Contains(string(e.Data), `"msId":"`+phone+`"`)
		})
		return err == nil
	})
	before := term.ReceivedCount()
	if _, err := term.WaitPackets(ctx, before+50); err != nil {
		t.Fatal(err)
	}
	if n := loudFrames(opusPCM(t, term.Received()[before:])); n < 40 {
		t.Fatalf("the terminal heard %d loud frames of baresip's tone, want 40 at least", n)
	}
}

// heard is baresip's recording of what it heard so far.
func (b *baresip) heard() []byte {
	dumps, _ := filepath.Glob(b.dir + "/dump-*-dec.wav")
	if len(dumps) != 1 {
		b.t.Fatalf("baresip's recordings of what it heard: %v, want one", dumps)
	}
	data, err := os.ReadFile(dumps[0])
	if err != nil {
		b.t.Fatal(err)
	}
	return data
}

// hears has term talk in call callID or group gid and checks that baresip heard it (what came before, the
// grant's beep, is left out).
func (b *baresip) hears(ctx context.Context, t *testing.T, term *termclient.Client, callID, gid string) {
	t.Helper()
	time.Sleep(time.Second) // the grant's beep is in the file
	mark := len(b.heard())
	if _, err := term.RequestFloor(ctx, callID, gid, false); err != nil {
		t.Fatal(err)
	}
	if _, err := term.PlayOgg(ctx, toneOgg(t), 1); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, 10*time.Second, "baresip heard the terminal", func() bool {
		data := b.heard()
		return len(data) > mark+b.rate && loudness(data[mark:]) > 1000 // half a second at least
	})
}

// TestMain: the SIP accounts and the terminals they call make password hashes; no test here is about them.
func TestMain(m *testing.M) { testkit.RunWithCheapHashes(m) }
