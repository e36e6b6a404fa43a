package secretkey_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"tenfour/internal/secretkey"
	"tenfour/internal/testkit"
)

const wait = 5 * time.Second

const (
	keyA = "A1B2C3D4E5F6G7H8J9K0L1M2N3P4Q5R6"
	keyB = "ZYXWVUTSRQPONMLKJIHGFEDCBA987654"
	keyC = "00000000000000000000000000000001"
)

type key struct {
	ID, Name, SecretKey, CreateBy string
	Current                       bool
	RotateTime                    int64
}

type keyList struct {
	Total int
	List  []key
}

// changed waits for the next key.changed on a socket and returns its data.
func changed(t *testing.T, s *testkit.Socket) secretkey.Changed {
	t.Helper()
	f := s.WaitEvent(secretkey.EventChanged, wait, nil)
	var c secretkey.Changed
	if err := json.Unmarshal(f.Data, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// noChange asserts that no key.changed is waiting on a terminal's socket (the console's echo came first, so the
// terminal's event would have been queued before it).
func noChange(t *testing.T, s *testkit.Socket) {
	t.Helper()
	if f, ok := s.TryWait(200*time.Millisecond, func(f testkit.Frame) bool { return f.Type == secretkey.EventChanged }); ok {
		t.Fatalf("unexpected key.changed %s", f.Data)
	}
}

func TestSecretKeyScenarios(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		s := testkit.StartOn(t, engine)
		a, b := testkit.NewFleet(t, s.DB, "1", 2, 1), testkit.NewFleet(t, s.DB, "2", 1, 1)
		tok, tokB := a.Token, b.Token
		console := testkit.Console(t, s.URL, tok)
		term := testkit.Terminal(t, s.URL, a.Terminals[0], testkit.Password)
		termB := testkit.Terminal(t, s.URL, b.Terminals[0], testkit.Password)
		noChange(t, term) // no key yet: nothing at login
		userKey := func(tok string) string {
			var u struct{ SecretKey string }
			s.Do("GET", "/ds/user/getAccount", tok, nil).Into(t, &u)
			return u.SecretKey
		}
		if k := userKey(tok); k != "" {
			t.Fatalf("userInfo.secretKey before any key: %q", k)
		}
		termTok := s.Token(a.Terminals[0], a.Customer)
		api := testkit.APITest{Server: s, State: []string{"secret_keys"}, Socket: console,
			Token: func(alias string) string {
				if alias == "terminal" {
					return termTok
				}
				return alias
			}}
		var first, second key
		api.Run(t, []testkit.Scenario{
			{Name: "add the first key: current at once", Method: "POST", Path: "/ds/key/add", Token: tok,
				Params: map[string]any{"name": "Net 1", "secretKey": keyA}, Code: "0", Events: []string{secretkey.EventChanged},
				Check: func(t *testing.T, r testkit.Reply) {
					r.Into(t, &first)
					if first.ID == "" || first.Name != "Net 1" || first.SecretKey != keyA || !first.Current || first.CreateBy != a.Dispatcher || first.RotateTime == 0 {
						t.Fatalf("%+v", first)
					}
					if c := changed(t, term); c.SecretKey != keyA || c.KeyID != first.ID {
						t.Fatalf("terminal got %+v", c)
					}
				}},
			{Name: "blanks around the key are dropped", Method: "POST", Path: "/ds/key/add", Token: tok,
				Params: map[string]any{"name": "Net 2", "secretKey": " " + keyB + " "}, Code: "0", Events: []string{secretkey.EventChanged},
				Check: func(t *testing.T, r testkit.Reply) {
					r.Into(t, &second)
					if second.SecretKey != keyB || second.Current {
						t.Fatalf("second key %+v", second)
					}
					noChange(t, term) // the current key did not change
				}},
			{Name: "lower case", Method: "POST", Path: "/ds/key/add", Token: tok, Params: map[string]any{"name": "x", "secretKey": strings.ToLower(keyA)}, Code: "140", Status: 400},
			{Name: "31 characters", Method: "POST", Path: "/ds/key/add", Token: tok, Params: map[string]any{"name": "x", "secretKey": keyC[:31]}, Code: "140"},
			{Name: "33 characters", Method: "POST", Path: "/ds/key/add", Token: tok, Params: map[string]any{"name": "x", "secretKey": keyC + "1"}, Code: "140"},
			{Name: "320 characters (the other reading, ADR 0021)", Method: "POST", Path: "/ds/key/add", Token: tok, Params: map[string]any{"name": "x", "secretKey": strings.Repeat(keyC, 10)}, Code: "140"},
			{Name: "symbols", Method: "POST", Path: "/ds/key/add", Token: tok, Params: map[string]any{"name": "x", "secretKey": "A1B2C3D4E5F6G7H8J9K0L1M2N3P4Q5R-"}, Code: "140"},
			{Name: "inner space", Method: "POST", Path: "/ds/key/add", Token: tok, Params: map[string]any{"name": "x", "secretKey": "A1B2C3D4E5F6G7H8 9K0L1M2N3P4Q5R6"}, Code: "140"},
			{Name: "no key", Method: "POST", Path: "/ds/key/add", Token: tok, Params: map[string]any{"name": "x"}, Code: "140"},
			{Name: "no name", Method: "POST", Path: "/ds/key/add", Token: tok, Params: map[string]any{"secretKey": keyC}, Code: "142"},
			{Name: "blank name", Method: "POST", Path: "/ds/key/add", Token: tok, Params: map[string]any{"name": "  ", "secretKey": keyC}, Code: "142"},
			{Name: "long name", Method: "POST", Path: "/ds/key/add", Token: tok, Params: map[string]any{"name": strings.Repeat("n", 33), "secretKey": keyC}, Code: "143"},
			{Name: "name with a control character", Method: "POST", Path: "/ds/key/add", Token: tok, Params: map[string]any{"name": "a\u202eb", "secretKey": keyC}, Code: "10"},
			{Name: "the same key twice", Method: "POST", Path: "/ds/key/add", Token: tok, Params: map[string]any{"name": "Other", "secretKey": keyA}, Code: "141", Status: http.StatusConflict},
			{Name: "the same name twice", Method: "POST", Path: "/ds/key/add", Token: tok, Params: map[string]any{"name": "Net 1", "secretKey": keyC}, Code: "74"},
			{Name: "without a token", Method: "POST", Path: "/ds/key/add", Params: map[string]any{"name": "x", "secretKey": keyC}, Code: "105"},
			{Name: "bad current flag", Method: "POST", Path: "/ds/key/add", Token: tok, Params: map[string]any{"name": "x", "secretKey": keyC, "current": "maybe"}, Code: "400"},
			{Name: "another customer may hold the same key and name", Method: "POST", Path: "/ds/key/add", Token: tokB,
				Params: map[string]any{"name": "Net 1", "secretKey": keyA}, Code: "0", Check: func(t *testing.T, r testkit.Reply) {
					if c := changed(t, termB); c.SecretKey != keyA {
						t.Fatalf("B's terminal got %+v", c)
					}
				}},
		})
		// The ids are known now: the calls on the stored keys.
		api.Run(t, []testkit.Scenario{
			{Name: "list: the current key first", Method: "GET", Path: "/ds/key/list", Token: tok, Code: "0", Check: func(t *testing.T, r testkit.Reply) {
				var l keyList
				r.Into(t, &l)
				if l.Total != 2 || l.List[0].ID != first.ID || !l.List[0].Current || l.List[1].ID != second.ID {
					t.Fatalf("%+v", l)
				}
			}},
			{Name: "list of another customer", Method: "GET", Path: "/ds/key/list", Token: tokB, Code: "0", Check: func(t *testing.T, r testkit.Reply) {
				var l keyList
				r.Into(t, &l)
				if l.Total != 1 || l.List[0].ID == first.ID {
					t.Fatalf("%+v", l)
				}
			}},
			{Name: "rename", Method: "PUT", Path: "/ds/key/update", Token: tok, Params: map[string]any{"id": second.ID, "name": "Net 2b"}, Code: "0",
				Events: []string{secretkey.EventChanged}, Check: func(t *testing.T, r testkit.Reply) {
					var k key
					r.Into(t, &k)
					if k.Name != "Net 2b" || k.SecretKey != keyB || k.Current {
						t.Fatalf("%+v", k)
					}
				}},
			{Name: "rotate: the second key becomes current", Method: "PUT", Path: "/ds/key/update", Token: tok,
				Params: map[string]any{"id": second.ID, "current": true}, Code: "0", Events: []string{secretkey.EventChanged},
				Check: func(t *testing.T, r testkit.Reply) {
					if c := changed(t, term); c.SecretKey != keyB || c.KeyID != second.ID {
						t.Fatalf("terminal got %+v", c)
					}
					if k := userKey(tok); k != keyB {
						t.Fatalf("userInfo.secretKey %q", k)
					}
					var l keyList
					s.Do("GET", "/ds/key/list", tok, nil).Into(t, &l)
					if l.List[0].ID != second.ID || !l.List[0].Current || l.List[1].Current {
						t.Fatalf("one current key: %+v", l)
					}
				}},
			{Name: "a new text for the current key reaches terminals", Method: "PUT", Path: "/ds/key/update", Token: tok,
				Params: map[string]any{"id": second.ID, "secretKey": keyC}, Code: "0", Check: func(t *testing.T, r testkit.Reply) {
					if c := changed(t, term); c.SecretKey != keyC {
						t.Fatalf("terminal got %+v", c)
					}
				}},
			{Name: "update to a malformed key", Method: "PUT", Path: "/ds/key/update", Token: tok, Params: map[string]any{"id": second.ID, "secretKey": "abc"}, Code: "140"},
			{Name: "update to another key's text", Method: "PUT", Path: "/ds/key/update", Token: tok, Params: map[string]any{"id": second.ID, "secretKey": keyA}, Code: "141"},
			{Name: "update to another key's name", Method: "PUT", Path: "/ds/key/update", Token: tok, Params: map[string]any{"id": second.ID, "name": "Net 1"}, Code: "74"},
			{Name: "update another customer's key", Method: "PUT", Path: "/ds/key/update", Token: tokB, Params: map[string]any{"id": first.ID, "name": "mine"}, Code: "404"},
			{Name: "update without id", Method: "PUT", Path: "/ds/key/update", Token: tok, Params: map[string]any{"name": "x"}, Code: "400"},
			{Name: "update a bad id", Method: "PUT", Path: "/ds/key/update", Token: tok, Params: map[string]any{"id": "x1", "name": "x"}, Code: "400"},
			{Name: "a terminal's token", Method: "GET", Path: "/ds/key/list", Token: "terminal", Code: "107"},
			{Name: "delete another customer's key", Method: "DELETE", Path: "/ds/key/delete", Token: tokB, Params: map[string]any{"id": second.ID}, Code: "404"},
			{Name: "delete a key that is not current", Method: "DELETE", Path: "/ds/key/delete", Token: tok, Params: map[string]any{"id": first.ID}, Code: "0",
				Events: []string{secretkey.EventChanged}, Check: func(t *testing.T, r testkit.Reply) { noChange(t, term) }},
			{Name: "delete it again", Method: "DELETE", Path: "/ds/key/delete", Token: tok, Params: map[string]any{"id": first.ID}, Code: "404"},
			{Name: "switch the current key off", Method: "PUT", Path: "/ds/key/update", Token: tok, Params: map[string]any{"id": second.ID, "current": "0"}, Code: "0",
				Check: func(t *testing.T, r testkit.Reply) {
					if c := changed(t, term); c.SecretKey != "" || c.KeyID != "" {
						t.Fatalf("terminal got %+v", c)
					}
					if k := userKey(tok); k != "" {
						t.Fatalf("userInfo.secretKey %q", k)
					}
				}},
			{Name: "current again", Method: "PUT", Path: "/ds/key/update", Token: tok, Params: map[string]any{"id": second.ID, "current": "true"}, Code: "0",
				Check: func(t *testing.T, r testkit.Reply) {
					if c := changed(t, term); c.SecretKey != keyC {
						t.Fatalf("terminal got %+v", c)
					}
				}},
		})

		// A terminal that logs in later gets the current key right after its login reply; one of another
		// customer gets its own.
		late := testkit.Terminal(t, s.URL, a.Terminals[1], testkit.Password)
		if c := changed(t, late); c.SecretKey != keyC || c.KeyID != second.ID {
			t.Fatalf("at login %+v", c)
		}
		if k := userKey(tokB); k != keyA {
			t.Fatalf("B's userInfo.secretKey %q", k)
		}
		// The sign-in answer carries it too (spec §3 user info).
		var signIn struct{ UserInfo struct{ SecretKey string } }
		s.Do("GET", "/ds/user", "", map[string]any{"uid": a.Dispatcher, "auth": testkit.Password}).Into(t, &signIn)
		if signIn.UserInfo.SecretKey != keyC {
			t.Fatalf("sign-in userInfo.secretKey %q", signIn.UserInfo.SecretKey)
		}

		// Deleting the current key leaves the customer without one.
		if r := s.Do("DELETE", "/ds/key/delete", tok, map[string]any{"id": second.ID}); r.Code != "0" {
			t.Fatal(r)
		}
		if c := changed(t, term); c.SecretKey != "" {
			t.Fatalf("after deleting the current key %+v", c)
		}
		if k := userKey(tok); k != "" {
			t.Fatalf("userInfo.secretKey after delete %q", k)
		}
		again := testkit.Terminal(t, s.URL, a.Terminals[1], testkit.Password)
		noChange(t, again)
	})
}

func TestValidKey(t *testing.T) {
	for k, want := range map[string]bool{
		keyA: true, keyC: true, strings.Repeat("Z", 32): true,
		"": false, keyA[:31]: false, keyA + "A": false, strings.ToLower(keyA): false, strings.Repeat(keyA, 10): false,
		"A1B2C3D4E5F6G7H8J9K0L1M2N3P4Q5RÖ": false,
	} {
		if got := secretkey.ValidKey(k); got != want {
			t.Errorf("ValidKey(%q) = %v, want %v", k, got, want)
		}
	}
}
