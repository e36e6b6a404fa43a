package security

import (
	"context"
	"sync"
	"testing"
	"time"

	"tenfour/internal/termclient"
)

// The probe (issue 14 L3) flooded floor requests from one terminal: releasing and asking again at once (queued
// requests too), it kept its group's floor while another member's presses were refused. Replayed: a talker
// that asks again right after its turn waits for those refused during it (docs/voice.md "Floor").
func TestFloorFloodDoesNotKeepTheFloor(t *testing.T) {
	f := newVoiceFleet(t, "10000001", "10000002")
	flooder, other := f.terminal("10000001"), f.terminal("10000002")
	ctx := f.Ctx()
	r, err := flooder.RequestFloor(ctx, "", "", false)
	if err != nil || r.Status != "granted" {
		t.Fatalf("first press: %+v %v", r, err)
	}
	call := r.CallID
	if _, err := other.RequestFloor(ctx, call, "", false); termclient.Code(err) != "486" {
		t.Fatalf("the other's press while the flooder talks: %v, want 486", err)
	}
	// Release and ask again at once: the floor waits for the member refused meanwhile.
	if err := flooder.ReleaseFloor(ctx, call); err != nil {
		t.Fatal(err)
	}
	if r, err := flooder.RequestFloor(ctx, call, "", false); termclient.Code(err) != "486" {
		t.Fatalf("re-press right after releasing: %+v %v, want 486 (the other asked first)", r, err)
	}
	if r, err := flooder.RequestFloor(ctx, call, "", true); err != nil || r.Status != "queued" || r.Position != 1 {
		t.Fatalf("queued re-press right after releasing: %+v %v, want queued 1", r, err)
	}
	if r, err := other.RequestFloor(ctx, call, "", false); err != nil || r.Status != "granted" {
		t.Fatalf("the other's press after the flooder released: %+v %v, want granted", r, err)
	}
	// The queued request comes next.
	if err := other.ReleaseFloor(ctx, call); err != nil {
		t.Fatal(err)
	}
	if _, err := flooder.WaitEvent(ctx, "floor.granted", nil); err != nil {
		t.Fatal(err)
	}

	// The flood: release and ask again (queued or not) at the socket's rate limit. The other member presses
	// after each round of the flood, while the flooder holds the floor again: before the fix it never got it.
	fctx, stop := context.WithCancel(ctx)
	rounds := make(chan struct{}, 1)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(50 * time.Millisecond) // 2 frames a tick: within the 50 frames/s rate limit
		defer tick.Stop()
		for i := 0; ; i++ {
			select {
			case <-fctx.Done():
				return
			case <-tick.C:
			}
			_ = flooder.ReleaseFloor(fctx, call)
			_, _ = flooder.RequestFloor(fctx, call, "", i%2 == 1)
			select {
			case rounds <- struct{}{}:
			default:
			}
		}
	}()
	defer func() { stop(); wg.Wait() }()
	// After one refusal the other member's next press must get the floor: the flooder's next round waits for it.
	start := time.Now()
	for refused := 0; refused < 3; refused++ {
		select {
		case <-ctx.Done():
			t.Fatal(ctx.Err())
		case <-rounds:
		}
		r, err := other.RequestFloor(ctx, call, "", false)
		if err == nil && r.Status == "granted" {
			t.Logf("the other member got the floor after %d refusals, %v into the flood", refused, time.Since(start))
			if refused == 0 {
				t.Fatal("granted at once: the flood did not hold the floor (the test proves nothing)")
			}
			return
		}
		if termclient.Code(err) != "486" {
			t.Fatalf("the other's press: %+v %v", r, err)
		}
	}
	t.Fatal("the flooder kept the floor: the other member was refused 3 times in a row")
}
