package sip

// Full-duplex phone calls (docs/adr/0044, internal/call's duplex.go): a phone with talk keys (a desk phone or a
// softphone that offers telephone-event) or a trunk's far end is a telephone, and talks on an open line when it is
// in an individual call with a dispatcher: the session says "duplex" in its call.invite or its answer, and once
// the call service connects the call as duplex the phone's audio goes to the other party throughout — no floor,
// no talk keys, no tones. A radio gateway (no keys, or an account set to talk by voice) stays half duplex: the
// radio behind it is.

import "tenfour/internal/directory"

// talksOnLine tells whether the phone talks on an open line: it has talk keys and its account is not set to talk
// by voice.
func (b *bridge) talksOnLine(keys bool) bool {
	return keys && b.talk != directory.SIPTalkVoice
}

// follow sees the individual call's state: connected full duplex, the phone talks from now on.
func (b *bridge) follow(v callEvent) {
	if v.State == "connected" && v.Duplex && !b.line.Swap(true) {
		b.callID.Store(b.call)
		b.talking.Store(true)
		b.log.Info("sip: the call is full duplex")
	}
}
