package sip

import (
	"cmp"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/emiago/sipgo/sip"
	"github.com/pion/rtp"
	"github.com/pion/sdp/v3"
)

// A call's media with the phone: the SDP offer/answer (RFC 3264) through github.com/pion/sdp, RTP packets
// through github.com/pion/rtp, on one UDP socket per call. The audio is G.711 on its static payload types (RFC 3551:
// 0 PCMU, 8 PCMA) or Opus on the dynamic one the phone names (RFC 7587: opus/48000/2); RFC 4733 telephone-event
// carries the talk keys. diago's media package would do this, but it does not
// build against the pion versions the WebRTC side needs (its WebRTC file uses stun/v3, ice v4.4 takes stun/v4).

// The G.711 payload types (static, RFC 3551).
const (
	ptPCMU = 0
	ptPCMA = 8
)

// offer is what this side takes from a phone's SDP offer: its first codec this side talks, the telephone-event
// payload type (-1: none offered) and clock rate, where it receives RTP and its SRTP key (nil: plain RTP; srtp.go).
type offer struct {
	pt         uint8 // ptPCMU, ptPCMA or Opus's dynamic type
	codec      Codec
	events     int
	eventsRate int // 8000, or 48000 beside Opus
	remote     *net.UDPAddr
	keys       *sdes
	offered    []payload // every codec of the stream this side talks, in the offer's order (the first is pt, codec)
	direction  string    // sendrecv, sendonly, recvonly or inactive: the phone's side of it
}

var errNoCodec = errors.New("sip: the offer has no audio stream with PCMU, PCMA or Opus")

// parseOffer reads an SDP offer: the first audio stream that offers PCMU, PCMA or Opus, on plain RTP or on SRTP
// with a key this side takes; of its codecs, the first of those three in the offer's order (the phone's
// preference).
func parseOffer(body []byte) (offer, error) {
	var sd sdp.SessionDescription
	if err := sd.Unmarshal(body); err != nil {
		return offer{}, err
	}
	for _, md := range sd.MediaDescriptions {
		if md.MediaName.Media != "audio" || md.MediaName.Port.Value == 0 {
			continue
		}
		o := offer{events: -1}
		rtpmap := map[int]string{} // a=rtpmap:<pt> <encoding>/<rate>[/<channels>]
		for _, a := range md.Attributes {
			if pt, enc, ok := strings.Cut(a.Value, " "); a.Key == "rtpmap" && ok && payloadType(pt) >= 0 {
				rtpmap[payloadType(pt)] = strings.ToLower(strings.TrimSpace(enc))
			}
		}
		for _, f := range md.MediaName.Formats {
			switch pt := payloadType(f); {
			case pt == ptPCMU:
				o.offered = append(o.offered, payload{ptPCMU, Ulaw})
			case pt == ptPCMA:
				o.offered = append(o.offered, payload{ptPCMA, Alaw})
			case pt >= 96 && rtpmap[pt] == "opus/48000/2":
				o.offered = append(o.offered, payload{uint8(pt), Opus})
			}
		}
		if len(o.offered) == 0 {
			continue
		}
		o.pt, o.codec = o.offered[0].pt, o.offered[0].codec
		keys, ok := offeredKeys(md)
		if !ok {
			continue
		}
		o.keys = keys
		for pt, enc := range rtpmap {
			rate := 0
			switch enc {
			case "telephone-event/8000":
				rate = 8000
			case "telephone-event/48000":
				rate = 48000
			}
			// beside Opus a phone may clock its events at 48 kHz: the one at the audio's own rate wins
			if rate > 0 && (o.events < 0 || rate == o.codec.clock()) {
				o.events, o.eventsRate = pt, rate
			}
		}
		conn := md.ConnectionInformation
		if conn == nil {
			conn = sd.ConnectionInformation
		}
		if conn == nil || conn.Address == nil {
			return offer{}, errors.New("sip: the offer names no connection address")
		}
		ip := net.ParseIP(conn.Address.Address)
		if ip == nil {
			return offer{}, fmt.Errorf("sip: the offer's address %q is not an IP address", conn.Address.Address)
		}
		o.remote = &net.UDPAddr{IP: ip, Port: md.MediaName.Port.Value}
		o.direction = directionOf(md.Attributes, directionOf(sd.Attributes, "sendrecv"))
		return o, nil
	}
	return offer{}, errNoCodec
}

// directionOf is the direction attribute among attrs (RFC 3264 §5.1), or otherwise.
func directionOf(attrs []sdp.Attribute, otherwise string) string {
	for _, a := range attrs {
		switch a.Key {
		case "sendrecv", "sendonly", "recvonly", "inactive":
			return a.Key
		}
	}
	return otherwise
}

// payloadType is an SDP format as an RTP payload type (-1: not one).
func payloadType(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > 127 {
		return -1
	}
	return n
}

// rtpSession is one call's RTP with the phone.
type rtpSession struct {
	offer
	conn *net.UDPConn
	// sec is the call's SRTP (nil: plain RTP); a re-INVITE with new keys replaces it (reinvite.go) while the
	// phone's packets are read
	sec atomic.Pointer[srtpPair]

	// this side's direction in its SDP ("": sendrecv); a re-INVITE's answer mirrors the phone's (reinvite.go)
	localDirection string

	// the sender's state: one writer at a time (the bridge's phoneMu serialises the group's audio and the tones)
	seq  uint16
	ts   uint32
	ssrc uint32
}

// listenRTP opens the call's RTP socket on local (the SIP listener's address when it names one, else the
// address toward the phone: localToward).
func listenRTP(o offer, local net.IP) (*rtpSession, error) {
	sec, err := newSRTP(o.keys)
	if err != nil {
		return nil, err
	}
	conn, err := net.ListenUDP("udp", &net.UDPAddr{IP: local})
	if err != nil {
		return nil, err
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	r := &rtpSession{offer: o, conn: conn, seq: binary.BigEndian.Uint16(b[:2]), ts: binary.BigEndian.Uint32(b[2:6]),
		ssrc: binary.BigEndian.Uint32(b[4:8])}
	r.sec.Store(sec)
	return r, nil
}

// answer is the SDP answer: the chosen codec and, when offered, telephone-event, on this session's socket.
func (r *rtpSession) answer() ([]byte, error) { return r.describe(payload{r.pt, r.codec}) }

// ptOpus is the payload type this side gives Opus in its own offers.
const ptOpus = 111

// offerOpusFirst is this side's offer of a call it places to a phone: Opus first (no transcoding, wideband), then
// PCMU, with its telephone-event; the phone's answer picks one (parseOffer).
func (r *rtpSession) offerOpusFirst() ([]byte, error) {
	return r.describe(payload{ptOpus, Opus}, payload{ptPCMU, Ulaw})
}

// payload is a payload type and the codec it carries.
type payload struct {
	pt    uint8
	codec Codec
}

// describe is an SDP of this session's socket with the audio formats in order, its telephone-event and SRTP key.
func (r *rtpSession) describe(audio ...payload) ([]byte, error) {
	addr := r.conn.LocalAddr().(*net.UDPAddr)
	ipv := "IP4"
	if addr.IP.To4() == nil {
		ipv = "IP6"
	}
	var formats []string
	var attrs []sdp.Attribute
	for _, a := range audio {
		rtpmap := fmt.Sprintf("%d %s/8000", a.pt, a.codec)
		if a.codec == Opus {
			rtpmap = fmt.Sprintf("%d opus/48000/2", a.pt)
		}
		formats = append(formats, strconv.Itoa(int(a.pt)))
		attrs = append(attrs, sdp.NewAttribute("rtpmap", rtpmap))
	}
	if r.events >= 0 {
		formats = append(formats, strconv.Itoa(r.events))
		attrs = append(attrs, sdp.NewAttribute("rtpmap", fmt.Sprintf("%d telephone-event/%d", r.events, cmp.Or(r.eventsRate, 8000))),
			sdp.NewAttribute("fmtp", fmt.Sprintf("%d 0-16", r.events)))
	}
	attrs = append(attrs, sdp.NewAttribute("ptime", "20"), sdp.NewPropertyAttribute(cmp.Or(r.localDirection, "sendrecv")))
	sec := r.sec.Load()
	attrs = append(attrs, sec.attributes()...)
	id := uint64(time.Now().UnixNano())
	sd := sdp.SessionDescription{
		Origin: sdp.Origin{Username: "tenfour", SessionID: id, SessionVersion: id, NetworkType: "IN", AddressType: ipv,
			UnicastAddress: addr.IP.String()},
		SessionName:           "tenfour",
		ConnectionInformation: &sdp.ConnectionInformation{NetworkType: "IN", AddressType: ipv, Address: &sdp.Address{Address: addr.IP.String()}},
		TimeDescriptions:      []sdp.TimeDescription{{}},
		MediaDescriptions: []*sdp.MediaDescription{{
			MediaName:  sdp.MediaName{Media: "audio", Port: sdp.RangedPort{Value: addr.Port}, Protos: sec.protos(), Formats: formats},
			Attributes: attrs,
		}},
	}
	return sd.Marshal()
}

// read waits at most timeout for the phone's next packet (one that does not parse, or fails SRTP's
// authentication, is not one).
func (r *rtpSession) read(p *rtp.Packet, buf []byte, timeout time.Duration) error {
	for {
		_ = r.conn.SetReadDeadline(time.Now().Add(timeout))
		n, _, err := r.conn.ReadFromUDP(buf)
		if err != nil {
			return err
		}
		if b, err := r.sec.Load().open(buf[n:n], buf[:n]); err == nil && p.Unmarshal(b) == nil {
			return nil
		}
	}
}

// write sends one frame to the phone (20 ms of G.711, or an Opus packet); not concurrently (rtpSession's sender
// state).
func (r *rtpSession) write(frame []byte) error {
	r.seq++
	p := rtp.Packet{Header: rtp.Header{Version: 2, PayloadType: r.pt, SequenceNumber: r.seq, Timestamp: r.ts, SSRC: r.ssrc},
		Payload: frame}
	r.ts += r.codec.samples(frame)
	b, err := p.Marshal()
	if err == nil {
		b, err = r.sec.Load().seal(b)
	}
	if err != nil {
		return err
	}
	_, err = r.conn.WriteToUDP(b, r.remote)
	return err
}

func (r *rtpSession) close() error { return r.conn.Close() }

// keyPresses turns RFC 4733 telephone-event packets into key presses: a press is the first packet of an event
// (a new timestamp); the repeats and the end packets of the same event are not presses again.
type keyPresses struct {
	began bool
	last  uint32
}

// rfc4733Keys are the events of RFC 4733 §3.2 that are keys: 0–9, *, #, A–D.
const rfc4733Keys = "0123456789*#ABCD"

func (k *keyPresses) press(p *rtp.Packet) (rune, bool) {
	if len(p.Payload) < 4 || int(p.Payload[0]) >= len(rfc4733Keys) || (k.began && p.Timestamp == k.last) {
		return 0, false
	}
	k.began, k.last = true, p.Timestamp
	return rune(rfc4733Keys[p.Payload[0]]), true
}

// localToward is this side's address for the peer at host: the listener's own when it names one (the operator
// chose the interface), else the local address a packet to host leaves from.
func (s *Server) localToward(host string) (net.IP, error) {
	h, _, err := net.SplitHostPort(s.Addr())
	if ip := net.ParseIP(h); err == nil && ip != nil && !ip.IsUnspecified() {
		return ip, nil
	}
	probe, err := net.Dial("udp", net.JoinHostPort(host, "9")) // no packet is sent: only the route is looked up
	if err != nil {
		return nil, err
	}
	defer probe.Close()
	return probe.LocalAddr().(*net.UDPAddr).IP, nil
}

// contactOf is the Contact of this side's answers to req, one the phone can reach for its ACK and BYE: this
// side's address toward the request's source, on the port and transport it came in on.
func (s *Server) contactOf(req *sip.Request) (*sip.ContactHeader, error) {
	local, err := s.localToward(hostOf(req.Source()))
	if err != nil {
		return nil, err
	}
	tr := strings.ToLower(req.Transport())
	_, p, _ := net.SplitHostPort(s.addrOf(tr))
	port, _ := strconv.Atoi(p)
	contact := sip.Uri{User: req.Recipient.User, Host: local.String(), Port: port, UriParams: sip.NewParams()}
	if tr != "udp" {
		contact.UriParams.Add("transport", tr)
	}
	return &sip.ContactHeader{Address: contact}, nil
}
