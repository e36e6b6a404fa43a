package cluster_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"tenfour/internal/config"
	"tenfour/internal/files/filetest"
	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

// A console on node 1 sends a terminal on node 2 an SMS, a job ticket (and deletes it), a tone and a remote
// parameter: each reaches the terminal through its node (realtime.Peer over NATS) and the terminal's
// acknowledgement comes back, so each is recorded as delivered; a refusal comes back as a refusal. A terminal
// that is on no node gets nothing and everything stays pending in the store (the source of truth).
func TestConsoleReachesATerminalOnAnotherNode(t *testing.T) {
	c := newCluster(t)
	data := t.TempDir() // shared storage for the files (docs/operations.md: --data on NFS when any node serves any file)
	shared := func(cfg *config.Config) { cfg.DataDir = data }
	n1, n2 := c.node("n1", shared), c.node("n2", shared)
	f := testkit.NewFleet(t, n1.DB, "1", 2, 1)
	tok := n1.Token(f.Dispatcher, f.Customer)
	con := testkit.Console(t, n1.URL, tok)
	term := testkit.Terminal(t, n2.URL, f.Terminals[0], testkit.Password)
	testkit.Eventually(t, 2*time.Second, "node 1 sees the terminal on node 2", func() bool { return n1.Hub.Online(f.Terminals[0]) })
	if n1.Hub.LocalOnline(f.Terminals[0]) {
		t.Fatal("the terminal is on node 2")
	}

	// SMS: delivered, and recorded as delivered (the console's reply counts the acknowledgement).
	id := con.Request("sms.send", map[string]any{"msId": f.Terminals[0], "content": "gate 4 is open"})
	req := term.WaitEvent("sms.deliver", 3*time.Second, nil)
	if !strings.Contains(string(req.Data), "gate 4 is open") {
		t.Fatalf("sms.deliver %s", req.Data)
	}
	term.Reply(req, "0", nil)
	// Delivery is at least once (docs/terminal-protocol.md): node 2's login-time delivery of pending messages may
	// send this one too while node 1's relay is under way; a terminal acknowledges every repeat, as this one does
	// until the console's answer comes.
	var reply testkit.Frame
	for deadline := time.Now().Add(10 * time.Second); ; {
		if r, ok := con.TryWait(100*time.Millisecond, func(f testkit.Frame) bool { return f.Re == id }); ok {
			reply = r
			break
		}
		if rep, ok := term.TryWait(100*time.Millisecond, func(f testkit.Frame) bool { return f.Type == "sms.deliver" && f.Re == 0 }); ok {
			term.Reply(rep, "0", nil)
		}
		if time.Now().After(deadline) {
			t.Fatal("no answer to sms.send")
		}
	}
	var sms struct {
		Online, Delivered int
		State             string
	}
	if r := reply; r.Code != "0" {
		t.Fatalf("sms.send %+v", r)
	} else {
		r.Into(t, &sms)
	}
	if sms.Online != 1 || sms.Delivered != 1 || sms.State != "delivered" {
		t.Fatalf("sms across nodes: %+v", sms)
	}

	// Job ticket: delivered, the ticket records it with the terminal's name; deleting it tells the terminal.
	r := n1.Do(http.MethodPost, "/ds/job/add", tok, map[string]any{"job": "check pump 3", "msIds": []string{f.Terminals[0]}})
	if r.Code != "0" {
		t.Fatalf("job/add %+v", r)
	}
	var job struct {
		JobID string `json:"jobId"`
	}
	r.Into(t, &job)
	req = term.WaitEvent("job.deliver", 3*time.Second, nil)
	if !strings.Contains(string(req.Data), "check pump 3") {
		t.Fatalf("job.deliver %s", req.Data)
	}
	term.Reply(req, "0", nil)
	con.WaitEvent("job.changed", 3*time.Second, func(fr testkit.Frame) bool {
		var j struct {
			JobMsList []struct {
				MsID      string `json:"msId"`
				MsName    string `json:"msName"`
				Delivered bool   `json:"delivered"`
			} `json:"jobMsList"`
		}
		return json.Unmarshal(fr.Data, &j) == nil && len(j.JobMsList) == 1 && j.JobMsList[0].Delivered &&
			j.JobMsList[0].MsID == f.Terminals[0]
	})
	if r := n1.Do(http.MethodDelete, "/ds/job/delete", tok, map[string]any{"jobId": job.JobID}); r.Code != "0" {
		t.Fatalf("job/delete %+v", r)
	}
	term.WaitEvent("job.canceled", 3*time.Second, func(fr testkit.Frame) bool { return strings.Contains(string(fr.Data), job.JobID) })

	// Tone: played and acknowledged; a second one refused comes back as not delivered.
	file := filetest.MustUpload(t, n1, tok, "siren.wav", filetest.WAV(800), "")
	icon := filetest.MustUpload(t, n1, tok, "siren.png", filetest.PNG(), "")
	r = n1.Do(http.MethodPost, "/ds/tone/add", tok, map[string]any{"name": "Siren", "fileUrl": file.URL, "iconUrl": icon.URL})
	var tn struct{ ID string }
	r.Into(t, &tn)
	for _, answer := range []string{"0", "486"} {
		id = con.Request("tone.send", map[string]any{"toneId": tn.ID, "msIds": []string{f.Terminals[0]}})
		req = term.WaitEvent("tone.play", 3*time.Second, nil)
		if answer == "0" { // the terminal fetches the sound from its own node with the token node 1 signed
			var play struct{ FileURL string }
			req.Into(t, &play)
			if res, body := filetest.Get(t, n2, play.FileURL); res.StatusCode != http.StatusOK || len(body) == 0 {
				t.Fatalf("the tone from node 2 with node 1's token: HTTP %d", res.StatusCode)
			}
		}
		term.Reply(req, answer, nil)
		reply := con.ReplyTo(id)
		if answer == "486" {
			if reply.Code != "16" { // a single terminal's refusal: failure, as on one node
				t.Fatalf("tone refused across nodes: %+v", reply)
			}
			continue
		}
		var res struct{ Delivered int }
		reply.Into(t, &res)
		if reply.Code != "0" || res.Delivered != 1 {
			t.Fatalf("tone.send across nodes: %+v %+v", reply, res)
		}
	}

	// Remote parameter: the terminal applies it and the console's request succeeds; a refusal is the client's code.
	for _, answer := range []string{"0", "409"} {
		id = con.Request("param.set", map[string]any{"msId": f.Terminals[0], "params": map[string]string{"gpsInterval": "30s"}})
		req = term.WaitEvent("param.set", 3*time.Second, nil)
		term.Reply(req, answer, nil)
		if got := con.ReplyTo(id); got.Code != answer {
			t.Fatalf("param.set answered %s across nodes, console got %+v", answer, got)
		}
	}

	// Hub.SendTo (an SOS acknowledgement, a lone-work start, a patrol order) reaches it on its node too.
	if !n1.Hub.SendTo(f.Terminals[0], "sos.acked", map[string]any{"id": "a9"}) {
		t.Fatal("SendTo across nodes reports nobody reached")
	}
	term.WaitEvent("sos.acked", 3*time.Second, func(fr testkit.Frame) bool { return strings.Contains(string(fr.Data), "a9") })

	// A terminal online nowhere: the SMS is stored pending and reaches it at its next login, on either node.
	id = con.Request("sms.send", map[string]any{"msId": f.Terminals[1], "content": "call the desk"})
	if r := con.ReplyTo(id); r.Code != "4" { // not online, as on one node: stored, delivered at the next login
		t.Fatalf("sms to an offline terminal %+v", r)
	}
	late := testkit.Terminal(t, n2.URL, f.Terminals[1], testkit.Password)
	req = late.WaitEvent("sms.deliver", 3*time.Second, nil)
	if !strings.Contains(string(req.Data), "call the desk") {
		t.Fatalf("pending sms %s", req.Data)
	}
}

// The Go terminal client given the nodes' URLs moves to the surviving node when its node is SIGKILLed, logging in
// with the resume token the dead node issued (sessions are rows in PostgreSQL, valid on every node).
func TestTerminalClientFailsOverWithItsResumeToken(t *testing.T) {
	c := newCluster(t)
	n1 := c.node("n1")
	f := testkit.NewFleet(t, n1.DB, "1", 1, 1)
	p2 := c.child("n2")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cl, err := termclient.Dial(ctx, termclient.Options{URL: p2.URL, URLs: []string{n1.URL}, UID: f.Terminals[0],
		Password: testkit.Password})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	if cl.Resume == "" {
		t.Fatal("no resume token in the login reply")
	}
	testkit.Eventually(t, 2*time.Second, "node 1 sees the terminal on node 2", func() bool { return n1.Hub.Online(f.Terminals[0]) })

	p2.Kill(t)
	start := time.Now()
	<-cl.Done()
	moved, err := cl.Failover(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer moved.Close()
	t.Logf("the terminal logged in on node 1 %v after node 2's SIGKILL", time.Since(start))
	if !n1.Hub.LocalOnline(f.Terminals[0]) || moved.MsID != f.Terminals[0] {
		t.Fatalf("after the fail-over the terminal is not on node 1 (%q)", moved.MsID)
	}
	// the token node 2 issued logs in on node 1 without a password (what Failover presented first)
	again, err := termclient.Dial(ctx, termclient.Options{URL: n1.URL, UID: f.Terminals[0], Resume: cl.Resume})
	if err != nil {
		t.Fatalf("resume token on another node: %v", err)
	}
	again.Close()
	bad, err := termclient.Dial(ctx, termclient.Options{URL: n1.URL, UID: f.Terminals[0], Resume: "r1.forged"})
	if err == nil {
		bad.Close()
		t.Fatal("a forged resume token logged in")
	}
}

// A login's reply lists the live nodes' public URLs, its own first (what the phone app and the console fail
// over to), and a page served by one node may open its socket on another (the nodes' hosts are allowed origins).
func TestLoginListsTheNodesToFailOverTo(t *testing.T) {
	c := newCluster(t)
	n1 := c.node("n1", func(cfg *config.Config) { cfg.PublicURL = "http://n1.example:8091" })
	c.node("n2", func(cfg *config.Config) { cfg.PublicURL = "http://n2.example:8092" })
	f := testkit.NewFleet(t, n1.DB, "1", 1, 1)
	var nodes []string
	testkit.Eventually(t, 5*time.Second, "both nodes listed", func() bool {
		s := n1.Dial()
		defer s.Close()
		r := s.Call("session.login", map[string]any{"client": "terminal", "uid": f.Terminals[0], "auth": testkit.Password})
		var reply struct{ Nodes []string }
		_ = json.Unmarshal(r.Data, &reply)
		nodes = reply.Nodes
		return len(nodes) == 2
	})
	if nodes[0] != "http://n1.example:8091" || nodes[1] != "http://n2.example:8092" {
		t.Fatalf("nodes %q: this node first, then the others", nodes)
	}
	// the pages of node 1 may open their socket on node 2 (the CSP's connect-src)
	page, err := http.Get(n1.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	page.Body.Close()
	if csp := page.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "wss://n2.example:8092") {
		t.Fatalf("node 1's CSP does not let a page reach node 2: %s", csp)
	}
	// a page served by node 2 opens its socket on node 1
	req, _ := http.NewRequest(http.MethodGet, n1.URL+"/ds/ws", nil)
	req.Header.Set("Origin", "http://n2.example:8092")
	req.Header.Set("Connection", "Upgrade")
	req.Header.Set("Upgrade", "websocket")
	req.Header.Set("Sec-WebSocket-Version", "13")
	req.Header.Set("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("socket from another node's page: HTTP %d", res.StatusCode)
	}
	req.Header.Set("Origin", "http://elsewhere.example")
	if res, err = http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusForbidden {
		t.Fatalf("socket from a foreign page: HTTP %d", res.StatusCode)
	}
}

// A node that joins after a terminal logged in elsewhere learns who it is from the holding node (op "who"):
// its console reaches the terminal with the terminal's name on the delivery.
func TestANodeJoiningLaterReachesATerminalOnAnotherNode(t *testing.T) {
	c := newCluster(t)
	n1 := c.node("n1")
	f := testkit.NewFleet(t, n1.DB, "1", 1, 1)
	term := testkit.Terminal(t, n1.URL, f.Terminals[0], testkit.Password)
	n2 := c.node("n2") // joins after the login: no presence message carried the principal to it
	testkit.Eventually(t, 2*time.Second, "node 2 knows the terminal is on node 1", func() bool { return n2.Hub.Online(f.Terminals[0]) })
	tok := n2.Token(f.Dispatcher, f.Customer)
	r := n2.Do(http.MethodPost, "/ds/job/add", tok, map[string]any{"job": "open gate 2", "msIds": []string{f.Terminals[0]}})
	if r.Code != "0" {
		t.Fatalf("job/add on node 2: %+v", r)
	}
	req := term.WaitEvent("job.deliver", 3*time.Second, nil)
	term.Reply(req, "0", nil)
	var j struct {
		JobID string `json:"jobId"`
	}
	r.Into(t, &j)
	testkit.Eventually(t, 3*time.Second, "the ticket is delivered", func() bool {
		lr := n2.Do(http.MethodGet, "/ds/job/list", tok, map[string]any{"jobId": j.JobID})
		return strings.Contains(string(lr.Result), `"delivered":true`)
	})
	p := n2.Hub.PeerOf(context.Background(), f.Terminals[0])
	if p == nil || p.Kind() != "terminal" || p.Principal().CustomerID != f.Customer || p.Principal().Name == "" ||
		p.Principal().Token != "" {
		t.Fatalf("node 2's peer of the terminal on node 1: %+v", p)
	}
}
