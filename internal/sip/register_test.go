package sip_test

import (
	"context"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emiago/sipgo"
	"github.com/emiago/sipgo/sip"

	"tenfour/internal/auth"
	"tenfour/internal/config"
	"tenfour/internal/directory"
	"tenfour/internal/testkit"
)

// The accounts of these tests: a SIP account, and a native terminal with the same password (which may not
// register over SIP).
const (
	phone      = "10000180"
	terminal   = "10000181"
	dispatcher = "10000001"
)

// sipWorld is a server with SIP on a free loopback port, a customer with a SIP account and a native terminal.
type sipWorld struct {
	*testkit.World
	host string
	port int
	// contact is the port of the phones' Contact: 5099, where nothing listens, unless a phone answers calls
	// (individual_test.go)
	contact int
}

func startSIP(t *testing.T, engine string, opts ...func(*config.Config)) *sipWorld {
	t.Helper()
	w := testkit.NewWorld(t, engine, append([]func(*config.Config){func(c *config.Config) { c.SIP.Addr = "127.0.0.1:0" }}, opts...)...)
	if w.SIP == nil {
		t.Fatal("--sip-addr set, but the server has no SIP side")
	}
	testkit.Account(t, w.DB, auth.NewAccount{CustomerID: w.Customer, ID: phone, Name: "Desk phone", Type: "8", Group: "Ops", Kind: directory.KindSIP})
	testkit.Account(t, w.DB, auth.NewAccount{CustomerID: w.Customer, ID: terminal, Name: "Radio", Type: "10", Group: "Ops"})
	testkit.Account(t, w.DB, auth.NewAccount{CustomerID: w.Customer, ID: dispatcher, Name: "Desk", Type: auth.DispatcherType, Group: "Ops"})
	ap, err := netip.ParseAddrPort(w.SIP.Addr())
	if err != nil {
		t.Fatal(err)
	}
	return &sipWorld{World: w, host: ap.Addr().String(), port: int(ap.Port()), contact: 5099}
}

// phoneClient is a SIP user agent on loopback, as a desk phone would be; opts add to its agent's (the TLS roots
// it trusts: tls_test.go).
func phoneClient(t *testing.T, opts ...sipgo.UserAgentOption) *sipgo.Client {
	t.Helper()
	ua, err := sipgo.NewUA(append([]sipgo.UserAgentOption{sipgo.WithUserAgent("test-phone")}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	c, err := sipgo.NewClient(ua, sipgo.WithClientHostname("127.0.0.1"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(); ua.Close() })
	return c
}

// request builds a request of user to the server over transport (UDP or TCP).
func (w *sipWorld) request(method sip.RequestMethod, user, transport string, recipient string) *sip.Request {
	req := sip.NewRequest(method, sip.Uri{User: recipient, Host: w.host, Port: w.port})
	aor := sip.Uri{User: user, Host: w.host}
	from := sip.NewParams()
	from.Add("tag", sip.GenerateTagN(8))
	req.AppendHeader(&sip.FromHeader{Address: aor, Params: from})
	req.AppendHeader(&sip.ToHeader{Address: aor, Params: sip.NewParams()})
	req.AppendHeader(&sip.ContactHeader{Address: sip.Uri{User: user, Host: "127.0.0.1", Port: w.contact}})
	req.SetTransport(transport)
	return req
}

// register sends a REGISTER for user asking for expires seconds and answers the challenge with pw; the final
// response.
func (w *sipWorld) register(t *testing.T, c *sipgo.Client, transport, user, pw string, expires int) *sip.Response {
	t.Helper()
	req := w.request(sip.REGISTER, user, transport, "")
	e := sip.ExpiresHeader(expires)
	req.AppendHeader(&e)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := c.Do(ctx, req)
	if err != nil {
		t.Fatalf("REGISTER %s: %v", user, err)
	}
	if res.StatusCode != sip.StatusUnauthorized {
		t.Fatalf("REGISTER %s without credentials: %d, want a 401 challenge", user, res.StatusCode)
	}
	if h := res.GetHeader("WWW-Authenticate"); h == nil || !strings.Contains(h.Value(), `realm="tenfour"`) {
		t.Fatalf("challenge %v: want Digest realm=\"tenfour\"", h)
	}
	res, err = c.DoDigestAuth(ctx, req, res, sipgo.DigestAuth{Username: user, Password: pw})
	if err != nil {
		t.Fatalf("REGISTER %s with credentials: %v", user, err)
	}
	return res
}

func (w *sipWorld) online(t *testing.T, id string) bool {
	t.Helper()
	return w.Count(`SELECT COUNT(*) FROM accounts WHERE id = ? AND online`, id) == 1
}

// treeEntry is an account as a dispatcher's console reads it (findMsInfo, the tree's terminal object).
func (w *sipWorld) treeEntry(t *testing.T, id string) map[string]any {
	t.Helper()
	r := w.Do("GET", "/ds/data/findMsInfo", w.Token(dispatcher, w.Customer), map[string]any{"msId": id})
	if r.Code != "0" {
		t.Fatalf("findMsInfo %s: %s %s", id, r.Code, r.Msg)
	}
	var m map[string]any
	r.Into(t, &m)
	return m
}

// compactKind is an account's `kind` in the tree's compact form, the one the console reads.
func (w *sipWorld) compactKind(t *testing.T, id string) any {
	t.Helper()
	r := w.Do("GET", "/ds/data/getGrpMsList", w.Token(dispatcher, w.Customer), map[string]any{"isCompress": 1})
	var res struct {
		Cols   []string       `json:"cols"`
		Groups []compactGroup `json:"groups"`
	}
	r.Into(t, &res)
	k := slices.Index(res.Cols, "kind")
	var find func(gs []compactGroup) (any, bool)
	find = func(gs []compactGroup) (any, bool) {
		for _, g := range gs {
			for _, row := range g.Ms {
				if row[0] == id && k >= 0 && k < len(row) {
					return row[k], true
				}
			}
			if v, ok := find(g.Children); ok {
				return v, true
			}
		}
		return nil, false
	}
	v, ok := find(res.Groups)
	if !ok {
		t.Fatalf("%s not in the compact tree (cols %v)", id, res.Cols)
	}
	return v
}

type compactGroup struct {
	Ms       [][]any        `json:"ms"`
	Children []compactGroup `json:"children"`
}

func (w *sipWorld) presenceRows(t *testing.T, id string) (open, closed int) {
	t.Helper()
	err := w.DB.QueryRow(context.Background(), `SELECT
		COALESCE(SUM(CASE WHEN offline_at IS NULL THEN 1 ELSE 0 END), 0), COALESCE(SUM(CASE WHEN offline_at IS NOT NULL THEN 1 ELSE 0 END), 0)
		FROM presence_intervals WHERE account_id = ?`, id).Scan(&open, &closed)
	if err != nil {
		t.Fatal(err)
	}
	return open, closed
}

// A SIP account registers with its password over UDP and TCP and is online while registered, a presence
// interval open; wrong passwords, unknown ids and native terminals get the same challenge again; an INVITE is
// challenged, and forbidden once answered from an address without a registration; Expires 0 takes the account
// offline; a reset password is the digest's password from then on.
func TestRegister(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := startSIP(t, engine)
		c := phoneClient(t)
		ctx := context.Background()
		for _, tr := range []string{"UDP", "TCP"} {
			res, err := c.Do(ctx, w.request(sip.OPTIONS, phone, tr, ""))
			if err != nil || res.StatusCode != sip.StatusOK {
				t.Fatalf("OPTIONS over %s: %v %v, want 200", tr, res, err)
			}
		}

		invite := w.request(sip.INVITE, phone, "UDP", "1")
		res, err := c.Do(ctx, invite)
		if err != nil || res.StatusCode != sip.StatusUnauthorized {
			t.Fatalf("INVITE without credentials: %v %v, want a 401 challenge", res, err)
		}
		res, err = c.DoDigestAuth(ctx, invite, res, sipgo.DigestAuth{Username: phone, Password: testkit.Password})
		if err != nil || res.StatusCode != sip.StatusForbidden {
			t.Fatalf("INVITE answering the challenge before registering: %v %v, want 403", res, err)
		}

		for _, tc := range []struct{ name, user, pw string }{
			{"wrong password", phone, "654321"},
			{"unknown id", "10009999", testkit.Password},
			{"malformed id", "phone", testkit.Password},
			{"native terminal", terminal, testkit.Password},
		} {
			if res := w.register(t, c, "UDP", tc.user, tc.pw, 60); res.StatusCode != sip.StatusUnauthorized {
				t.Errorf("%s: %d, want 401 like any refused answer", tc.name, res.StatusCode)
			}
		}
		if w.online(t, phone) {
			t.Fatal("online before a right REGISTER")
		}

		for _, tr := range []string{"UDP", "TCP"} {
			res := w.register(t, c, tr, phone, testkit.Password, 120)
			if res.StatusCode != sip.StatusOK {
				t.Fatalf("REGISTER over %s with the right password: %d, want 200", tr, res.StatusCode)
			}
			if h := res.GetHeader("Expires"); h == nil || h.Value() != "120" {
				t.Fatalf("REGISTER over %s: Expires %v, want 120", tr, h)
			}
		}
		if m := w.treeEntry(t, phone); m["kind"] != "sip" || m["online"] != "1" {
			t.Fatalf("a registered SIP account in the tree: kind %v, online %v; want sip, 1", m["kind"], m["online"])
		}
		if m := w.treeEntry(t, terminal); m["kind"] != nil {
			t.Fatalf("a native terminal in the tree has kind %v, want none", m["kind"])
		}
		if k := w.compactKind(t, phone); k != "sip" {
			t.Fatalf("the SIP account in the compact tree (the console's): kind %v, want sip", k)
		}
		if k := w.compactKind(t, terminal); k != nil {
			t.Fatalf("a native terminal in the compact tree has kind %v, want null", k)
		}
		if open, _ := w.presenceRows(t, phone); open != 1 {
			t.Fatalf("registered twice: %d open presence intervals, want 1", open)
		}
		var failed int
		if err := w.DB.QueryRow(ctx, `SELECT failed_logins FROM accounts WHERE id = ?`, phone).Scan(&failed); err != nil || failed != 0 {
			t.Fatalf("failed_logins after a right answer: %d %v, want 0", failed, err)
		}

		if res := w.register(t, c, "UDP", phone, testkit.Password, 0); res.StatusCode != sip.StatusOK {
			t.Fatalf("REGISTER with Expires 0: %d, want 200", res.StatusCode)
		}
		testkit.Eventually(t, 5*time.Second, "offline after un-REGISTER", func() bool { return !w.online(t, phone) })
		if open, closed := w.presenceRows(t, phone); open != 0 || closed != 1 {
			t.Fatalf("after un-REGISTER: %d open, %d closed intervals, want 0 and 1", open, closed)
		}

		// A new password is the digest's too: the old one is refused from then on.
		const newPassword = "Phone#2026x"
		if err := auth.ResetPassword(ctx, w.DB, phone, newPassword); err != nil {
			t.Fatal(err)
		}
		if res := w.register(t, c, "TCP", phone, testkit.Password, 60); res.StatusCode != sip.StatusUnauthorized {
			t.Fatalf("old password after a reset: %d, want 401", res.StatusCode)
		}
		if res := w.register(t, c, "TCP", phone, newPassword, 60); res.StatusCode != sip.StatusOK {
			t.Fatalf("new password after a reset: %d, want 200", res.StatusCode)
		}
	})
}

// A registration that is not refreshed ends at its expiry: the account goes offline; a shorter one than the
// server accepts is refused with 423 and Min-Expires.
func TestRegistrationExpires(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := startSIP(t, engine, func(c *config.Config) { c.SIP.MinExpires = time.Second })
		c := phoneClient(t)
		if res := w.register(t, c, "UDP", phone, testkit.Password, 1); res.StatusCode != sip.StatusOK {
			t.Fatalf("REGISTER for 1 s: %d, want 200", res.StatusCode)
		}
		if !w.online(t, phone) {
			t.Fatal("registered, yet offline")
		}
		testkit.Eventually(t, 10*time.Second, "offline at expiry", func() bool { return !w.online(t, phone) })

		short := startSIP(t, engine) // the default: 60 s at least
		res := short.register(t, phoneClient(t), "UDP", phone, testkit.Password, 30)
		if res.StatusCode != sip.StatusIntervalToBrief {
			t.Fatalf("REGISTER for 30 s: %d, want 423", res.StatusCode)
		}
		if h := res.GetHeader("Min-Expires"); h == nil || h.Value() != "60" {
			t.Fatalf("423 without Min-Expires 60: %v", h)
		}
	})
}

// Wrong digest answers count toward the account's lockout like wrong passwords: the fifth locks it (403), and
// then even the right password is refused (403) until the lock ends.
func TestRegisterLockout(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := startSIP(t, engine)
		c := phoneClient(t)
		for i := range auth.MaxFailedLogins {
			want := sip.StatusUnauthorized
			if i == auth.MaxFailedLogins-1 {
				want = sip.StatusForbidden // the answer that locks it, as a terminal's login learns it is locked (107)
			}
			if res := w.register(t, c, "UDP", phone, "000000", 60); res.StatusCode != want {
				t.Fatalf("wrong answer %d: %d, want %d", i+1, res.StatusCode, want)
			}
		}
		if res := w.register(t, c, "UDP", phone, testkit.Password, 60); res.StatusCode != sip.StatusForbidden {
			t.Fatalf("right password of a locked account: %d, want 403", res.StatusCode)
		}
		if w.online(t, phone) {
			t.Fatal("a locked account came online")
		}
	})
}

// sippRequest is the REGISTER SIPp sends (CSeq %d), %s its [authentication] line for the second one.
const sippRequest = `REGISTER sip:[remote_ip]:[remote_port] SIP/2.0
Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]
From: <sip:[service]@[remote_ip]>;tag=[pid]SIPpTag[call_number]
To: <sip:[service]@[remote_ip]>
Call-ID: [call_id]
CSeq: %d REGISTER
Contact: <sip:[service]@[local_ip]:[local_port]>
%sExpires: 120
Max-Forwards: 70
Content-Length: 0
`

// sippScenario registers, answers the 401 challenge with -au/-ap and expects the final status want.
func sippScenario(want int) []byte {
	step := func(cseq int, auth string) string {
		return "  <send retrans=\"500\"><![CDATA[\n" + fmt.Sprintf(sippRequest, cseq, auth) + "\n]]></send>\n"
	}
	return []byte(`<?xml version="1.0" encoding="ISO-8859-1" ?>
<scenario name="REGISTER with digest">
` + step(1, "") + `  <recv response="401" auth="true"/>
` + step(2, "[authentication]\n") + fmt.Sprintf(`  <recv response="%d"/>
</scenario>
`, want))
}

// A real SIP client, SIPp (Debian's sip-tester, `make test-deps`), registers with digest: the right password
// gets 200 and the account comes online; a wrong one gets the challenge again.
func TestSIPpRegister(t *testing.T) {
	sipp, err := exec.LookPath("sipp")
	if err != nil {
		t.Skip("sipp is not installed (scripts/test-deps.sh installs sip-tester)")
	}
	w := startSIP(t, "sqlite")
	run := func(pw string, want int) {
		t.Helper()
		dir := t.TempDir() // sipp's scenario and error log, named relative to it
		root, err := os.OpenRoot(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer root.Close()
		if err := root.WriteFile("register.xml", sippScenario(want), 0o600); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, sipp, "-sf", "register.xml", "-m", "1", "-nostdin", "-i", "127.0.0.1",
			"-p", fmt.Sprint(testkit.FreePort(t)), "-s", phone, "-au", phone, "-ap", pw,
			"-timeout", "15s", "-timeout_error", "-trace_err", "-error_file", "errors.log",
			w.SIP.Addr())
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			errs, _ := root.ReadFile("errors.log")
			t.Fatalf("sipp with password %q expecting %d: %v\n%s\n%s", pw, want, err, errs, out[max(0, len(out)-2000):])
		}
	}
	run("654321", 401)
	if w.online(t, phone) {
		t.Fatal("online after a wrong password")
	}
	run(testkit.Password, 200)
	if !w.online(t, phone) {
		t.Fatal("SIPp registered, yet the account is offline")
	}
}
