package sim

import (
	"context"
	"errors"
	"math"
	"time"

	"tenfour/internal/termclient"
)

// ---- for tests and tools ----------------------------------------------------------------------------------------

// Online tells whether the terminal is logged in.
func (t *Terminal) Online() bool { t.mu.Lock(); defer t.mu.Unlock(); return t.state == stOnline }

// PttGroup is the group it talks in, as it knows it.
func (t *Terminal) PttGroup() string { t.mu.Lock(); defer t.mu.Unlock(); return t.ptt }

// SecretKey is the customer's current secret key as the terminal last received it ("" = none).
func (t *Terminal) SecretKey() string { t.mu.Lock(); defer t.mu.Unlock(); return t.secretKey }

// CallSet is its call-set status (8 active, 1 stunned, 0 killed).
func (t *Terminal) CallSet() int { t.mu.Lock(); defer t.mu.Unlock(); return t.callSet }

// TURNServers is how many TURN servers a dispatcher sent it (turn.config) for its next media connection.
func (t *Terminal) TURNServers() int { t.mu.Lock(); defer t.mu.Unlock(); return len(t.turn) }

// Inbox is how many messages it received.
func (t *Terminal) Inbox() int { t.mu.Lock(); defer t.mu.Unlock(); return t.inbox }

// Failed is the code of a login refused for good ("" if none).
func (t *Terminal) Failed() string { t.mu.Lock(); defer t.mu.Unlock(); return t.failed }

// Battery is its battery level in percent.
func (t *Terminal) Battery() int { t.mu.Lock(); defer t.mu.Unlock(); return int(math.Round(t.battery)) }

// Media is its PeerConnection while one is open.
func (t *Terminal) Media() *termclient.Media { t.mu.Lock(); defer t.mu.Unlock(); return t.media }

// ConnectMedia opens its PeerConnection now and keeps it open (a listener) until the fleet stops.
func (t *Terminal) ConnectMedia(ctx context.Context) (*termclient.Media, error) {
	t.fl.pin(t)
	ch := make(chan bool, 1)
	t.mu.Lock()
	t.withMediaLocked(func(ok bool) { ch <- ok })
	t.mu.Unlock()
	select {
	case ok := <-ch:
		if !ok {
			return nil, errors.New("sim: no media connection")
		}
		return t.Media(), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Talk talks once in its talk group now (floor request, speech, release) and returns "" when the speech
// was sent, or the code that stopped it (e.g. "606" blocked, "486" floor busy).
func (t *Terminal) Talk(ctx context.Context, clip Clip) (string, error) {
	ch := make(chan string, 1)
	t.mu.Lock()
	if t.state != stOnline {
		t.mu.Unlock()
		return "", errors.New("sim: terminal offline")
	}
	if t.talk != nil {
		t.mu.Unlock()
		return "", errors.New("sim: already talking")
	}
	t.startTalkLocked("", t.ptt, clip.Packets, false, func(code string) { ch <- code })
	t.mu.Unlock()
	select {
	case code := <-ch:
		return code, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// Drop loses the network now (the server sees the connection end); the terminal reconnects by itself.
func (t *Terminal) Drop() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.state == stOnline {
		t.dropLocked()
	}
}

// GoOffline loses the network for d (positions are buffered meanwhile), then reconnects.
func (t *Terminal) GoOffline(d time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.netDown = true
	if t.state == stOnline || t.state == stConnecting {
		t.dropLocked()
	}
	t.fl.sched.after(d, t.netUp)
}

// Talker is who the terminal believes holds the floor of group gid ("" = nobody else).
func (t *Terminal) Talker(gid string) string { t.mu.Lock(); defer t.mu.Unlock(); return t.busy[gid] }

// Groups are the ids of its groups, as it knows them.
func (t *Terminal) Groups() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]string, len(t.groups))
	for i, g := range t.groups {
		out[i] = g.GID
	}
	return out
}
