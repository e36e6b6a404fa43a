package sip

import (
	"bytes"
	"errors"
	"log/slog"
	"sync"

	"github.com/emiago/sipgo/sip"
)

// A re-INVITE (an INVITE inside a call's dialog, RFC 3261 §14) changes a live call's media without ending it: a
// desk phone's hold and resume (RFC 3264 §8.4: sendonly, inactive, or the old c=0.0.0.0), a new media address,
// a session refresh (RFC 4028: the same offer again), another codec. An offer that still has the call's codec keeps
// it; one without it moves the call to the offer's first codec (PCMU, PCMA or Opus): the group's audio is decoded
// for it and the phone's read in it from the next packet, and the talk keys follow the new rate. An SRTP call's
// offer with another key (RFC 4568 §7.1.4: the phone rekeys) gets a new key of this side's too, and both directions
// use the new keys from the next packet; the same key again keeps the call's. An offer that moves an SRTP call to
// plain RTP or a plain one to SRTP, or with no talk keys for a phone that had them, is 488 and the call goes on as
// it was; an unknown call is 481.

// liveCalls are this node's calls with a phone's media, by their SIP Call-ID: what a re-INVITE changes.
type liveCalls struct {
	mu    sync.Mutex
	calls map[string]*bridge
}

// attach registers b's call under callID until the returned function is called.
func (l *liveCalls) attach(callID string, b *bridge) (detach func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.calls == nil {
		l.calls = map[string]*bridge{}
	}
	l.calls[callID] = b
	return func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.calls[callID] == b {
			delete(l.calls, callID)
		}
	}
}

func (l *liveCalls) find(callID string) *bridge {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.calls[callID]
}

// reinvite answers an INVITE inside a call's dialog.
func (s *Server) reinvite(req *sip.Request, tx sip.ServerTransaction) {
	b := s.live.find(req.CallID().Value())
	if b == nil || hostOf(req.Source()) != b.dialog.host {
		respond(tx, req, sip.StatusCallTransactionDoesNotExists, "Call/Transaction Does Not Exist")
		return
	}
	contact, err := s.contactOf(req)
	if err != nil {
		respond(tx, req, sip.StatusServiceUnavailable, "Service Unavailable")
		return
	}
	var body []byte
	if len(req.Body()) == 0 { // no offer: this side's current media is the offer, the phone's ACK the answer (not read)
		body, err = b.describePhone()
	} else {
		body, err = b.changeMedia(req.Body())
	}
	if err != nil {
		b.log.Info("sip: re-INVITE refused", "err", err)
		respond(tx, req, sip.StatusNotAcceptableHere, "Not Acceptable Here")
		return
	}
	res := sip.NewSDPResponseFromRequest(req, body)
	res.AppendHeader(contact)
	if err := tx.Respond(res); err != nil {
		slog.Debug("sip: re-INVITE answer", "err", err)
	}
}

// describePhone is the call's media as this side describes it now.
func (b *bridge) describePhone() ([]byte, error) {
	b.phoneMu.Lock()
	defer b.phoneMu.Unlock()
	return b.phone.answer()
}

// changeMedia takes a re-INVITE's offer: the phone's new address, payload type and direction; it returns the
// answer. Nothing changes when the offer is refused.
func (b *bridge) changeMedia(body []byte) ([]byte, error) {
	o, err := parseOffer(body)
	if err != nil {
		return nil, err
	}
	// a replaced decoder is closed once phoneMu is released (defers run last first): the group's audio holds a
	// decoder's lock while it writes to the phone under phoneMu
	var replaced *toPhone
	defer func() {
		if replaced != nil {
			replaced.close()
		}
	}()
	b.phoneMu.Lock()
	defer b.phoneMu.Unlock()
	p := b.phone
	pt, ok := uint8(0), false
	for _, c := range o.offered {
		if c.codec == p.codec {
			pt, ok = c.pt, true
			break
		}
	}
	var rekeyed *srtpPair
	if o.keys != nil && p.keys != nil && (o.keys.suite != p.keys.suite || !bytes.Equal(o.keys.key, p.keys.key)) {
		if rekeyed, err = newSRTP(o.keys); err != nil {
			return nil, err
		}
	}
	switch {
	case (o.keys == nil) != (p.keys == nil):
		return nil, errSecurity
	case !ok && p.events >= 0 && o.events < 0:
		return nil, errKeysLost
	case !ok: // another codec: the offer's own first (parseOffer); the group's audio is decoded for it from now on
		dec, err := newToPhone(o.codec)
		if err != nil {
			return nil, err
		}
		b.log.Info("sip: codec changed", "from", p.codec, "to", o.codec)
		p.codec, pt = o.codec, o.pt
		if p.events >= 0 {
			p.events, p.eventsRate = o.events, o.eventsRate
			b.inEvents.Store(int32(o.events))
		}
		b.inCodec.Store(int32(o.codec))
		replaced = b.dec.Swap(dec)
	}
	direction := o.direction
	if o.remote.IP.IsUnspecified() { // RFC 2543 hold: c=0.0.0.0
		direction = "inactive"
	} else {
		p.remote = o.remote
	}
	if o.events >= 0 && p.events >= 0 { // keys stay what the call began with: a phone without keys talks by voice
		p.events = o.events
		b.inEvents.Store(int32(o.events))
	}
	if rekeyed != nil {
		p.keys = o.keys
		p.sec.Store(rekeyed)
		b.log.Info("sip: SRTP rekeyed", "suite", o.keys.suite)
	}
	p.pt, p.localDirection = pt, mirror(direction)
	b.inPT.Store(int32(pt))
	b.hears.Store(direction == "sendrecv" || direction == "recvonly")
	b.speaks.Store(direction == "sendrecv" || direction == "sendonly")
	b.log.Info("sip: media changed", "direction", direction, "remote", p.remote.String())
	return p.answer()
}

var (
	errSecurity = errors.New("sip: a re-INVITE moves the call between SRTP and plain RTP")
	errKeysLost = errors.New("sip: a re-INVITE changes the codec and offers no talk keys at its rate")
)

// sipDialog names a call's SIP dialog for its re-INVITEs: the Call-ID, and the host the phone signals from (a
// re-INVITE from elsewhere is not the phone's).
type sipDialog struct{ callID, host string }

// mirror is this side's direction in an answer to the phone's (RFC 3264 §6.1).
func mirror(direction string) string {
	switch direction {
	case "sendonly":
		return "recvonly"
	case "recvonly":
		return "sendonly"
	}
	return direction
}
