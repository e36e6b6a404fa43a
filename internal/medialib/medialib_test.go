package medialib_test

import (
	"context"
	"testing"
	"time"

	"tenfour/internal/config"
	"tenfour/internal/files/filetest"
	"tenfour/internal/testkit"
)

type item struct {
	ID, MsID, MsName, FileID, Kind, Mime, Name, URL string
	Size, Time, CreateTime                          int64
	Lat, Lng                                        *float64
}

// fileToken asks the terminal's socket for a file token.
func fileToken(t *testing.T, term *testkit.Socket) string {
	t.Helper()
	f := term.Call("file.token", nil)
	var v struct{ Token string }
	f.Into(t, &v)
	if f.Code != "0" || v.Token == "" {
		t.Fatalf("file.token %+v", f)
	}
	return v.Token
}

// cloud is the fixture of the delete and quota tests: a server with two customers, each with a dispatcher's
// session, and customer a's terminal signed in over the socket with a file token.
type cloud struct {
	s         *testkit.Server
	a, b      testkit.Fleet
	tok, tokB string // the dispatchers' sessions
	term      *testkit.Socket
	ft        string // the terminal's file token
}

func newCloud(t *testing.T, engine string, opts ...func(*config.Config)) *cloud {
	t.Helper()
	c := &cloud{s: testkit.StartOn(t, engine, opts...)}
	c.a, c.b = testkit.NewFleet(t, c.s.DB, "1", 1, 1), testkit.NewFleet(t, c.s.DB, "2", 1, 1)
	c.tok, c.tokB = c.a.Token, c.b.Token
	c.term = testkit.Terminal(t, c.s.URL, c.a.Terminals[0], testkit.Password)
	c.ft = fileToken(t, c.term)
	return c
}

// register is the terminal's media.uploaded of an uploaded file: the new item's id.
func (c *cloud) register(t *testing.T, fileID string) string {
	t.Helper()
	r := c.term.Call("media.uploaded", map[string]any{"fileId": fileID})
	var res struct{ ID string }
	r.Into(t, &res)
	if r.Code != "0" {
		t.Fatalf("media.uploaded %+v", r)
	}
	return res.ID
}

func TestTerminalUploadRegistersMedia(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		s := testkit.StartOn(t, engine)
		a, b := testkit.NewFleet(t, s.DB, "1", 2, 1), testkit.NewFleet(t, s.DB, "2", 1, 1)
		tok, tokB := a.Token, b.Token
		console := s.Dial()
		if f := console.Call("session.login", map[string]any{"token": tok, "client": "console"}); f.Code != "0" {
			t.Fatal(f)
		}
		t0 := testkit.Terminal(t, s.URL, a.Terminals[0], testkit.Password)
		t1 := testkit.Terminal(t, s.URL, a.Terminals[1], testkit.Password)

		// The phone app's flow: a file token over the socket, an HTTP upload with it, then media.uploaded.
		photo := filetest.MustUpload(t, s, fileToken(t, t0), "IMG_1.jpg", filetest.JPEG(), "")
		taken := time.Now().Add(-time.Minute).UnixMilli()
		reply := t0.Call("media.uploaded", map[string]any{"fileId": photo.ID, "kind": "image", "lat": 41.01, "lng": 28.97, "time": taken})
		var res struct {
			ID        string
			Duplicate bool
			Item      item
		}
		reply.Into(t, &res)
		if reply.Code != "0" || res.ID == "" || res.Duplicate || res.Item.Kind != "image" || res.Item.MsID != a.Terminals[0] {
			t.Fatalf("media.uploaded %+v %+v", reply, res)
		}
		ev := console.WaitEvent("media.added", 5*time.Second, nil)
		var it item
		ev.Into(t, &it)
		if ev.Seq == 0 || it.ID != res.ID || it.FileID != photo.ID || it.URL != photo.URL || it.Mime != "image/jpeg" ||
			it.Name != "IMG_1.jpg" || it.Time != taken || it.Lat == nil || *it.Lat != 41.01 || it.MsName != "Name "+a.Terminals[0] {
			t.Fatalf("media.added %+v %s", ev, ev.Data)
		}
		// Registering again is harmless.
		reply = t0.Call("media.uploaded", map[string]any{"fileUrl": photo.URL})
		reply.Into(t, &res)
		if reply.Code != "0" || !res.Duplicate || res.ID != it.ID {
			t.Fatalf("again %+v", reply)
		}
		// A video and a voice recording from the other terminal (micro-degree position, no time: now).
		video := filetest.MustUpload(t, s, fileToken(t, t1), "VID.mp4", filetest.MP4(4000), "")
		if r := t1.Call("media.uploaded", map[string]any{"fileId": video.ID, "lat": 41020000, "lng": 28980000}); r.Code != "0" {
			t.Fatalf("video %+v", r)
		}
		audio := filetest.MustUpload(t, s, fileToken(t, t1), "rec.wav", filetest.WAV(500), "")
		if r := t1.Call("media.uploaded", map[string]any{"fileId": audio.ID}); r.Code != "0" {
			t.Fatalf("audio %+v", r)
		}
		doc := filetest.MustUpload(t, s, fileToken(t, t1), "notes.pdf", filetest.PDF(), "")
		foreign := filetest.MustUpload(t, s, tokB, "theirs.png", filetest.PNG(), "")
		for _, tc := range []struct {
			name string
			data map[string]any
			code string
		}{
			{"no file", map[string]any{}, "400"},
			{"another terminal's upload", map[string]any{"fileId": photo.ID}, "404"},
			{"a dispatcher's upload", map[string]any{"fileId": filetest.MustUpload(t, s, tok, "d.png", filetest.PNG(), "").ID}, "404"},
			{"other customer's file", map[string]any{"fileId": foreign.ID}, "404"},
			{"not a file id", map[string]any{"fileId": "../x"}, "404"},
			{"a document", map[string]any{"fileId": doc.ID}, "72"},
			{"wrong kind", map[string]any{"fileId": video.ID, "kind": "image"}, "400"},
			{"lat without lng", map[string]any{"fileId": video.ID, "lat": 41.0}, "400"},
			{"lat out of range", map[string]any{"fileId": video.ID, "lat": 95.0, "lng": 10.0}, "400"},
			{"time in the future", map[string]any{"fileId": video.ID, "time": time.Now().Add(time.Hour).UnixMilli()}, "400"},
			{"time before 2000", map[string]any{"fileId": video.ID, "time": 1000}, "400"},
			{"time not a number", map[string]any{"fileId": video.ID, "time": "noon"}, "400"},
		} {
			if r := t1.Call("media.uploaded", tc.data); r.Code != tc.code {
				t.Errorf("%s: %+v, want %s", tc.name, r, tc.code)
			}
		}
		if f := console.Call("media.uploaded", map[string]any{"fileId": photo.ID}); f.Code != "107" {
			t.Fatalf("console media.uploaded %+v", f)
		}
		var n int
		s.DB.QueryRow(context.Background(), `SELECT COUNT(*) FROM media_items`).Scan(&n)
		if n != 3 {
			t.Fatalf("%d media items", n)
		}

		// The gallery list.
		now := time.Now()
		start := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC).UnixMilli()
		end := now.Add(time.Minute).UnixMilli()
		list := func(token string, params map[string]any) (testkit.Reply, []item, int) {
			r := s.Do("POST", "/ds/mediaLib/list", token, params)
			var p struct {
				Total int
				List  []item
			}
			if r.Code == "0" {
				r.Into(t, &p)
			}
			return r, p.List, p.Total
		}
		if taken < start { // the first minute of a month: the photo is in the previous one
			start = taken
		}
		_, items, total := list(tok, map[string]any{"sTime": start, "eTime": end})
		if total != 3 || len(items) != 3 || items[2].ID != it.ID {
			t.Fatalf("list all %d %+v", total, items)
		}
		_, items, total = list(tok, map[string]any{"msIds": []string{a.Terminals[1]}, "sTime": start, "eTime": end})
		if total != 2 || items[0].MsID != a.Terminals[1] {
			t.Fatalf("list by terminal %d %+v", total, items)
		}
		_, items, _ = list(tok, map[string]any{"msIds": a.Terminals[1], "kind": "video", "sTime": start, "eTime": end})
		if len(items) != 1 || items[0].Kind != "video" || items[0].Lat == nil || *items[0].Lat != 41.02 {
			t.Fatalf("list videos %+v", items)
		}
		_, items, total = list(tok, map[string]any{"sTime": start, "eTime": end, "pageSize": 1, "pageNo": 3})
		if total != 3 || len(items) != 1 || items[0].ID != it.ID {
			t.Fatalf("paged %d %+v", total, items)
		}
		if _, items, total = list(tokB, map[string]any{"sTime": start, "eTime": end}); total != 0 || len(items) != 0 {
			t.Fatalf("other customer sees %d", total)
		}
		for _, tc := range []struct {
			name   string
			params map[string]any
			code   string
		}{
			{"no range", map[string]any{}, "400"},
			{"start after end", map[string]any{"sTime": end, "eTime": start}, "93"},
			{"cross month", map[string]any{"sTime": start - 86400000, "eTime": start + 86400000}, "95"},
			{"other customer's terminal", map[string]any{"msIds": b.Terminals[0], "sTime": start, "eTime": end}, "404"},
			{"bad kind", map[string]any{"kind": "file", "sTime": start, "eTime": end}, "400"},
			{"bad page size", map[string]any{"pageSize": "0", "sTime": start, "eTime": end}, "400"},
		} {
			if r, _, _ := list(tok, tc.params); r.Code != tc.code {
				t.Errorf("list %s: %+v, want %s", tc.name, r, tc.code)
			}
		}
		if r, _, _ := list("", map[string]any{"sTime": start, "eTime": end}); r.Code != "105" {
			t.Fatalf("list without token %+v", r)
		}
		// The console shows the photo with its session cookie/token.
		if res, body := filetest.Get(t, s, it.URL, "token", tok); res.StatusCode != 200 || len(body) == 0 {
			t.Fatalf("console fetching the photo %d", res.StatusCode)
		}
	})
}
