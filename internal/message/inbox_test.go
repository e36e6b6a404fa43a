package message_test

import (
	"strings"
	"testing"
	"time"

	"tenfour/internal/files/filetest"
	"tenfour/internal/testkit"
)

// inbox is a customer with two dispatchers; dispatcher 1 has two console windows of one sign-in.
type inbox struct {
	s            *testkit.Server
	a, b         testkit.Fleet
	d2           string
	tok, tok2    string // HTTP tokens of dispatcher 1 (the windows' sign-in) and dispatcher 2
	tokB         string
	win1, win2   *testkit.Socket
	term0, term1 *testkit.Socket
}

func newInbox(t *testing.T, engine string) *inbox {
	t.Helper()
	s := testkit.StartOn(t, engine)
	in := &inbox{s: s, a: testkit.NewFleet(t, s.DB, "1", 3, 1), b: testkit.NewFleet(t, s.DB, "2", 1, 1), d2: "10000002"}
	testkit.Provision(t, s.DB, in.a.Customer, in.d2, "20", in.a.Groups[0])
	in.tok, in.tok2, in.tokB = in.a.Token, s.Token(in.d2, in.a.Customer), in.b.Token
	in.win1, in.win2 = in.window(t), in.window(t)
	in.term0 = testkit.Terminal(t, s.URL, in.a.Terminals[0], testkit.Password)
	in.term1 = testkit.Terminal(t, s.URL, in.a.Terminals[1], testkit.Password)
	return in
}

func (in *inbox) window(t *testing.T) *testkit.Socket {
	t.Helper()
	c := in.s.Dial()
	if f := c.Call("session.login", map[string]any{"token": in.tok, "client": "console"}); f.Code != "0" {
		t.Fatalf("console window login: %+v", f)
	}
	return c
}

func (in *inbox) count(t *testing.T, q string, args ...any) int {
	t.Helper()
	return testkit.Count(t, in.s.DB, q, args...)
}

type view struct {
	ID, Sender, From, FromName, MsID, MsName, GID, GName, Content, Type, UTCTime, State, ReadBy string
	Incoming                                                                                    bool
	Status                                                                                      int
	Time, ReadAt                                                                                int64
	Recipients, Delivered                                                                       int
	File                                                                                        *struct{ ID, Kind, Name, Mime, URL string }
}

type unreadList struct {
	Total         int
	List          []view
	Conversations []struct {
		Type, MsID, MsName, GID, GName string
		Unreads                        int
	}
}

func (in *inbox) unread(t *testing.T, tok string) unreadList {
	t.Helper()
	r := in.s.Do("GET", "/ds/sms/unread", tok, nil)
	if r.Code != "0" {
		t.Fatalf("unread: %+v", r)
	}
	var u unreadList
	r.Into(t, &u)
	return u
}

func TestTerminalMessagesRaiseUnreadAndReadingClearsIt(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		in := newInbox(t, engine)
		t0 := in.a.Terminals[0]

		// To the dispatch center (no target): every dispatcher's to read.
		reply := in.term0.Call("sms.send", map[string]any{"content": "need backup\nat gate 2"})
		var sent struct {
			ID         string
			Time       int64
			Type       string
			Recipients int
		}
		reply.Into(t, &sent)
		if reply.Code != "0" || sent.ID == "" || sent.Time == 0 || sent.Type != "text" || sent.Recipients != 0 {
			t.Fatalf("terminal send: %+v %+v", reply, sent)
		}
		for _, win := range []*testkit.Socket{in.win1, in.win2} {
			ev := win.WaitEvent("sms.received", 5*time.Second, nil)
			var v view
			ev.Into(t, &v)
			if ev.Seq == 0 || v.ID != sent.ID || !v.Incoming || v.Status != 0 || v.Sender != t0 || v.From != t0 ||
				v.FromName != "Name "+t0 || v.Content != "need backup\nat gate 2" || v.MsID != "" || v.Type != "text" ||
				!strings.HasSuffix(v.UTCTime, "Z") {
				t.Fatalf("sms.received %+v %+v", ev, v)
			}
		}
		// To dispatcher 1 by name: only its unread.
		if r := in.term0.Call("sms.send", map[string]any{"to": in.a.Dispatcher, "content": "for you"}); r.Code != "0" {
			t.Fatalf("to a dispatcher: %+v", r)
		}
		ev := in.win1.WaitEvent("sms.received", 5*time.Second, nil)
		var direct view
		ev.Into(t, &direct)
		if direct.MsID != in.a.Dispatcher || direct.MsName == "" {
			t.Fatalf("direct %+v", direct)
		}
		// To its group: the other terminals get it like a dispatcher's group message.
		reply = in.term0.Call("sms.send", map[string]any{"gid": in.a.Groups[0], "content": "group hello"})
		reply.Into(t, &sent)
		if reply.Code != "0" || sent.Recipients != 2 {
			t.Fatalf("to the group: %+v %+v", reply, sent)
		}
		req := in.term1.WaitEvent("sms.deliver", 5*time.Second, nil)
		var d deliver
		req.Into(t, &d)
		if d.From != t0 || d.GID == "" || d.Content != "group hello" {
			t.Fatalf("relayed %+v", d)
		}
		in.term1.Reply(req, "0", nil)
		groupMsg := sent.ID
		if f := in.term0.Call("ping", nil); f.Type != "pong" {
			t.Fatal(f)
		}
		for _, e := range in.term0.Events {
			if e.Type == "sms.deliver" {
				t.Fatalf("the sender got its own message: %+v", e)
			}
		}

		u := in.unread(t, in.tok)
		if u.Total != 3 || len(u.List) != 3 || len(u.Conversations) != 2 {
			t.Fatalf("dispatcher 1 unread %+v", u)
		}
		for _, c := range u.Conversations {
			switch c.Type {
			case "1":
				if c.MsID != t0 || c.Unreads != 2 || c.MsName != "Name "+t0 {
					t.Fatalf("terminal conversation %+v", c)
				}
			case "2":
				if c.GID == "" || c.Unreads != 1 || c.GName == "" {
					t.Fatalf("group conversation %+v", c)
				}
			default:
				t.Fatalf("conversation %+v", c)
			}
		}
		if u2 := in.unread(t, in.tok2); u2.Total != 2 {
			t.Fatalf("dispatcher 2 sees another dispatcher's message as its unread: %+v", u2)
		}
		if ub := in.unread(t, in.tokB); ub.Total != 0 {
			t.Fatalf("other customer's unread %+v", ub)
		}

		// Reading the terminal's conversation in window 1: window 2 drops it too (sms.read).
		r := in.s.Do("PUT", "/ds/sms/updateSms", in.tok, map[string]any{"msId": t0})
		var upd struct {
			Updated int
			IDs     []string
		}
		r.Into(t, &upd)
		if r.Code != "0" || upd.Updated != 2 {
			t.Fatalf("mark read: %+v %+v", r, upd)
		}
		ev = in.win2.WaitEvent("sms.read", 5*time.Second, nil)
		var read struct {
			IDs        []string
			By, ByName string
			MsID       string
			ReadAt     int64
		}
		ev.Into(t, &read)
		if ev.Seq == 0 || len(read.IDs) != 2 || read.By != in.a.Dispatcher || read.MsID != t0 || read.ReadAt == 0 {
			t.Fatalf("sms.read %+v %+v", ev, read)
		}
		if u := in.unread(t, in.tok); u.Total != 1 || u.List[0].ID != groupMsg {
			t.Fatalf("after reading %+v", u)
		}
		r = in.s.Do("PUT", "/ds/sms/updateSms", in.tok2, map[string]any{"ids": []string{groupMsg}, "status": 1})
		r.Into(t, &upd)
		if r.Code != "0" || upd.Updated != 1 {
			t.Fatalf("mark read by id: %+v", r)
		}
		if u := in.unread(t, in.tok); u.Total != 0 || len(u.Conversations) != 0 {
			t.Fatalf("read by another dispatcher still unread: %+v", u)
		}
		// Reading again changes nothing and tells nobody.
		r = in.s.Do("PUT", "/ds/sms/updateSms", in.tok, map[string]any{"all": 1})
		if r.Into(t, &upd); upd.Updated != 0 {
			t.Fatalf("read twice %+v", upd)
		}
		if n := in.count(t, `SELECT COUNT(*) FROM messages WHERE status = 1 AND incoming = TRUE AND read_at > 0 AND read_by <> ''`); n != 3 {
			t.Fatalf("read state stored for %d", n)
		}
		if n := in.count(t, `SELECT COUNT(*) FROM oplog WHERE type = 103 AND account_id = ?`, t0); n != 3 {
			t.Fatalf("log 103 by the terminal: %d", n)
		}
	})
}

func TestTerminalSendRefusesBadInputAndStoresNothing(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		in := newInbox(t, engine)
		lonely := testkit.Group(t, in.s.DB, in.a.Customer, "Lonely") // no terminal is a member
		foreign := filetest.MustUpload(t, in.s, in.tokB, "b.png", filetest.PNG(), "")
		for _, tc := range []struct {
			name string
			data map[string]any
			code string
		}{
			{"empty", map[string]any{"content": ""}, "11"},
			{"no content", map[string]any{}, "11"},
			{"blank", map[string]any{"content": "  \t"}, "11"},
			{"illegal character", map[string]any{"content": "hi\u0000"}, "10"},
			{"bidi override", map[string]any{"content": "\u202egnp.exe"}, "10"},
			{"too long", map[string]any{"content": strings.Repeat("x", 1001)}, "400"},
			{"unknown dispatcher", map[string]any{"to": "19999999", "content": "hi"}, "404"},
			{"other customer's dispatcher", map[string]any{"to": in.b.Dispatcher, "content": "hi"}, "404"},
			{"a terminal", map[string]any{"to": in.a.Terminals[1], "content": "hi"}, "404"},
			{"other customer's group", map[string]any{"gid": in.b.Groups[0], "content": "hi"}, "404"},
			{"not a member", map[string]any{"gid": lonely, "content": "hi"}, "24"},
			{"malformed gid", map[string]any{"gid": "x1", "content": "hi"}, "400"},
			{"both targets", map[string]any{"to": in.a.Dispatcher, "gid": in.a.Groups[0], "content": "hi"}, "400"},
			{"to and msId differ", map[string]any{"to": in.a.Dispatcher, "msId": in.d2, "content": "hi"}, "400"},
			{"other customer's file", map[string]any{"fileId": foreign.ID, "content": "hi"}, "404"},
			{"malformed file id", map[string]any{"fileId": "../../etc/passwd"}, "404"},
		} {
			if r := in.term0.Call("sms.send", tc.data); r.Code != tc.code {
				t.Errorf("%s: %+v, want %s", tc.name, r, tc.code)
			}
		}
		if n := in.count(t, `SELECT COUNT(*) FROM messages`); n != 0 {
			t.Fatalf("%d messages stored from bad input", n)
		}
		if n := in.count(t, `SELECT COUNT(*) FROM oplog WHERE type = 103`); n != 0 {
			t.Fatal("bad input logged")
		}
	})
}

func TestAttachmentsBothWays(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		in := newInbox(t, engine)
		t0 := in.a.Terminals[0]
		img := filetest.PNG()
		up := filetest.MustUpload(t, in.s, in.tok, "map.png", img, "")

		// Dispatcher → terminal, a picture without text.
		id := in.win1.Request("sms.send", map[string]any{"msId": t0, "fileId": up.ID})
		req := in.term0.WaitEvent("sms.deliver", 5*time.Second, nil)
		var d struct {
			ID, Content, Type string
			File              *struct{ ID, Kind, Name, Mime, URL string }
		}
		req.Into(t, &d)
		if d.Type != "image" || d.Content != "" || d.File == nil || d.File.ID != up.ID || d.File.Name != "map.png" ||
			d.File.Mime != "image/png" || !strings.HasPrefix(d.File.URL, "/filews/files/"+up.ID+"?token=ft1.") {
			t.Fatalf("deliver with attachment %s", req.Data)
		}
		in.term0.Reply(req, "0", nil)
		if r := in.win1.ReplyTo(id); r.Code != "0" {
			t.Fatalf("send with attachment: %+v", r)
		}
		// The terminal downloads it with the token in the URL (it has no HTTP session).
		if res, body := filetest.Get(t, in.s, d.File.URL); res.StatusCode != 200 || string(body) != string(img) {
			t.Fatalf("terminal download %d", res.StatusCode)
		}

		// Terminal → dispatcher: a photo it uploaded with its file token, with a caption.
		var ft struct{ Token string }
		in.term0.Call("file.token", nil).Into(t, &ft)
		photo := filetest.MustUpload(t, in.s, ft.Token, "IMG_0001.jpg", filetest.JPEG(), "")
		if r := in.term0.Call("sms.send", map[string]any{"fileUrl": photo.URL, "content": "the damage"}); r.Code != "0" {
			t.Fatalf("terminal send with photo: %+v", r)
		}
		ev := in.win1.WaitEvent("sms.received", 5*time.Second, nil)
		var v view
		ev.Into(t, &v)
		if v.Type != "image" || v.Content != "the damage" || v.File == nil || v.File.URL != photo.URL || v.File.Kind != "image" {
			t.Fatalf("received with photo %s", ev.Data)
		}
		// A voice note from the console: an audio attachment.
		voice := filetest.MustUpload(t, in.s, in.tok, "note.wav", filetest.WAV(800), "")
		id = in.win1.Request("sms.send", map[string]any{"gid": in.a.Groups[0], "fileId": voice.URL, "content": "listen"})
		for _, term := range []*testkit.Socket{in.term0, in.term1} {
			req := term.WaitEvent("sms.deliver", 5*time.Second, nil)
			req.Into(t, &d)
			if d.Type != "audio" || d.File == nil || d.File.ID != voice.ID {
				t.Fatalf("group audio %s", req.Data)
			}
			term.Reply(req, "0", nil)
		}
		in.win1.ReplyTo(id)
		// Another customer's file is unknown here and nothing is sent.
		foreign := filetest.MustUpload(t, in.s, in.tokB, "b.png", filetest.PNG(), "")
		if r := in.win1.ReplyTo(in.win1.Request("sms.send", map[string]any{"msId": t0, "fileId": foreign.ID, "content": "x"})); r.Code != "404" {
			t.Fatalf("foreign file: %+v", r)
		}
		if n := in.count(t, `SELECT COUNT(*) FROM messages WHERE file_id <> ''`); n != 3 {
			t.Fatalf("messages with attachments: %d", n)
		}
	})
}

// TestMain: the message fixture's accounts make password hashes; no test here is about them.
func TestMain(m *testing.M) { testkit.RunWithCheapHashes(m) }
