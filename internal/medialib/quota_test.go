package medialib_test

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"tenfour/internal/config"
	"tenfour/internal/files/filetest"
	"tenfour/internal/testkit"
)

// The media cloud's photos and videos fill the customer's storage quota; a full customer's terminals are refused
// ("79", nothing kept), and deleting an item from the media cloud removes its file and gives the space back. A
// file a tone still uses is not deleted ("409"); another customer's item is unknown ("404").
func TestMediaStorageQuota(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		const quota = 30_000
		var dataDir string
		c := newCloud(t, engine, func(cfg *config.Config) { cfg.StorageQuota = quota; dataDir = cfg.DataDir })
		s, a, tok, tokB, ft := c.s, c.a, c.tok, c.tokB, c.ft
		onDisk := func(id string) bool {
			_, err := os.Stat(filepath.Join(dataDir, "files", id[:2], id))
			return err == nil
		}
		video := filetest.MustUpload(t, s, ft, "VID.mp4", filetest.MP4(20_000), "")
		videoItem := c.register(t, video.ID)
		voice := filetest.MustUpload(t, s, ft, "rec.wav", filetest.WAV(8_000), "")
		voiceItem := c.register(t, voice.ID)
		icon := filetest.MustUpload(t, s, tok, "icon.png", filetest.PNG(), "")

		// Full: the terminal's next photo is refused and nothing of it kept.
		before := testkit.Snapshot(t, s.DB, "files", "media_items")
		if r := filetest.Upload(t, s, ft, filetest.File("IMG.jpg", append(filetest.JPEG(), make([]byte, 4_000)...))); r.Code != "79" ||
			r.Status != http.StatusInsufficientStorage {
			t.Fatalf("a full customer's photo: %d %+v, want 507 79", r.Status, r)
		}
		if testkit.Snapshot(t, s.DB, "files", "media_items") != before {
			t.Fatal("a refused upload was kept")
		}

		api := testkit.APITest{Server: s, State: []string{"files", "media_items"}}
		api.Run(t, []testkit.Scenario{
			{Name: "a tone uses the voice recording", Method: "POST", Path: "/ds/tone/add", Token: tok,
				Params: map[string]any{"name": "Voice", "fileUrl": voice.URL, "iconUrl": icon.URL}, Code: "0"},
			{Name: "delete an item whose file a tone uses", Method: "DELETE", Path: "/ds/mediaLib/delete", Token: tok,
				Params: map[string]any{"id": voiceItem}, Code: "409", Status: http.StatusConflict},
			{Name: "delete another customer's item", Method: "DELETE", Path: "/ds/mediaLib/delete", Token: tokB,
				Params: map[string]any{"id": videoItem}, Code: "404"},
			{Name: "delete without an id", Method: "DELETE", Path: "/ds/mediaLib/delete", Token: tok, Code: "400"},
			{Name: "a terminal may not delete", Method: "DELETE", Path: "/ds/mediaLib/delete", Token: s.Token(a.Terminals[0], a.Customer),
				Params: map[string]any{"id": videoItem}, Code: "107"},
			{Name: "delete the video", Method: "DELETE", Path: "/ds/mediaLib/delete", Token: tok, Params: map[string]any{"id": videoItem}, Code: "0",
				Check: func(t *testing.T, _ testkit.Reply) {
					if onDisk(video.ID) {
						t.Fatal("the video's bytes are still stored")
					}
					if r, _ := filetest.Get(t, s, video.URL+"?token="+tok); r.StatusCode != http.StatusNotFound {
						t.Fatalf("the video still downloads: %d", r.StatusCode)
					}
					// Its space is back: the terminal's next photo is stored.
					photo := filetest.MustUpload(t, s, ft, "IMG.jpg", append(filetest.JPEG(), make([]byte, 4_000)...), "")
					c.register(t, photo.ID)
				}},
			{Name: "delete it again", Method: "DELETE", Path: "/ds/mediaLib/delete", Token: tok, Params: map[string]any{"id": videoItem}, Code: "404"},
		})
		if !onDisk(voice.ID) {
			t.Fatal("the tone's file was removed")
		}
	})
}
