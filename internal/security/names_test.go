package security

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"tenfour/internal/auth"
	"tenfour/internal/files"
	"tenfour/internal/tenant"
	"tenfour/internal/testkit"
)

// spoofs are the probe's names (issue 14 L5): each reads as something it is not in the tree, on the map or in
// the operation log.
var spoofs = map[string]string{
	"right-to-left override": "Patrol \u202eanihc",
	"isolate":                "Unit \u2066A\u2069",
	"right-to-left mark":     "Radio\u200f 7",
	"zero-width space":       "Radio\u200b7",
	"zero-width joiner":      "Radio\u200d7",
	"byte-order mark":        "\ufeffDispatch",
	"replacement character":  "Radio \ufffd",
	"control character":      "Radio\u00077",
}

// TestNameSpoofing replays L5: names accepted bidirectional overrides, a byte-order mark and zero-width
// characters, and invalid UTF-8 silently became U+FFFD. Every name a dispatcher sets — group, terminal,
// temporary group, fence, mark, tone — is now refused with its domain's coded "invalid characters", invalid
// UTF-8 included, and a name is stored in NFC (so two spellings of "Café" are one name).
func TestNameSpoofing(t *testing.T) {
	s := testkit.Start(t)
	c := testkit.Customer(t, s.DB, "names")
	testkit.Account(t, s.DB, auth.NewAccount{CustomerID: c, ID: "34000001", Name: "Dispatcher", Type: "20", Group: "All"})
	testkit.Account(t, s.DB, auth.NewAccount{CustomerID: c, ID: "34000101", Name: "Radio", Type: "10", Group: "All"})
	tok := s.Token("34000001", c)
	console := testkit.Console(t, s.URL, tok)
	square := map[string]any{"type": "Polygon", "coordinates": [][][]float64{{{28, 40}, {29, 40}, {29, 41}, {28, 41}, {28, 40}}}}

	type setter struct {
		what string
		set  func(name string) (code string)
		want string // the domain's "invalid characters" code
	}
	call := func(method, path string, params map[string]any) string { return s.Do(method, path, tok, params).Code }
	setters := []setter{
		{"new group", func(n string) string { return call("POST", "/ds/nms/addGroup", map[string]any{"name": n}) }, "10"},
		{"terminal name", func(n string) string {
			return call("PUT", "/ds/nms/updateTerminalName", map[string]any{"msId": "34000101", "msName": n})
		}, "10"},
		{"temporary group", func(n string) string {
			return console.Call("tempGroup.create", map[string]any{"name": n, "msIds": []string{"34000101"}}).Code
		}, "10"},
		{"fence", func(n string) string {
			return call("POST", "/ds/fence/create", map[string]any{"name": n, "type": "in", "shape": "polygon", "geometry": square, "msIds": []string{"34000101"}})
		}, "400"},
		{"mark", func(n string) string {
			return call("POST", "/ds/custom/addMark", map[string]any{"name": n, "type": "point", "geometry": map[string]any{"type": "Point", "coordinates": []float64{29, 41}}})
		}, "400"},
		{"tone", func(n string) string {
			return call("POST", "/ds/tone/add", map[string]any{"name": n, "fileUrl": "/filews/files/x.ogg"})
		}, "10"},
	}
	for _, st := range setters {
		for kind, name := range spoofs {
			if got := st.set(name); got != st.want {
				t.Errorf("%s named with a %s (%q): code %s, want %s", st.what, kind, name, got, st.want)
			}
		}
	}

	// Invalid UTF-8 on the wire, in a JSON body and in a query string: refused, not turned into U+FFFD.
	for _, req := range []*http.Request{
		mustRequest(t, "POST", s.URL+"/ds/nms/addGroup", "application/json", "{\"name\":\"Radio \xff\xfe\"}"),
		mustRequest(t, "POST", s.URL+"/ds/nms/addGroup?name=Radio%20%FF", "", ""),
	} {
		req.Header.Set("token", tok)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if !strings.Contains(string(body), `"code":"10"`) {
			t.Errorf("invalid UTF-8 group name (%s): %s", req.URL, body)
		}
	}

	// NFC: "Cafe" + combining acute is stored composed, so the precomposed spelling is the same name.
	if r := s.Do("POST", "/ds/nms/addGroup", tok, map[string]any{"name": "Cafe\u0301"}); r.Code != "0" {
		t.Fatalf("decomposed name: %s %q", r.Code, r.Msg)
	}
	if r := s.Do("POST", "/ds/nms/addGroup", tok, map[string]any{"name": "Caf\u00e9"}); r.Code != "21" {
		t.Errorf("precomposed twin of an existing group: %s %q, want 21 (name exists)", r.Code, r.Msg)
	}

	// Customers and accounts made by an administrator (tenfour admin) follow the same rule.
	if _, err := tenant.Create(context.Background(), s.DB, "Acme\u202e"); err == nil {
		t.Error("customer name with a right-to-left override accepted")
	}
	if err := auth.CreateAccount(context.Background(), s.DB, auth.NewAccount{CustomerID: c, ID: "34000002",
		Name: "Dispatcher\u200b", Type: "20", Password: testkit.Password, Group: "All"}); err == nil {
		t.Error("account name with a zero-width space accepted")
	}

	// An uploaded file's name loses what would make it read differently ("gpj.exe" shown as "exe.jpg").
	if got := files.CleanName("photo\u202egpj.exe"); got != "photogpj.exe" {
		t.Errorf("file name with an override: %q", got)
	}
}

func mustRequest(t *testing.T, method, url, contentType, body string) *http.Request {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	return req
}
