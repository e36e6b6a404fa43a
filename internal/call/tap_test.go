package call_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/pion/rtp"

	"tenfour/internal/call"
	"tenfour/internal/testkit"
)

// Live paging taps (SetTap, docs/adr/0018; issue 30 H2) are keyed by customer and account and checked before
// anything changes: another customer naming a console sets nothing and takes nothing away; a tap set again for
// the same console replaces the one before, which is told ("replaced") and whose remove takes nothing of the new
// one's; a console whose media closes ends its tap ("media").
func TestTapsBelongToTheCustomer(t *testing.T) {
	w := newWorld(t)
	ctx := w.Ctx()
	w.account("10009001", "20", "")
	con := w.console("10009001")
	other := w.NewCustomer("other")
	v := w.voice()

	counter := func(n *atomic.Int64) func(*rtp.Header, []byte) {
		return func(*rtp.Header, []byte) { n.Add(1) }
	}
	ended := func() (chan string, func(string)) {
		ch := make(chan string, 4)
		return ch, func(r string) { ch <- r }
	}
	speak := func() {
		t.Helper()
		if err := con.Send(ctx, tagged(25, 'p'), 2*time.Millisecond); err != nil {
			t.Fatal(err)
		}
	}
	var first, second, stranger atomic.Int64
	firstEnded, onFirst := ended()
	removeFirst, ok := v.SetTap(w.Customer, "10009001", counter(&first), onFirst)
	if !ok {
		t.Fatal("the tap of a connected console of the customer was refused")
	}
	strangerEnded, onStranger := ended()
	for _, acct := range []string{"10009001", "10009999"} {
		if _, ok := v.SetTap(other, acct, counter(&stranger), onStranger); ok {
			t.Fatalf("another customer set a tap on %s", acct)
		}
	}
	if _, ok := v.SetTap(w.Customer, "10009999", counter(&stranger), onStranger); ok {
		t.Fatal("a tap of an account with no console here was set")
	}
	// the console's routes are computed again: its tap is still the first one
	if err := con.Call(ctx, "voice.priority", map[string]string{"mode": "latest"}, nil); err != nil {
		t.Fatal(err)
	}
	speak()
	testkit.Eventually(t, 5*time.Second, "the console's packets reach its tap", func() bool { return first.Load() >= 25 })
	if n := stranger.Load(); n != 0 {
		t.Fatalf("refused taps received %d packets", n)
	}
	select {
	case r := <-firstEnded:
		t.Fatalf("the tap ended (%s) when another customer named its console", r)
	default:
	}

	secondEnded, onSecond := ended()
	removeSecond, ok := v.SetTap(w.Customer, "10009001", counter(&second), onSecond)
	if !ok {
		t.Fatal("the second tap was refused")
	}
	if r := tapEnd(t, firstEnded); r != call.TapReplaced {
		t.Fatalf("the replaced tap ended with %q, want %q", r, call.TapReplaced)
	}
	removeFirst() // the replaced tap's remove leaves the new one
	was := first.Load()
	speak()
	testkit.Eventually(t, 5*time.Second, "the packets reach the second tap", func() bool { return second.Load() >= 25 })
	if first.Load() != was {
		t.Fatal("the replaced tap still receives packets")
	}

	if err := con.Call(ctx, "rtc.close", nil, nil); err != nil {
		t.Fatal(err)
	}
	if r := tapEnd(t, secondEnded); r != call.TapNoMedia {
		t.Fatalf("the tap of a console whose media closed ended with %q, want %q", r, call.TapNoMedia)
	}
	removeSecond()
	select {
	case r := <-strangerEnded:
		t.Fatalf("a refused tap was told it ended (%s)", r)
	default:
	}
}

func tapEnd(t *testing.T, ch chan string) string {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(5 * time.Second):
		t.Fatal("no end of the tap told")
		return ""
	}
}
