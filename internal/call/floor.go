package call

import "time"

// Priority orders floor claims: a higher priority pre-empts a lower one; equal priorities wait their turn.
type Priority int

const (
	PrioTerminal   Priority = 1
	PrioDispatcher Priority = 2
	PrioEmergency  Priority = 3 // an SOS talker pre-empts everyone
)

// Claim is one request for the floor.
type Claim struct {
	Account string
	Client  *client // the connection that pressed (whose microphone talks)
	Prio    Priority
	At      time.Time // when the request arrived (press → grant is measured from here)
	Queue   bool      // wait for the floor rather than be denied
}

// Decision is the floor's answer to a request.
type Decision int

const (
	Denied Decision = iota
	Granted
	Queued
)

// Floor is one call's floor: exactly one holder, and a queue ordered by priority, then arrival. It is a plain
// value guarded by the service's lock, so its decisions are cheap and easy to test.
type Floor struct {
	Holder   *Claim
	Queue    []*Claim
	MaxQueue int
}

// Request decides a claim. A claim that outranks the holder takes the floor and the holder is returned as
// preempted; a request by the holder itself is granted again.
func (f *Floor) Request(c *Claim) (d Decision, preempted *Claim, position int) {
	switch {
	case f.Holder == nil:
		f.removeQueued(c.Account)
		f.Holder = c
		return Granted, nil, 0
	case f.Holder.Account == c.Account:
		f.Holder = c
		return Granted, nil, 0
	case c.Prio > f.Holder.Prio:
		preempted = f.Holder
		f.removeQueued(c.Account)
		f.Holder = c
		return Granted, preempted, 0
	case !c.Queue:
		return Denied, nil, 0
	}
	if i := f.queued(c.Account); i >= 0 {
		return Queued, nil, i + 1
	}
	if len(f.Queue) >= f.MaxQueue {
		return Denied, nil, 0
	}
	i := len(f.Queue)
	for i > 0 && f.Queue[i-1].Prio < c.Prio {
		i--
	}
	f.Queue = append(f.Queue, nil)
	copy(f.Queue[i+1:], f.Queue[i:])
	f.Queue[i] = c
	return Queued, nil, i + 1
}

// Release gives up the floor or a place in the queue. When the holder releases, the head of the queue takes
// the floor and is returned as next.
func (f *Floor) Release(account string) (wasHolder bool, next *Claim) {
	if f.Holder != nil && f.Holder.Account == account {
		f.Holder = nil
		if len(f.Queue) > 0 {
			next = f.Queue[0]
			f.Queue = f.Queue[1:]
			f.Holder = next
		}
		return true, next
	}
	f.removeQueued(account)
	return false, nil
}

// Drop removes every claim of a client (its connection closed): as Release, for that connection only.
func (f *Floor) Drop(cl *client) (wasHolder bool, next *Claim) {
	kept := f.Queue[:0]
	for _, c := range f.Queue {
		if c.Client != cl {
			kept = append(kept, c)
		}
	}
	f.Queue = kept
	if f.Holder != nil && f.Holder.Client == cl {
		return f.Release(f.Holder.Account)
	}
	return false, nil
}

func (f *Floor) queued(account string) int {
	for i, c := range f.Queue {
		if c.Account == account {
			return i
		}
	}
	return -1
}

func (f *Floor) removeQueued(account string) {
	if i := f.queued(account); i >= 0 {
		f.Queue = append(f.Queue[:i], f.Queue[i+1:]...)
	}
}

// QueueIDs lists the queued accounts in order.
func (f *Floor) QueueIDs() []string {
	out := make([]string, len(f.Queue))
	for i, c := range f.Queue {
		out[i] = c.Account
	}
	return out
}
