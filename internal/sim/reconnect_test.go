package sim_test

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"testing"
	"time"

	"tenfour/internal/sim"
	"tenfour/internal/testkit"
)

func demoAccounts(ids ...string) []sim.Account {
	return accountsWhere(sim.DemoAccounts(), func(id string) bool { return slices.Contains(ids, id) })
}

// accountsWhere are the accounts of from whose id keep keeps, in from's order.
func accountsWhere(from []sim.Account, keep func(id string) bool) []sim.Account {
	var out []sim.Account
	for _, a := range from {
		if keep(a.ID) {
			out = append(out, a)
		}
	}
	return out
}

func groupID(t *testing.T, s *testkit.Server, name string) string {
	t.Helper()
	var id int64
	if err := s.DB.QueryRow(context.Background(), `SELECT id FROM ptt_groups WHERE name = ?`, name).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return strconv.FormatInt(id, 10)
}

// TestReconnectRestoresState checks what a terminal gets back when it reconnects (issue 5, robustness): its
// talk group as a dispatcher last switched it, the floor state of its group (someone talking while it was
// away), and the message sent while it was offline.
func TestReconnectRestoresState(t *testing.T) {
	s, con := demoConsole(t)
	f := testkit.RunFleet(t, sim.Options{URL: s.URL, Accounts: demoAccounts("10000107", "10000143"), Seed: 3, Rates: sim.Quiet,
		Loopback: true})
	talker, app := f.Terminal("10000107"), f.Terminal("10000143") // a Patrol South radio; an app in both patrols
	north, south := groupID(t, s, "Patrol North"), groupID(t, s, "Patrol South")
	testkit.Eventually(t, 20*time.Second, "terminals online with their groups", func() bool {
		return talker.PttGroup() == south && app.PttGroup() == north
	})

	// A dispatcher moves the app to Patrol South.
	if r := con.Call("group.switch", map[string]any{"gid": south, "msId": "10000143"}); r.Code != "0" {
		t.Fatalf("remote switch: %s %s", r.Code, r.Msg)
	}
	if app.PttGroup() != south {
		t.Fatalf("the terminal talks in %s after the switch", app.PttGroup())
	}

	// It loses the network; meanwhile a message is sent to it and the radio takes the floor of Patrol South.
	app.GoOffline(2 * time.Second)
	until(t, con, 10*time.Second, "the app offline", testkit.Event("presence", `"msId":"10000143","online":"0"`))
	if r := con.Call("sms.send", map[string]any{"msId": "10000143", "content": "Return to base"}); r.Code != "4" {
		t.Fatalf("message to an offline terminal: code %s %s, want 4 (kept pending)", r.Code, r.Msg)
	}
	ctx := ctxFor(t, 30*time.Second)
	talked := make(chan string, 1)
	go func() {
		code, err := talker.Talk(ctx, f.Clips().Long) // 5.6 s of speech
		if err != nil {
			code = err.Error()
		}
		talked <- code
	}()
	until(t, con, 10*time.Second, "the radio talking", testkit.Event("floor.state", `"msId":"10000107"`))

	// Back online: the server gives its talk group (group.list), the floor holder (call.list) and the message.
	testkit.Eventually(t, 10*time.Second, "the app back with its switched group", func() bool {
		return app.Online() && app.PttGroup() == south
	})
	testkit.Eventually(t, 3*time.Second, "the app knowing who talks in Patrol South", func() bool {
		return app.Talker(south) == "10000107"
	})
	testkit.Eventually(t, 10*time.Second, "the pending message delivered", func() bool { return app.Inbox() == 1 })
	// It came back with the resume token of its first login, not its password: one terminal session, no second.
	var sessions int
	if err := s.DB.QueryRow(context.Background(), `SELECT COUNT(*) FROM sessions WHERE account_id = ? AND kind = 'terminal'`,
		"10000143").Scan(&sessions); err != nil || sessions != 1 {
		t.Fatalf("terminal sessions of the app: %d (%v), want 1", sessions, err)
	}
	until(t, con, 10*time.Second, "the message state delivered", func(fr testkit.Frame) bool {
		var st struct {
			MsID  string `json:"msId"`
			State string `json:"state"`
		}
		return fr.Type == "sms.status" && json.Unmarshal(fr.Data, &st) == nil && st.MsID == "10000143" && st.State == "delivered"
	})
	if code := <-talked; code != "" {
		t.Fatalf("the radio's burst: %s", code)
	}
	testkit.Eventually(t, 5*time.Second, "the floor free again", func() bool { return app.Talker(south) == "" })
}
