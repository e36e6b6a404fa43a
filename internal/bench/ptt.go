package bench

import (
	"context"
	"sync"
	"time"

	"tenfour/internal/termclient"
)

// Presses has each talker press and release PTT presses times, in parallel, each at most every 50 ms (the
// socket's request rate limit allows 50 a second), and returns the access times as the talkers saw them
// (floor.request sent → its granted reply read) and as the server reported them (request received → granted).
// A talker waits for the reply of its release before pressing again.
func Presses(ctx context.Context, talkers []*termclient.Client, presses int) (client, server []time.Duration, err error) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, tk := range talkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range presses {
				next := time.Now().Add(50 * time.Millisecond)
				t0 := time.Now()
				r, e := tk.RequestFloor(ctx, "", "", false)
				d := time.Since(t0)
				if e == nil && r.Status != "granted" {
					e = &termclient.CodeError{Type: "floor.request", Code: r.Status, Msg: "not granted"}
				}
				if e == nil {
					e = tk.ReleaseFloor(ctx, r.CallID)
				}
				mu.Lock()
				if e != nil {
					if err == nil {
						err = e
					}
					mu.Unlock()
					return
				}
				client = append(client, d)
				server = append(server, time.Duration(r.PressToGrantUs)*time.Microsecond)
				mu.Unlock()
				time.Sleep(time.Until(next))
			}
		}()
	}
	wg.Wait()
	return client, server, err
}
