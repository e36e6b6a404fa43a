package tone_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"tenfour/internal/files/filetest"
	"tenfour/internal/testkit"
)

// world is a testkit.World with two fleets, a (the test's terminals) and b (one terminal), their dispatchers'
// sessions and a console of a's.
type world struct {
	*testkit.World
	a, b      testkit.Fleet
	tok, tokB string
	console   *testkit.Socket
}

func newWorld(t *testing.T, engine string, terminals int) *world {
	t.Helper()
	tw := testkit.NewWorld(t, engine)
	w := &world{World: tw, a: tw.NewFleet("1", terminals, 1), b: tw.NewFleet("2", 1, 1)}
	w.tok, w.tokB = w.a.Token, w.b.Token
	w.console = testkit.Console(t, tw.URL, w.tok)
	return w
}

func (w *world) count(t *testing.T, q string, args ...any) int {
	t.Helper()
	var n int
	if err := w.DB.QueryRow(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

type tone struct {
	ID, Name, FileID, FileURL, AudioURL, IconID, IconURL, CreateBy, FileMime string
	Sort                                                                     int
	FileSize                                                                 int64
}

func TestToneLibraryScenarios(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := newWorld(t, engine, 0)
		up := func(tok, name string, body []byte) string {
			return filetest.MustUpload(t, w.Server, tok, name, body, "").URL
		}
		siren, horn, bell := up(w.tok, "siren.wav", filetest.WAV(2000)), up(w.tok, "horn.wav", filetest.WAV(3000)), up(w.tok, "bell.wav", filetest.WAV(100))
		icon, icon2 := up(w.tok, "siren.png", filetest.PNG()), up(w.tok, "horn.jpg", filetest.JPEG())
		bigSound := up(w.tok, "long.wav", filetest.WAV(5<<20))
		bigIcon := up(w.tok, "huge.png", append(filetest.PNG(), make([]byte, 1<<20)...))
		pdf := up(w.tok, "x.pdf", filetest.PDF())
		foreignSound := up(w.tokB, "theirs.wav", filetest.WAV(100))

		add := func(params map[string]any) testkit.Reply { return w.Do("POST", "/ds/tone/add", w.tok, params) }
		r := add(map[string]any{"name": "Evacuate", "fileUrl": siren, "iconUrl": icon, "sort": 2})
		var evac tone
		r.Into(t, &evac)
		if r.Code != "0" || evac.ID == "" || evac.Name != "Evacuate" || evac.FileURL != siren || evac.AudioURL != siren ||
			evac.IconURL != icon || evac.Sort != 2 || evac.CreateBy != w.a.Dispatcher || evac.FileMime != "audio/wave" {
			t.Fatalf("add %+v %+v", r, evac)
		}
		// The client may also send bare file ids, and a full URL with a host.
		r = add(map[string]any{"name": "Horn", "fileUrl": "http://example.org:31023" + horn + "?x=1", "iconUrl": strings.TrimPrefix(icon2, "/filews/files/")})
		if r.Code != "0" {
			t.Fatalf("add by id: %+v", r)
		}
		var hornTone tone
		r.Into(t, &hornTone)

		for _, tc := range []struct {
			name   string
			params map[string]any
			code   string
		}{
			{"no name", map[string]any{"fileUrl": bell, "iconUrl": icon}, "76"},
			{"blank name", map[string]any{"name": "  ", "fileUrl": bell, "iconUrl": icon}, "76"},
			{"long name", map[string]any{"name": strings.Repeat("n", 33), "fileUrl": bell, "iconUrl": icon}, "77"},
			{"illegal characters", map[string]any{"name": "bell\u202e", "fileUrl": bell, "iconUrl": icon}, "10"},
			{"line feed in the name", map[string]any{"name": "a\nb", "fileUrl": bell, "iconUrl": icon}, "10"},
			{"no file", map[string]any{"name": "Bell", "iconUrl": icon}, "75"},
			{"empty file", map[string]any{"name": "Bell", "fileUrl": "", "iconUrl": icon}, "75"},
			{"no image", map[string]any{"name": "Bell", "fileUrl": bell}, "78"},
			{"image as the sound", map[string]any{"name": "Bell", "fileUrl": icon, "iconUrl": icon}, "72"},
			{"sound as the image", map[string]any{"name": "Bell", "fileUrl": bell, "iconUrl": bell}, "72"},
			{"document as the sound", map[string]any{"name": "Bell", "fileUrl": pdf, "iconUrl": icon}, "72"},
			{"sound over 5 MB", map[string]any{"name": "Bell", "fileUrl": bigSound, "iconUrl": icon}, "71"},
			{"image over 1 MB", map[string]any{"name": "Bell", "fileUrl": bell, "iconUrl": bigIcon}, "71"},
			{"other customer's file", map[string]any{"name": "Bell", "fileUrl": foreignSound, "iconUrl": icon}, "404"},
			{"not a file reference", map[string]any{"name": "Bell", "fileUrl": "http://evil/x.wav", "iconUrl": icon}, "404"},
			{"name exists", map[string]any{"name": "Evacuate", "fileUrl": bell, "iconUrl": icon}, "74"},
			{"name exists despite blanks", map[string]any{"name": " Evacuate ", "fileUrl": bell, "iconUrl": icon}, "74"},
			{"file exists", map[string]any{"name": "Bell", "fileUrl": siren, "iconUrl": icon}, "73"},
			{"bad sort", map[string]any{"name": "Bell", "fileUrl": bell, "iconUrl": icon, "sort": "first"}, "400"},
			{"negative sort", map[string]any{"name": "Bell", "fileUrl": bell, "iconUrl": icon, "sort": -1}, "400"},
		} {
			before := w.count(t, `SELECT COUNT(*) FROM tones`)
			if r := add(tc.params); r.Code != tc.code {
				t.Errorf("add %s: %+v, want %s", tc.name, r, tc.code)
			}
			if w.count(t, `SELECT COUNT(*) FROM tones`) != before {
				t.Errorf("add %s stored a tone", tc.name)
			}
		}
		if r := w.Do("POST", "/ds/tone/add", "", map[string]any{"name": "Bell", "fileUrl": bell, "iconUrl": icon}); r.Code != "105" {
			t.Errorf("without token: %+v", r)
		}
		// The same name in another customer is fine.
		theirIcon := up(w.tokB, "i.png", filetest.PNG())
		if r := w.Do("POST", "/ds/tone/add", w.tokB, map[string]any{"name": "Evacuate", "fileUrl": foreignSound, "iconUrl": theirIcon}); r.Code != "0" {
			t.Fatalf("same name, other customer: %+v", r)
		}

		// List, by sort then id; createBy filters.
		var list struct {
			Total int
			List  []tone
		}
		w.Do("GET", "/ds/tone/list", w.tok, nil).Into(t, &list)
		if list.Total != 2 || list.List[0].Name != "Horn" || list.List[1].Name != "Evacuate" {
			t.Fatalf("list %+v", list)
		}
		w.Do("GET", "/ds/tone/list", w.tok, map[string]any{"createBy": "10000999"}).Into(t, &list)
		if list.Total != 0 {
			t.Fatalf("createBy filter %+v", list)
		}
		w.Do("GET", "/ds/tone/list", w.tokB, nil).Into(t, &list)
		if list.Total != 1 {
			t.Fatalf("other customer's list %+v", list)
		}

		// Update: given fields change, absent ones stay.
		up2 := w.Do("PUT", "/ds/tone/update", w.tok, map[string]any{"id": evac.ID, "name": "Evacuate now", "sort": 0})
		var upd tone
		up2.Into(t, &upd)
		if up2.Code != "0" || upd.Name != "Evacuate now" || upd.FileURL != siren || upd.IconURL != icon || upd.Sort != 0 {
			t.Fatalf("update %+v %+v", up2, upd)
		}
		for _, tc := range []struct {
			name   string
			token  string
			params map[string]any
			code   string
		}{
			{"no id", w.tok, map[string]any{"name": "X"}, "400"},
			{"malformed id", w.tok, map[string]any{"id": "x", "name": "X"}, "400"},
			{"other customer's tone", w.tokB, map[string]any{"id": evac.ID, "name": "Mine"}, "404"},
			{"name of another tone", w.tok, map[string]any{"id": evac.ID, "name": "Horn"}, "74"},
			{"file of another tone", w.tok, map[string]any{"id": evac.ID, "fileUrl": horn}, "73"},
			{"emptied name", w.tok, map[string]any{"id": evac.ID, "name": ""}, "76"},
			{"emptied icon", w.tok, map[string]any{"id": evac.ID, "iconUrl": ""}, "78"},
			{"image as the sound", w.tok, map[string]any{"id": evac.ID, "fileUrl": icon}, "72"},
		} {
			if r := w.Do("PUT", "/ds/tone/update", tc.token, tc.params); r.Code != tc.code {
				t.Errorf("update %s: %+v, want %s", tc.name, r, tc.code)
			}
		}
		if n := w.count(t, `SELECT COUNT(*) FROM tones WHERE name = 'Evacuate now' AND sort = 0`); n != 1 {
			t.Fatal("a refused update changed the tone")
		}

		// Delete.
		if r := w.Do("DELETE", "/ds/tone/delete", w.tokB, map[string]any{"id": evac.ID}); r.Code != "404" {
			t.Fatalf("delete by another customer: %+v", r)
		}
		if r := w.Do("DELETE", "/ds/tone/delete", w.tok, map[string]any{}); r.Code != "400" {
			t.Fatalf("delete without id: %+v", r)
		}
		if r := w.Do("DELETE", "/ds/tone/delete", w.tok, map[string]any{"id": evac.ID}); r.Code != "0" {
			t.Fatalf("delete: %+v", r)
		}
		if r := w.Do("DELETE", "/ds/tone/delete", w.tok, map[string]any{"id": evac.ID}); r.Code != "404" {
			t.Fatalf("delete twice: %+v", r)
		}
		// Its name and sound are free again.
		if r := add(map[string]any{"name": "Evacuate now", "fileUrl": siren, "iconUrl": icon}); r.Code != "0" {
			t.Fatalf("re-add: %+v", r)
		}
	})
}

func TestToneSend(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := newWorld(t, engine, 3)
		sound := filetest.WAV(1500)
		file := filetest.MustUpload(t, w.Server, w.tok, "siren.wav", sound, "")
		icon := filetest.MustUpload(t, w.Server, w.tok, "siren.png", filetest.PNG(), "")
		r := w.Do("POST", "/ds/tone/add", w.tok, map[string]any{"name": "Siren", "fileUrl": file.URL, "iconUrl": icon.URL})
		var tn tone
		r.Into(t, &tn)
		t0 := testkit.Terminal(t, w.URL, w.a.Terminals[0], testkit.Password)
		t1 := testkit.Terminal(t, w.URL, w.a.Terminals[1], testkit.Password)
		// Terminals[2] is offline.

		type result struct {
			ToneID                        string
			Recipients, Online, Delivered int
			Failed                        []string
			State                         string
		}
		// One terminal: it plays the tone and acknowledges.
		call := func(data map[string]any) int64 { return w.console.Request("tone.send", data) }
		id := call(map[string]any{"toneId": tn.ID, "msIds": []string{w.a.Terminals[0]}})
		req := t0.WaitEvent("tone.play", 5*time.Second, nil)
		var play struct {
			ToneID, Name, FileURL, IconURL, Mime, By, ByName string
			Size                                             int64
		}
		req.Into(t, &play)
		if play.ToneID != tn.ID || play.Name != "Siren" || play.Mime != "audio/wave" || play.By != w.a.Dispatcher ||
			!strings.HasPrefix(play.FileURL, file.URL+"?token=ft1.") || !strings.HasPrefix(play.IconURL, icon.URL+"?token=") {
			t.Fatalf("tone.play %s", req.Data)
		}
		// The terminal fetches the sound with the URL it was given.
		if res, body := filetest.Get(t, w.Server, play.FileURL); res.StatusCode != 200 || len(body) != len(sound) {
			t.Fatalf("terminal fetching the tone: %d", res.StatusCode)
		}
		t0.Reply(req, "0", nil)
		reply := w.console.ReplyTo(id)
		var res result
		reply.Into(t, &res)
		if reply.Code != "0" || res.Delivered != 1 || res.Recipients != 1 || res.State != "delivered" || len(res.Failed) != 0 {
			t.Fatalf("tone.send reply %+v %+v", reply, res)
		}

		// The group: t0 plays, t1 refuses, Terminals[2] is offline.
		id = call(map[string]any{"toneId": tn.ID, "gid": w.a.Groups[0]})
		req = t0.WaitEvent("tone.play", 5*time.Second, nil)
		t0.Reply(req, "0", nil)
		req = t1.WaitEvent("tone.play", 5*time.Second, nil)
		t1.Reply(req, "486", nil)
		reply = w.console.ReplyTo(id)
		reply.Into(t, &res)
		if reply.Code != "0" || res.Recipients != 3 || res.Online != 2 || res.Delivered != 1 || res.State != "partial" ||
			len(res.Failed) != 2 {
			t.Fatalf("group tone %+v %+v", reply, res)
		}
		// A single offline terminal: 'not online'.
		if reply := w.console.ReplyTo(call(map[string]any{"toneId": tn.ID, "msIds": w.a.Terminals[2]})); reply.Code != "4" {
			t.Fatalf("offline terminal: %+v", reply)
		}
		// A refusal from a single terminal: failure.
		id = call(map[string]any{"toneId": tn.ID, "msIds": []string{w.a.Terminals[1]}})
		req = t1.WaitEvent("tone.play", 5*time.Second, nil)
		t1.Reply(req, "486", nil)
		if reply := w.console.ReplyTo(id); reply.Code != "16" {
			t.Fatalf("refused: %+v", reply)
		}
		if n := w.count(t, `SELECT COUNT(*) FROM oplog WHERE type = 129 AND account_id = ?`, w.a.Dispatcher); n != 4 {
			t.Fatalf("log 129 entries %d", n)
		}

		// Bad input plays nothing and logs nothing.
		for _, tc := range []struct {
			name string
			data map[string]any
			code string
		}{
			{"no tone", map[string]any{"msIds": w.a.Terminals[0]}, "400"},
			{"malformed tone", map[string]any{"toneId": "siren", "msIds": w.a.Terminals[0]}, "400"},
			{"unknown tone", map[string]any{"toneId": 99999, "msIds": w.a.Terminals[0]}, "404"},
			{"no target", map[string]any{"toneId": tn.ID}, "400"},
			{"other customer's terminal", map[string]any{"toneId": tn.ID, "msIds": []string{w.a.Terminals[0], w.b.Terminals[0]}}, "404"},
			{"a dispatcher", map[string]any{"toneId": tn.ID, "msIds": w.a.Dispatcher}, "404"},
			{"other customer's group", map[string]any{"toneId": tn.ID, "gid": w.b.Groups[0]}, "404"},
			{"malformed group", map[string]any{"toneId": tn.ID, "gid": "all"}, "400"},
			{"msIds not a list", map[string]any{"toneId": tn.ID, "msIds": map[string]any{"a": 1}}, "400"},
		} {
			if reply := w.console.ReplyTo(call(tc.data)); reply.Code != tc.code {
				t.Errorf("%s: %+v, want %s", tc.name, reply, tc.code)
			}
		}
		// Another customer's tone is unknown.
		otherConsole := w.Console(w.b.Dispatcher, w.b.Customer)
		if f := otherConsole.Call("tone.send", map[string]any{"toneId": tn.ID, "msIds": w.b.Terminals[0]}); f.Code != "404" {
			t.Fatalf("other customer's tone: %+v", f)
		}
		// Terminals cannot send tones.
		if f := t0.Call("tone.send", map[string]any{"toneId": tn.ID, "msIds": w.a.Terminals[1]}); f.Code != "107" {
			t.Fatalf("terminal tone.send: %+v", f)
		}
		if f := t1.Call("ping", nil); f.Type != "pong" {
			t.Fatal(f)
		}
		for _, e := range append(t0.Events, t1.Events...) {
			if e.Type == "tone.play" {
				t.Fatalf("bad input played a tone: %+v", e)
			}
		}
		if n := w.count(t, `SELECT COUNT(*) FROM oplog WHERE type = 129`); n != 4 {
			t.Fatalf("bad input logged (%d)", n)
		}
	})
}
