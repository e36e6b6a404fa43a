package geo

import (
	"context"
	"sync"
	"time"

	"tenfour/internal/platform/realtime"
	"tenfour/internal/platform/ticker"
)

// EventGPS is the console event carrying the latest state of the terminals that changed since the last one:
// `{"list":[Live…]}`, latest wins per terminal, at most FanoutChunk items per frame.
const EventGPS = "gps"

// FanoutChunk bounds the items of one `gps` frame; a burst of more terminals goes out as several frames.
const FanoutChunk = 1000

// GPSEvent is the data of a `gps` event.
type GPSEvent struct {
	List []Live `json:"list"`
}

// fanout coalesces live updates per terminal and publishes them to each customer's consoles every interval, so
// a fleet reporting thousands of positions per second costs a console a few frames per second.
type fanout struct {
	hub   *realtime.Hub
	every time.Duration

	mu      sync.Mutex
	pending map[int64]map[string]Live
}

func newFanout(hub *realtime.Hub, every time.Duration) *fanout {
	return &fanout{hub: hub, every: every, pending: map[int64]map[string]Live{}}
}

// put records a terminal's latest state for the next flush.
func (f *fanout) put(customer int64, l Live) {
	f.mu.Lock()
	m := f.pending[customer]
	if m == nil {
		m = map[string]Live{}
		f.pending[customer] = m
	}
	m[l.MsID] = l
	f.mu.Unlock()
}

func (f *fanout) run(ctx context.Context) {
	ticker.Every(ctx, f.every, f.flush)
}

func (f *fanout) flush() {
	f.mu.Lock()
	batch := f.pending
	if len(batch) == 0 {
		f.mu.Unlock()
		return
	}
	f.pending = make(map[int64]map[string]Live, len(batch))
	f.mu.Unlock()
	for customer, m := range batch {
		list := make([]Live, 0, min(len(m), FanoutChunk))
		for _, l := range m {
			list = append(list, l)
			if len(list) == FanoutChunk {
				f.hub.Publish(customer, EventGPS, GPSEvent{List: list}, realtime.Consoles)
				list = make([]Live, 0, FanoutChunk)
			}
		}
		if len(list) > 0 {
			f.hub.Publish(customer, EventGPS, GPSEvent{List: list}, realtime.Consoles)
		}
	}
}
