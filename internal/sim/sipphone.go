package sim

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/emiago/sipgo"
	"github.com/emiago/sipgo/sip"
	"github.com/pion/rtp"
	"github.com/pion/sdp/v3"
)

// A simulated SIP phone (or radio gateway) of the demo (docs/sip.md): real SIP through
// github.com/emiago/sipgo — REGISTER with digest, an INVITE into one of its groups (digest-challenged or not) —
// and real RTP on its own UDP socket: a G.711 µ-law frame every 20 ms (silence unless it talks), the talk keys as
// RFC 4733 events. What it hears is counted. The bench's SIP rows use it as their phone too.

// SIPPhoneOptions say which account a SIPPhone is and where it registers.
type SIPPhoneOptions struct {
	ID, Password string
	Server       string // the server's SIP address, host:port (UDP)
	// Gateway offers no keys (no telephone-event): a radio gateway, whose voice is its talk key on the server.
	Gateway bool
	// OnHear is called with each G.711 frame the phone hears and its arrival time (on the phone's RTP reader).
	OnHear func(frame []byte, at time.Time)
	// Answer has the phone take the calls it is offered: it listens for INVITEs on a UDP port of its own (the
	// Contact it registers), rings (180) and answers (200, PCMU) at once; the call's media runs as a placed call's,
	// until either side hangs up.
	Answer bool
}

// SIPPhone is one registered SIP phone; its call (one at a time) carries audio until HangUp or Close.
type SIPPhone struct {
	o      SIPPhoneOptions
	host   string
	port   int
	ua     *sipgo.UserAgent
	client *sipgo.Client

	// with Answer: the port its Contact names, where its server takes INVITEs, and their dialogs
	contactPort int
	dialogs     *sipgo.DialogServerCache

	mu       sync.Mutex
	call     *sipgo.DialogClientSession
	answered *sipgo.DialogServerSession // a call it answered (instead of call)
	media    *net.UDPConn
	stop     chan struct{}
	queue    [][]byte  // G.711 frames to send before silence again
	keys     []byte    // RFC 4733 events to send
	keyAt    time.Time // when the last key was sent
	heard    int
	wg       sync.WaitGroup
}

// The RFC 4733 events of the talk keys.
const (
	eventStar  = 10
	eventPound = 11
)

// RegisterSIPPhone registers o.ID at o.Server (answering the digest challenge) for an hour.
func RegisterSIPPhone(ctx context.Context, o SIPPhoneOptions) (*SIPPhone, error) {
	p, err := newSIPUA(o)
	if err != nil {
		return nil, err
	}
	if o.Answer {
		if err := p.serve(); err != nil {
			p.Close()
			return nil, err
		}
	}
	req := p.request(sip.REGISTER, "")
	e := sip.ExpiresHeader(3600)
	req.AppendHeader(&e)
	res, err := p.client.Do(ctx, req)
	if err == nil && res.StatusCode == sip.StatusUnauthorized {
		res, err = p.client.DoDigestAuth(ctx, req, res, sipgo.DigestAuth{Username: o.ID, Password: o.Password})
	}
	switch {
	case err != nil:
	case res.StatusCode != sip.StatusOK:
		err = fmt.Errorf("sim: REGISTER %s: %d %s", o.ID, res.StatusCode, res.Reason)
	}
	if err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

// newSIPUA is a phone's user agent, not registered yet.
func newSIPUA(o SIPPhoneOptions) (*SIPPhone, error) {
	server, err := net.ResolveUDPAddr("udp", o.Server)
	if err != nil {
		return nil, err
	}
	p := &SIPPhone{o: o, host: server.IP.String(), port: server.Port}
	if p.ua, err = sipgo.NewUA(sipgo.WithUserAgent("tenfour-sim")); err != nil {
		return nil, err
	}
	if p.client, err = sipgo.NewClient(p.ua, sipgo.WithClientHostname("127.0.0.1")); err != nil {
		p.ua.Close()
		return nil, err
	}
	return p, nil
}

// request is a request of the phone's account to recipient at the server (the address of record is the account).
func (p *SIPPhone) request(method sip.RequestMethod, recipient string) *sip.Request {
	req := sip.NewRequest(method, sip.Uri{User: recipient, Host: p.host, Port: p.port})
	aor := sip.Uri{User: p.o.ID, Host: p.host}
	from := sip.NewParams()
	from.Add("tag", sip.GenerateTagN(8))
	req.AppendHeader(&sip.FromHeader{Address: aor, Params: from})
	req.AppendHeader(&sip.ToHeader{Address: sip.Uri{User: cmp.Or(recipient, p.o.ID), Host: p.host}, Params: sip.NewParams()})
	req.AppendHeader(&sip.ContactHeader{Address: p.contact()})
	req.SetTransport("UDP")
	return req
}

// contact is the phone's Contact: its answering port with Answer (else none: it takes no calls).
func (p *SIPPhone) contact() sip.Uri {
	return sip.Uri{User: p.o.ID, Host: "127.0.0.1", Port: p.contactPort}
}

// serve takes INVITEs on a UDP port of the phone's own and answers them (Answer).
func (p *SIPPhone) serve() error {
	conn, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv, err := sipgo.NewServer(p.ua)
	if err != nil {
		conn.Close()
		return err
	}
	p.contactPort = conn.LocalAddr().(*net.UDPAddr).Port
	p.dialogs = sipgo.NewDialogServerCache(p.client, sip.ContactHeader{Address: p.contact()})
	srv.OnInvite(p.answer)
	srv.OnAck(func(req *sip.Request, tx sip.ServerTransaction) { _ = p.dialogs.ReadAck(req, tx) })
	srv.OnBye(func(req *sip.Request, tx sip.ServerTransaction) {
		if p.dialogs.ReadBye(req, tx) != nil {
			_ = tx.Respond(sip.NewResponseFromRequest(req, sip.StatusCallTransactionDoesNotExists, "Call/Transaction Does Not Exist", nil))
			return
		}
		p.endMedia()
	})
	go func() { _ = srv.ServeUDP(conn) }()
	return nil
}

// answer takes an offered call: 486 while in one, 488 for an offer without an audio stream, else 180 and 200
// with PCMU, and the call's media.
func (p *SIPPhone) answer(req *sip.Request, tx sip.ServerTransaction) {
	d, err := p.dialogs.ReadInvite(req, tx)
	if err != nil {
		return
	}
	p.mu.Lock()
	busy := p.media != nil
	p.mu.Unlock()
	remote, err := answeredAt(req.Body()) // the offer's audio address, read as an answer's
	switch {
	case busy:
		_ = d.Respond(sip.StatusBusyHere, "Busy Here", nil)
		return
	case err != nil:
		_ = d.Respond(sip.StatusNotAcceptableHere, "Not Acceptable Here", nil)
		return
	}
	_ = d.Respond(sip.StatusRinging, "Ringing", nil)
	media, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		_ = d.Respond(sip.StatusServiceUnavailable, "Service Unavailable", nil)
		return
	}
	body, err := offerSDP(media.LocalAddr().(*net.UDPAddr).Port, !p.o.Gateway)
	if err == nil {
		err = d.RespondSDP(body)
	}
	if err != nil {
		media.Close()
		return
	}
	p.startMedia(nil, d, media, remote)
}

// Call INVITEs group gid (answering a digest challenge) and starts the call's media; it returns once the call is
// answered (an error names a refusal's status).
func (p *SIPPhone) Call(ctx context.Context, gid string) error {
	if p.InCall() {
		return errors.New("sim: the phone is in a call")
	}
	media, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return err
	}
	body, err := offerSDP(media.LocalAddr().(*net.UDPAddr).Port, !p.o.Gateway)
	if err != nil {
		media.Close()
		return err
	}
	req := p.request(sip.INVITE, gid)
	req.SetBody(body)
	req.AppendHeader(sip.NewHeader("Content-Type", "application/sdp"))
	ua := sipgo.DialogUA{Client: p.client, ContactHDR: sip.ContactHeader{Address: sip.Uri{User: p.o.ID, Host: "127.0.0.1"}}}
	d, err := ua.WriteInvite(ctx, req)
	if err == nil {
		err = d.WaitAnswer(ctx, sipgo.AnswerOptions{Username: p.o.ID, Password: p.o.Password})
	}
	var remote *net.UDPAddr
	if err == nil {
		remote, err = answeredAt(d.InviteResponse.Body())
	}
	if err == nil {
		err = d.Ack(ctx)
	}
	if err != nil {
		media.Close()
		if d != nil {
			d.Close()
		}
		var re *sipgo.ErrDialogResponse
		if errors.As(err, &re) {
			return fmt.Errorf("sim: INVITE %s: %d %s", gid, re.Res.StatusCode, re.Res.Reason)
		}
		return err
	}
	p.startMedia(d, nil, media, remote)
	return nil
}

// startMedia runs the media of a call placed (placed) or answered (answered) until it ends.
func (p *SIPPhone) startMedia(placed *sipgo.DialogClientSession, answered *sipgo.DialogServerSession, media *net.UDPConn, remote *net.UDPAddr) {
	p.mu.Lock()
	p.call, p.answered, p.media, p.stop, p.queue, p.keys = placed, answered, media, make(chan struct{}), nil, nil
	stop := p.stop
	p.mu.Unlock()
	p.wg.Add(2)
	go p.send(media, remote, stop)
	go p.receive(media)
}

// endMedia stops the call's media (the other side's BYE, or HangUp's) and returns the call's dialog (nil, nil:
// there was no call).
func (p *SIPPhone) endMedia() (placed *sipgo.DialogClientSession, answered *sipgo.DialogServerSession) {
	p.mu.Lock()
	placed, answered, media, stop := p.call, p.answered, p.media, p.stop
	p.call, p.answered, p.media = nil, nil, nil
	p.mu.Unlock()
	if media == nil {
		return nil, nil
	}
	close(stop)
	media.Close()
	p.wg.Wait()
	return placed, answered
}

// InCall tells whether the phone is in a call (placed or answered).
func (p *SIPPhone) InCall() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.media != nil
}

// offerSDP is the phone's offer (github.com/pion/sdp): PCMU on port, with telephone-event for the talk keys unless
// it has none (a gateway).
func offerSDP(port int, keys bool) ([]byte, error) {
	formats := []string{"0"}
	attrs := []sdp.Attribute{sdp.NewAttribute("rtpmap", "0 PCMU/8000")}
	if keys {
		formats = append(formats, "101")
		attrs = append(attrs, sdp.NewAttribute("rtpmap", "101 telephone-event/8000"), sdp.NewAttribute("fmtp", "101 0-16"))
	}
	attrs = append(attrs, sdp.NewAttribute("ptime", "20"), sdp.NewPropertyAttribute("sendrecv"))
	at := &sdp.Address{Address: "127.0.0.1"}
	sd := sdp.SessionDescription{
		Origin:                sdp.Origin{Username: "sim", SessionID: 1, SessionVersion: 1, NetworkType: "IN", AddressType: "IP4", UnicastAddress: at.Address},
		SessionName:           "call",
		ConnectionInformation: &sdp.ConnectionInformation{NetworkType: "IN", AddressType: "IP4", Address: at},
		TimeDescriptions:      []sdp.TimeDescription{{}},
		MediaDescriptions: []*sdp.MediaDescription{{
			MediaName:  sdp.MediaName{Media: "audio", Port: sdp.RangedPort{Value: port}, Protos: []string{"RTP", "AVP"}, Formats: formats},
			Attributes: attrs,
		}},
	}
	return sd.Marshal()
}

// answeredAt is where the answer's audio stream receives RTP.
func answeredAt(body []byte) (*net.UDPAddr, error) {
	var sd sdp.SessionDescription
	if err := sd.Unmarshal(body); err != nil {
		return nil, err
	}
	if len(sd.MediaDescriptions) == 0 || sd.ConnectionInformation == nil || sd.ConnectionInformation.Address == nil {
		return nil, errors.New("sim: the answer has no audio stream")
	}
	ip := net.ParseIP(sd.ConnectionInformation.Address.Address)
	return &net.UDPAddr{IP: ip, Port: sd.MediaDescriptions[0].MediaName.Port.Value}, nil
}

// Press sends a key: '*' asks for the floor, '#' releases it.
func (p *SIPPhone) Press(key rune) {
	ev := byte(eventStar)
	if key == '#' {
		ev = eventPound
	}
	p.mu.Lock()
	p.keys = append(p.keys, ev)
	p.mu.Unlock()
}

// KeySent is when the last key's first packet was sent.
func (p *SIPPhone) KeySent() time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.keyAt
}

// Talk queues G.711 µ-law frames (20 ms each) to send instead of silence.
func (p *SIPPhone) Talk(frames [][]byte) {
	p.mu.Lock()
	p.queue = append(p.queue, frames...)
	p.mu.Unlock()
}

// Heard is how many frames the phone has heard in its calls.
func (p *SIPPhone) Heard() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.heard
}

// send is the phone's microphone: a frame every 20 ms (queued audio, else silence); a key is an RFC 4733 event
// of three packets, the last with the end bit.
func (p *SIPPhone) send(conn *net.UDPConn, to *net.UDPAddr, stop <-chan struct{}) {
	defer p.wg.Done()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	silence := make([]byte, 160)
	for i := range silence {
		silence[i] = 0xff // µ-law's zero
	}
	out := rtp.Packet{Header: rtp.Header{Version: 2, SSRC: 0x51b0}}
	put := func(pt uint8, marker bool, payload []byte) {
		out.PayloadType, out.Marker, out.Payload = pt, marker, payload
		out.SequenceNumber++
		if b, err := out.Marshal(); err == nil {
			_, _ = conn.WriteToUDP(b, to)
		}
	}
	for {
		select {
		case <-tick.C:
		case <-stop:
			return
		}
		p.mu.Lock()
		frame, key := silence, -1
		if len(p.queue) > 0 {
			frame, p.queue = p.queue[0], p.queue[1:]
		}
		if len(p.keys) > 0 {
			key, p.keys = int(p.keys[0]), p.keys[1:]
		}
		p.mu.Unlock()
		for i := range 3 {
			if key < 0 {
				break
			}
			if i == 0 {
				p.mu.Lock()
				p.keyAt = time.Now()
				p.mu.Unlock()
			}
			flags := byte(10) // volume
			if i == 2 {
				flags |= 0x80
			}
			put(101, i == 0, []byte{byte(key), flags, 0, byte(160 * (i + 1))})
		}
		put(0, false, frame)
		out.Timestamp += 160
	}
}

func (p *SIPPhone) receive(conn *net.UDPConn) {
	defer p.wg.Done()
	buf := make([]byte, 1500)
	var in rtp.Packet
	for {
		n, err := conn.Read(buf)
		if err != nil {
			return
		}
		if in.Unmarshal(buf[:n]) != nil || in.PayloadType != 0 {
			continue
		}
		p.mu.Lock()
		p.heard++
		p.mu.Unlock()
		if p.o.OnHear != nil {
			p.o.OnHear(in.Payload, time.Now())
		}
	}
}

// HangUp ends the call in progress (BYE) and its media.
func (p *SIPPhone) HangUp(ctx context.Context) error {
	placed, answered := p.endMedia()
	switch {
	case placed != nil:
		defer placed.Close()
		return placed.Bye(ctx)
	case answered != nil:
		defer answered.Close()
		return answered.Bye(ctx)
	}
	return nil
}

// Close hangs up and ends the registration's user agent (the server lets the registration expire).
func (p *SIPPhone) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_ = p.HangUp(ctx)
	if p.client != nil {
		p.client.Close()
	}
	p.ua.Close()
}

// FloodRegister sends REGISTERs of account id without credentials to server (host:port) from one UDP socket, each
// as soon as the previous one is answered (a 401 challenge), until ctx ends; it returns how many were answered.
// It is the load of a scanner or a misconfigured phone (the bench's SIP rows).
func FloodRegister(ctx context.Context, server, id string) int {
	p, err := newSIPUA(SIPPhoneOptions{ID: id, Server: server})
	if err != nil {
		return 0
	}
	defer p.Close()
	n := 0
	for ctx.Err() == nil {
		req := p.request(sip.REGISTER, "")
		if _, err := p.client.Do(ctx, req); err == nil {
			n++
		}
	}
	return n
}
