package termclient

import (
	"context"
	"fmt"
	"sync"

	"github.com/pion/webrtc/v4"
)

// watched is state under a mutex that callers wait on: each change (notifyLocked) closes the channel of the
// moment, waking whoever waits in until. Media and Video embed it for their connection state and counts.
type watched struct {
	mu      sync.Mutex
	changed chan struct{}              // closed at the next change; made at first use
	state   webrtc.PeerConnectionState // of the PeerConnection followed
}

// follow keeps state as pc's connection state, waking the waiters at each change.
func (w *watched) follow(pc *webrtc.PeerConnection) {
	pc.OnConnectionStateChange(func(s webrtc.PeerConnectionState) {
		w.mu.Lock()
		w.state = s
		w.notifyLocked()
		w.mu.Unlock()
	})
}

// notifyLocked wakes the waiters; mu is held.
func (w *watched) notifyLocked() {
	if w.changed != nil {
		close(w.changed)
	}
	w.changed = make(chan struct{})
}

// until calls done under mu, again after each change, until it reports true or an error; it returns that error,
// or ctx's when ctx ends first.
func (w *watched) until(ctx context.Context, done func() (bool, error)) error {
	for {
		w.mu.Lock()
		ok, err := done()
		if w.changed == nil {
			w.changed = make(chan struct{})
		}
		ch := w.changed
		w.mu.Unlock()
		if ok || err != nil {
			return err
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// connected is until's test of a PeerConnection's state: done once connected, an error once it failed or closed.
func connected(what string, s webrtc.PeerConnectionState) (bool, error) {
	switch s {
	case webrtc.PeerConnectionStateConnected:
		return true, nil
	case webrtc.PeerConnectionStateFailed, webrtc.PeerConnectionStateClosed:
		return false, fmt.Errorf("termclient: %s %s", what, s)
	}
	return false, nil
}
