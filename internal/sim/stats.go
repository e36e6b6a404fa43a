package sim

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Stats counts what the fleet did (all counters are totals since the start, except the gauges).
type Stats struct {
	Online     atomic.Int64 // gauge: logged-in terminals
	MediaOpen  atomic.Int64 // gauge: PeerConnections up
	Logins     atomic.Int64
	Reconnects atomic.Int64 // logins after the first
	Drops      atomic.Int64 // planned network losses and battery power-offs
	Lost       atomic.Int64 // connections the server or network ended unplanned

	GPSPoints atomic.Int64
	// IndoorReports are the indoor walkers' beacon scans sent (indoor.report).
	IndoorReports atomic.Int64
	StatusSent    atomic.Int64
	Pings         atomic.Int64

	Bursts      atomic.Int64 // floor granted and speech sent
	FloorDenied atomic.Int64
	FloorQueued atomic.Int64
	NoMedia     atomic.Int64 // a talk or call skipped: no free PeerConnection slot, or it failed
	PacketsSent atomic.Int64
	MediaFailed atomic.Int64

	CallsAnswered atomic.Int64
	CallsDeclined atomic.Int64
	CallsIgnored  atomic.Int64
	VideoSessions atomic.Int64 // video calls answered and monitorings served with the camera sending

	SOSRaised   atomic.Int64
	SOSCanceled atomic.Int64
	Messages    atomic.Int64
	Answers     atomic.Int64 // messages typed back to a dispatcher
	Tones       atomic.Int64
	Uploads     atomic.Int64 // photos and snapshots registered in the media cloud
	Checkins    atomic.Int64
	Forgotten   atomic.Int64 // lone-work checks left unanswered on purpose
	Jobs        atomic.Int64 // job tickets received (repeats not counted)
	JobsDone    atomic.Int64 // job tickets completed
	JobsRefused atomic.Int64 // job tickets rejected
	BusPunches  atomic.Int64 // school-bus card punches stored by the server
	Switches    atomic.Int64 // own group switches
	Remote      atomic.Int64 // remote control requests obeyed (call.set, param.set, group.switch)
	Punches     atomic.Int64 // patrol points punched (patrol.go)
	PatrolLooks atomic.Int64 // answers to patrol.orders handled (each look may punch the next due point)
	PatrolLate  atomic.Int64 // orders walked late on purpose
	PatrolSkips atomic.Int64 // orders with a point skipped on purpose

	mu     sync.Mutex
	errors map[string]int64 // refused requests by "type:code"
}

func (s *Stats) refused(typ, code string) {
	s.mu.Lock()
	if s.errors == nil {
		s.errors = map[string]int64{}
	}
	s.errors[typ+":"+code]++
	s.mu.Unlock()
}

// Refused returns the refused requests by "type:code".
func (s *Stats) Refused() map[string]int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]int64, len(s.errors))
	for k, v := range s.errors {
		out[k] = v
	}
	return out
}

// String is a one-line summary for logs.
func (s *Stats) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "online=%d media=%d logins=%d reconnects=%d drops=%d lost=%d gps=%d status=%d bursts=%d denied=%d "+
		"queued=%d nomedia=%d packets=%d calls=%d/%d/%d sos=%d/%d sms=%d/%d checkins=%d/%d switches=%d remote=%d tones=%d uploads=%d indoor=%d punches=%d/%d/%d jobs=%d/%d/%d bus=%d",
		s.Online.Load(), s.MediaOpen.Load(), s.Logins.Load(), s.Reconnects.Load(), s.Drops.Load(), s.Lost.Load(),
		s.GPSPoints.Load(), s.StatusSent.Load(), s.Bursts.Load(), s.FloorDenied.Load(), s.FloorQueued.Load(),
		s.NoMedia.Load(), s.PacketsSent.Load(), s.CallsAnswered.Load(), s.CallsDeclined.Load(), s.CallsIgnored.Load(),
		s.SOSRaised.Load(), s.SOSCanceled.Load(), s.Messages.Load(), s.Answers.Load(), s.Checkins.Load(), s.Forgotten.Load(),
		s.Switches.Load(), s.Remote.Load(), s.Tones.Load(), s.Uploads.Load(), s.IndoorReports.Load(), s.Punches.Load(), s.PatrolLate.Load(),
		s.PatrolSkips.Load(), s.Jobs.Load(), s.JobsDone.Load(), s.JobsRefused.Load(), s.BusPunches.Load())
	ref := s.Refused()
	if len(ref) > 0 {
		keys := slices.Sorted(maps.Keys(ref))
		b.WriteString(" refused=")
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "%s×%d", k, ref[k])
		}
	}
	return b.String()
}
