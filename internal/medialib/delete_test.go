package medialib_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"tenfour/internal/files/filetest"
	"tenfour/internal/testkit"
)

// A dispatcher deletes a media-cloud item: every console of the customer (another dispatcher's too) gets
// `media.removed` and the operation log has a type 142 entry naming the file and its terminal; a refused delete
// (the file is a tone's, another customer's item) tells no one and logs nothing; another customer's consoles hear
// nothing of it.
func TestDeleteIsLoggedAndReachesEveryConsole(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		c := newCloud(t, engine)
		s, a, tok, ft := c.s, c.a, c.tok, c.ft
		const second = "10000002"
		testkit.Provision(t, s.DB, a.Customer, second, "20", a.Groups[0])
		other := testkit.Console(t, s.URL, s.Token(second, a.Customer))
		foreign := testkit.Console(t, s.URL, c.tokB)
		photo := filetest.MustUpload(t, s, ft, "IMG_7.jpg", filetest.JPEG(), "")
		photoItem := c.register(t, photo.ID)
		voice := filetest.MustUpload(t, s, ft, "rec.wav", filetest.WAV(800), "")
		voiceItem := c.register(t, voice.ID)
		icon := filetest.MustUpload(t, s, tok, "icon.png", filetest.PNG(), "")
		if r := s.Do("POST", "/ds/tone/add", tok, map[string]any{"name": "Voice", "fileUrl": voice.URL, "iconUrl": icon.URL}); r.Code != "0" {
			t.Fatalf("tone %+v", r)
		}
		logged := func() int {
			var n int
			if err := s.DB.QueryRow(context.Background(), `SELECT COUNT(*) FROM oplog WHERE type = 142`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}

		// Refusals: nothing logged, nothing published.
		if r := s.Do("DELETE", "/ds/mediaLib/delete", tok, map[string]any{"id": voiceItem}); r.Code != "409" {
			t.Fatalf("the tone's file: %+v", r)
		}
		if r := s.Do("DELETE", "/ds/mediaLib/delete", c.tokB, map[string]any{"id": photoItem}); r.Code != "404" {
			t.Fatalf("another customer's item: %+v", r)
		}
		if n := logged(); n != 0 {
			t.Fatalf("%d log entries after refused deletes", n)
		}

		if r := s.Do("DELETE", "/ds/mediaLib/delete", tok, map[string]any{"id": photoItem}); r.Code != "0" {
			t.Fatalf("delete %+v", r)
		}
		ev := other.WaitEvent("media.removed", 5*time.Second, nil)
		var gone struct{ ID, MsID, FileID string }
		ev.Into(t, &gone)
		if ev.Seq == 0 || gone.ID != photoItem || gone.MsID != a.Terminals[0] || gone.FileID != photo.ID {
			t.Fatalf("media.removed %+v %s", ev, ev.Data)
		}
		// (The refused deletes came first: had they published, this first media.removed would be the voice item's.)

		// The log: one entry by the deleting dispatcher, read back through /ds/log/list as consoles see it.
		r := s.Do("GET", "/ds/log/list", tok, map[string]any{"type": "142"})
		var page struct {
			Total int
			List  []struct {
				Account, Remark string
				Type            int
				Detail          struct {
					Key    string
					Params map[string]string
				}
			}
		}
		r.Into(t, &page)
		if r.Code != "0" || page.Total != 1 {
			t.Fatalf("log list %+v", r)
		}
		e := page.List[0]
		if e.Account != a.Dispatcher || e.Type != 142 || e.Remark != `media-cloud image "IMG_7.jpg" of `+a.Terminals[0]+` deleted` ||
			e.Detail.Key != "mediaImageDeleted" || e.Detail.Params["name"] != "IMG_7.jpg" || e.Detail.Params["terminal"] != a.Terminals[0] {
			t.Fatalf("log entry %+v", e)
		}
		// The other console got the entry live too.
		other.WaitEvent("log.added", 5*time.Second, func(f testkit.Frame) bool {
			var le struct{ Type int }
			return json.Unmarshal(f.Data, &le) == nil && le.Type == 142
		})
		r = s.Do("GET", "/ds/log/list", c.tokB, map[string]any{"type": "142"})
		page.Total = -1
		r.Into(t, &page)
		if r.Code != "0" || page.Total != 0 {
			t.Fatalf("another customer's log: %+v", r)
		}
		// Another customer's console: the deleting customer's events were published with the ones the other
		// console already got, so by now they would be here.
		for _, f := range foreign.Drain() {
			var le struct{ Type int }
			if f.Type == "media.removed" || f.Type == "log.added" && json.Unmarshal(f.Data, &le) == nil && le.Type == 142 {
				t.Fatalf("another customer's console got %s %s", f.Type, f.Data)
			}
		}
		// The next free type is still unknown to the log.
		if r := s.Do("GET", "/ds/log/list", tok, map[string]any{"type": "143"}); r.Code != "400" {
			t.Fatalf("type 143: %+v", r)
		}
	})
}
