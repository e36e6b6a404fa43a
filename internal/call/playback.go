package call

// Playback priority: which one source each listener hears (focus, emergency, own calls and monitoring, the
// listener's mode, first-come or latest), recomputed on control events only.

import (
	"time"

	"tenfour/internal/media"
	"tenfour/internal/platform/httpx"
)

// source is something a listener can hear: a floor holder's burst or a monitored terminal's microphone.
type source struct {
	id      uint64
	talker  *client
	call    *Call
	amb     *ambient
	started time.Time
	remote  *remoteBurst // another node's burst (relay.go)
	line    *burst       // a party's burst on a duplex call's open line (duplex.go)
}

// recomputeLocked gives every listener of a customer exactly one source (or none) and every talker its route.
// It runs on control events only (grant, release, join, mute, focus…), never per packet.
func (s *Service) recomputeLocked(customer int64) {
	var srcs []source
	for _, c := range s.customerCalls(customer) {
		if b := c.burst; b != nil && b.talker.peer != nil {
			srcs = append(srcs, source{id: b.mb.ID, talker: b.talker, call: c, started: b.mb.Granted})
		}
		for _, b := range c.line {
			if b.talker.peer != nil {
				srcs = append(srcs, source{id: b.mb.ID, talker: b.talker, call: c, started: b.mb.Granted, line: b})
			}
		}
	}
	for _, a := range s.ambient {
		if a.customer == customer && !a.pending && a.target != nil && a.target.peer != nil {
			srcs = append(srcs, source{id: a.id, talker: a.target, amb: a})
		}
	}
	srcs = s.remoteSourcesLocked(customer, srcs) // in a cluster: other nodes' group bursts (relay.go)
	routes := map[*client]*media.Route{}
	for _, src := range srcs {
		r := routes[src.talker]
		if r == nil {
			r = &media.Route{}
			routes[src.talker] = r
		}
		switch {
		case src.line != nil: // a talker's press in another call records its words there (duplex.go)
			if r.Burst == nil {
				r.Burst = src.line.mb
			}
		case src.call != nil && (src.remote == nil || src.remote.info.Party): // a party on another node: leg.go
			r.Burst = src.call.burst.mb
			if s.relay != nil { // in a cluster: to the other nodes too (relay.go, leg.go)
				r.Targets = append(r.Targets, s.relay.Targets(src.id)...)
			}
		}
		if src.amb != nil && src.amb.forNode != "" && s.relay != nil { // monitored from another node (relay.go)
			r.Targets = append(r.Targets, s.relay.Targets(src.id)...)
		}
	}
	listeners := make([]*client, 0, len(s.byCust[customer]))
	for cl := range s.byCust[customer] {
		listeners = append(listeners, cl)
	}
	for _, l := range listeners {
		if l.peer == nil || !l.peer.Ready() {
			continue
		}
		best := -1
		bestRank := 0
		if !s.blocked[l.acct.ID] {
			for i := range srcs {
				src := &srcs[i]
				if src.talker.acct.ID == l.acct.ID || !s.hearsLocked(l, src) || s.mutes[l.acct.ID][src.talker.acct.ID] {
					continue
				}
				if r := s.rankLocked(l, src); best < 0 || r < bestRank ||
					(r == bestRank && s.laterWinsLocked(l, src, &srcs[best])) {
					best, bestRank = i, r
				}
			}
		}
		playing := ""
		if best < 0 {
			l.peer.Downstream().Assign(0)
		} else {
			src := &srcs[best]
			l.peer.Downstream().Assign(src.id)
			r := routes[src.talker]
			r.Targets = append(r.Targets, media.Target{D: l.peer.Downstream(), Src: src.id})
			playing = src.key()
		}
		if playing != l.playing {
			l.playing = playing
			_ = l.conn.Send("voice.playing", s.playingView(srcs, best))
		}
	}
	s.legRoutesLocked(customer, routes) // a party of another node's call: its microphone goes there (leg.go)
	s.tapRoutesLocked(customer, routes) // live paging: a console's packets also go to its tap (service.go)
	for cl := range s.byCust[customer] {
		if cl.peer == nil {
			continue
		}
		if r := routes[cl]; r != nil {
			cl.peer.SetRoute(r)
		} else if !cl.tailing && cl.peer.Route() != nil {
			cl.peer.SetRoute(nil)
		}
	}
	for _, rb := range s.remote {
		if rb.info.Customer == customer {
			rb.lane.SetRoute(routes[rb.talker]) // nil: nobody here hears it
		}
	}
}

func (src *source) key() string {
	if src.amb != nil {
		return "monitor:" + src.amb.targetID
	}
	return src.call.ID
}

func (s *Service) playingView(srcs []source, best int) map[string]any {
	if best < 0 {
		return map[string]any{"callId": "", "msId": ""}
	}
	src := srcs[best]
	if src.amb != nil {
		return map[string]any{"callId": "", "msId": src.amb.targetID, "monitor": true}
	}
	return map[string]any{"callId": src.call.ID, "msId": src.talker.acct.ID, "kind": src.call.Kind}
}

// hearsLocked tells whether a listener is in a source's audience.
func (s *Service) hearsLocked(l *client, src *source) bool {
	if src.amb != nil {
		return src.amb.by == l.acct.ID
	}
	c := src.call
	if c.Kind == Group {
		_, member := c.audience[l.acct.ID]
		return member || c.joined[l.acct.ID] || s.monitors[l.acct.ID][c.Group]
	}
	if c.State != StateConnected {
		return false
	}
	p := c.party(l.acct.ID)
	return p != nil && p.state == PartyConnected
}

// DefaultMode is the playback priority of a listener that chose none: its own groups first. A dispatcher never
// stops hearing the group it works in (its ptt group, or a group whose open call it talked in) because a radio
// starts talking in another group; "latest" could cut away mid-burst, so it is a choice, not the default.
const DefaultMode = ModePTT

// modeLocked is the listener's playback priority.
func (s *Service) modeLocked(l *client) string {
	if m := s.modes[l.acct.ID]; m != "" {
		return m
	}
	return DefaultMode
}

// rankLocked orders a listener's sources (lower plays): the call it chose, an emergency, its own calls and
// monitoring, its own groups — its ptt group and, for a console, a group call it talked in — (or, for a console
// in mode dispatcher, a dispatcher's burst), the rest.
func (s *Service) rankLocked(l *client, src *source) int {
	mode := s.modeLocked(l)
	switch {
	case src.call != nil && s.focus[l.acct.ID] == src.call.ID:
		return 0
	case s.emergency[src.talker.acct.ID] || (src.remote != nil && src.remote.info.Emergency):
		return 1
	case src.amb != nil || src.call.Kind != Group:
		return 2
	case !l.console && src.call.audience[l.acct.ID].PttGroup == src.call.Group:
		return 3
	case l.console && mode == ModePTT && (src.call.joined[l.acct.ID] || src.call.audience[l.acct.ID].PttGroup == src.call.Group):
		return 3
	case l.console && mode == ModeDispatcher && src.talker.console:
		return 3
	}
	return 4
}

// laterWinsLocked breaks a tie between sources of one rank: first-come keeps playing unless the listener
// chose "latest".
func (s *Service) laterWinsLocked(l *client, a, b *source) bool {
	if s.modeLocked(l) == ModeLatest {
		return a.started.After(b.started)
	}
	return a.started.Before(b.started)
}

// Focus is `voice.focus`: the call a listener wants to hear when several talk ("" = back to the rule).
func (s *Service) Focus(cl *client, callID string) error {
	return s.locked(func(later *afterUnlock) error {
		if callID == "" {
			delete(s.focus, cl.acct.ID)
		} else {
			c := s.calls[callID]
			if c == nil || c.ended || c.Customer != cl.acct.Customer {
				return ErrNotFound
			}
			s.focus[cl.acct.ID] = callID
		}
		s.recomputeLocked(cl.acct.Customer)
		return nil
	})
}

// SetPlayback is `voice.priority`: the listener's audio playback priority (first, latest, ptt or dispatcher).
func (s *Service) SetPlayback(cl *client, mode string) error {
	switch mode {
	case ModeFirst, ModeLatest, ModePTT, ModeDispatcher:
	default:
		return httpx.BadParam("mode", "first, latest, ptt or dispatcher")
	}
	return s.locked(func(later *afterUnlock) error {
		s.modes[cl.acct.ID] = mode
		s.recomputeLocked(cl.acct.Customer)
		return nil
	})
}
