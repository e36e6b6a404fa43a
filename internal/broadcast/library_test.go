package broadcast_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"tenfour/internal/broadcast"
	"tenfour/internal/testkit"
)

// The music library: MP3, WAV, Ogg and FLAC in, one format out with length and size; refusals; ranged serving.
func TestLibrary(t *testing.T) {
	testkit.NeedFFmpeg(t)
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := newWorld(t, engine)
		w.login2()
		wav := testkit.ToneWAV(440, 1500*time.Millisecond)
		var files []broadcast.File
		for _, c := range []struct {
			name string
			data []byte
		}{{"tone.wav", wav}, {"tone.mp3", convert(t, wav, "mp3")}, {"tone.ogg", convert(t, wav, "ogg")}, {"tone.flac", convert(t, wav, "flac")}} {
			r := w.upload(w.tokA, c.name, c.data, 0)
			if r.Code != "200" {
				t.Fatalf("upload %s: %s %s", c.name, r.Code, r.Msg)
			}
			var f broadcast.File
			r.Into(t, &f)
			if f.OriginalName != c.name || f.Length < 1400 || f.Length > 1700 || f.Size < 20000 || f.Size > 30000 {
				t.Fatalf("%s stored as %+v: want about 1500 ms of 128 kbit/s", c.name, f)
			}
			files = append(files, f)
		}
		var org broadcast.Org
		w.ok("POST", "/broadcast/api/v1/org", w.tokA, map[string]any{"name": "Lib", "code": "lib", "call_number": "1"}, &org)
		// 99 files already in the org's group: the 100th is accepted, the 101st refused (spec §9 files limit 100)
		for i := 0; i < 99; i++ {
			if _, err := w.s.DB.Exec(context.Background(), `INSERT INTO bc_files (customer_id, group_id, original_name, name, length_ms, size, created_at)
				VALUES (?, ?, ?, ?, 1000, 100, 1)`, w.custA, org.ID, "x.mp3", fmt.Sprintf("filler%03d-%d.mp3", i, org.ID)); err != nil {
				t.Fatal(err)
			}
		}
		if r := w.upload(w.tokA, "100th.wav", wav, org.ID); r.Code != "200" {
			t.Fatalf("100th file: %s %s", r.Code, r.Msg)
		}
		before := testkit.Snapshot(t, w.s.DB, "bc_files")
		for _, c := range []struct {
			name, tok, code string
			data            []byte
			group           int64
		}{
			{"101st file", w.tokA, "1006", wav, org.ID},
			{"tone", w.tokA, "1019", wav, 0}, // tone.wav is in the customer's own group already (spec §8 "file exists")
			{"not audio", w.tokA, "1008", []byte("hello, this is text and not audio at all"), 0},
			{"broken audio", w.tokA, "1008", append([]byte("RIFF\x00\x00\x00\x00WAVEfmt "), make([]byte, 64)...), 0},
			{"empty", w.tokA, "400", nil, 0},
			{"another customer's group", w.tokB, "400", wav, org.ID},
			{"no token", "", "401", wav, 0},
		} {
			if r := w.upload(c.tok, c.name+".wav", c.data, c.group); r.Code != c.code {
				t.Fatalf("%s: code %s %s, want %s", c.name, r.Code, r.Msg, c.code)
			}
		}
		if after := testkit.Snapshot(t, w.s.DB, "bc_files"); after != before {
			t.Fatal("a refused upload stored a file")
		}
		w.api().Run(t, []testkit.Scenario{
			{Name: "files of the customer's own group", Method: "GET", Path: "/broadcast/v1/file", Token: "A",
				Params: map[string]any{"group_id": 0}, Code: "200", Contains: []string{`"total":4`}},
			{Name: "files default page is 100", Method: "GET", Path: "/broadcast/v1/file", Token: "A",
				Params: map[string]any{"group_id": org.ID}, Code: "200", Contains: []string{`"total":100`},
				Check: func(t *testing.T, r testkit.Reply) {
					var p struct{ List []broadcast.File }
					r.Into(t, &p)
					if len(p.List) != 100 {
						t.Fatalf("page of %d", len(p.List))
					}
				}},
			{Name: "files of B", Method: "GET", Path: "/broadcast/v1/file", Token: "B", Code: "200", Contains: []string{`"total":0`}},
			{Name: "file of another customer not deleted", Method: "DELETE", Path: fmt.Sprintf("/broadcast/v1/file/%d", files[3].ID),
				Token: "B", Code: "404"},
			{Name: "file deleted", Method: "DELETE", Path: fmt.Sprintf("/broadcast/v1/file/%d", files[3].ID), Token: "A", Code: "200"},
		})
		// served with ranges
		req, _ := http.NewRequest(http.MethodGet, w.s.URL+files[0].URL, nil)
		req.Header.Set("Range", "bytes=100-199")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusPartialContent || len(body) != 100 || res.Header.Get("Content-Type") != "audio/mpeg" {
			t.Fatalf("range: %d, %d bytes, %s", res.StatusCode, len(body), res.Header.Get("Content-Type"))
		}
		for _, u := range []string{files[3].URL, "/broadcast/music/tenfour.db", "/broadcast/music/0123456789abcdef0123456789abcdef.mp3"} {
			res, err := http.Get(w.s.URL + u)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusNotFound {
				t.Fatalf("%s: %d, want 404", u, res.StatusCode)
			}
		}
	})
}
