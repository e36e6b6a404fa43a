package realtime

import (
	"context"
	"fmt"
	"testing"
	"time"

	"tenfour/internal/testkit/probe"
)

// A console page reloading (its socket closes with 1001, the same sign-in logs in again) is no logout and no new
// login: the hooks (presence, logs 5/6) see nothing. This is the reload after sign-in (spec §4) that logged
// online, offline, online within a second.
func TestConsoleReloadKeepsTheSession(t *testing.T) {
	r := newRig(t)
	log := recordHooks(r, false)
	page := r.login("1001", 1, Console, "tokA")
	page.CloseGoingAway()
	probe.Eventually(t, wait, "the page's socket gone", func() bool { return !r.hub.Online("1001") })
	again := r.login("1001", 1, Console, "tokA")
	if got := fmt.Sprint(log.list()); got != "[in false]" {
		t.Fatalf("hooks across a reload %s", got)
	}
	r.hub.Publish(1, "test.after", map[string]int{}, Everyone)
	again.WaitEvent("test.after", wait, nil)
	// Closing normally (sign-out, the socket stopped) logs out at once.
	again.Close()
	probe.Eventually(t, wait, "logout", func() bool { return fmt.Sprint(log.list()) == "[in false out false]" })
}

// A page that went away and does not come back logs out after the grace; another sign-in within it replaces it.
func TestConsoleGoneAwayLogsOutAfterGraceOrIsReplaced(t *testing.T) {
	r := newRig(t)
	r.hub.SetReloadGrace(200 * time.Millisecond)
	log := recordHooks(r, true)
	r.login("1001", 1, Console, "tokA").CloseGoingAway()
	probe.Eventually(t, wait, "logout after the grace", func() bool { return fmt.Sprint(log.list()) == "[in 1001 false out 1001 false]" })

	r.hub.SetReloadGrace(time.Minute)
	r.login("1002", 1, Console, "tokC").CloseGoingAway()
	probe.Eventually(t, wait, "the page's socket gone", func() bool { return !r.hub.Online("1002") })
	r.login("1002", 1, Console, "tokD") // another sign-in
	if got := fmt.Sprint(log.list()[2:]); got != "[in 1002 false in 1002 true]" {
		t.Fatalf("another sign-in after a page went away: %s", got)
	}
}

// recordHooks notes every login ("in") and logout ("out") hook call with its replaced flag (and the account).
func recordHooks(r *rig, withAccount bool) *hookLog {
	var log hookLog
	note := func(what string, c *Conn, replaced bool) {
		if withAccount {
			what += " " + c.Principal().AccountID
		}
		log.add(fmt.Sprintf("%s %v", what, replaced))
	}
	r.hub.OnLogin(func(_ context.Context, c *Conn, replaced bool) { note("in", c, replaced) })
	r.hub.OnLogout(func(_ context.Context, c *Conn, replaced bool) { note("out", c, replaced) })
	return &log
}
