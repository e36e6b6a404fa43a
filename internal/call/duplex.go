package call

// Full-duplex individual calls (docs/adr/0044): a phone call is a conversation, not push-to-talk. An individual
// call is duplex when a party that talks on an open line — a SIP phone's session, which says so in its
// `call.invite` or its answer (`"duplex": true`) — calls or is called by a party that can: a console, or another
// such party. Connected, each party talks from then until the call ends: a burst each, recorded on its own, no
// floor. Half duplex stays for the rest: a terminal's PTT, a radio gateway, and a call whose parties are on
// different nodes of a cluster (its floor is carried across nodes, leg.go).

import (
	"time"
)

// lineLocked opens a duplex call's line once it connects: it is duplex when every party can talk on an open line
// (a console, or a party that said duplex), at least one said so, and all are connected to this node.
func (s *Service) lineLocked(c *Call) {
	if c.Kind != Single || c.line != nil {
		return
	}
	asked := false
	for _, p := range c.parties {
		if p.node != "" || p.client == nil || p.client.gone || !(p.client.console || p.duplex) {
			return
		}
		asked = asked || p.duplex
	}
	if !asked {
		return
	}
	now := time.Now()
	for _, p := range c.parties {
		claim := &Claim{Account: p.ID, Client: p.client, Prio: s.priorityLocked(p.client.acct), At: now}
		c.line = append(c.line, s.newBurstLocked(c, claim))
	}
}

// talks tells whether cl talks in call c now: its burst holds the floor, or the call is duplex, whose parties talk
// throughout (a press there is granted as things stand).
func (c *Call) talks(cl *client) bool {
	return c.line != nil || (c.burst != nil && c.burst.talker == cl)
}

// closeLineLocked ends a duplex call's bursts with the call.
func (s *Service) closeLineLocked(later *afterUnlock, c *Call) {
	for _, b := range c.line {
		s.closeBurstLocked(later, c, b, "ended", false)
	}
	c.line = nil
}

// rebindLineLocked moves the open-line bursts a closed connection talked on to another connection of its account
// (another console window, or the connection that replaced it), whose microphone the line carries from then on.
func (s *Service) rebindLineLocked(gone *client) {
	var next *client
	for cl := range s.byAcct[gone.acct.ID] {
		if next == nil || (next.peer == nil && cl.peer != nil) {
			next = cl
		}
	}
	if next == nil {
		return
	}
	for _, c := range s.customerCalls(gone.acct.Customer) {
		for _, b := range c.line {
			if b.talker == gone {
				b.talker, b.claim.Client = next, next
			}
		}
		if p := c.party(gone.acct.ID); p != nil && p.client == gone {
			p.client = next
		}
	}
}
