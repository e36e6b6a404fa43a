package broadcast_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"tenfour/internal/broadcast"
	"tenfour/internal/config"
	"tenfour/internal/files/filetest"
	"tenfour/internal/testkit"
)

// The library's files and the file store's uploads count against one storage quota per customer: a full
// customer's next upload is refused with code 79 and nothing stored (row or bytes), another customer is not
// touched, and deleting a library file gives its space back.
func TestLibraryStorageQuota(t *testing.T) {
	testkit.NeedFFmpeg(t)
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		const quota = 60_000
		var dataDir string
		w := newWorld(t, engine, func(c *config.Config) { c.StorageQuota = quota; dataDir = c.DataDir })
		s := w.s
		w.tokB = w.login(w.dispB, w.consB)
		musicDir := filepath.Join(dataDir, "broadcast")
		used := func() int64 {
			t.Helper()
			var u int64
			if err := s.DB.QueryRow(context.Background(), `SELECT CAST((SELECT COALESCE(SUM(size), 0) FROM bc_files WHERE customer_id = ?) +
				(SELECT COALESCE(SUM(size), 0) FROM files WHERE customer_id = ?) AS BIGINT)`, w.custA, w.custA).Scan(&u); err != nil {
				t.Fatal(err)
			}
			return u
		}
		kept := func() string { // rows and files on disk
			t.Helper()
			entries, err := os.ReadDir(musicDir)
			if err != nil {
				t.Fatal(err)
			}
			return fmt.Sprint(testkit.Snapshot(t, s.DB, "bc_files", "files"), len(entries))
		}
		refused := func(what string, r testkit.Reply, before string) {
			t.Helper()
			if r.Code != "79" || r.Status != http.StatusInsufficientStorage {
				t.Fatalf("%s: HTTP %d code %s %s, want 507 79", what, r.Status, r.Code, r.Msg)
			}
			if kept() != before {
				t.Fatalf("%s: something was kept", what)
			}
		}
		fileOf := func(n int64) testkit.Reply { // a file store upload of exactly n bytes
			t.Helper()
			return filetest.Upload(t, s, w.consA, filetest.File("a.wav", filetest.WAVOf(int(n))))
		}
		wav := sineWAV(440, 1500*time.Millisecond) // about 24,000 bytes once transcoded
		var lib []broadcast.File
		for i := range 2 {
			r := w.upload(w.tokA, fmt.Sprintf("tone%d.wav", i), wav, 0)
			if r.Code != "200" {
				t.Fatalf("upload %d: %s %s", i, r.Code, r.Msg)
			}
			var f broadcast.File
			r.Into(t, &f)
			lib = append(lib, f)
		}
		if u := used(); u != lib[0].Size+lib[1].Size || u > quota-quota/10 {
			t.Fatalf("used %d after two files of %d and %d", u, lib[0].Size, lib[1].Size)
		}
		before := kept()
		refused("a third library file", w.upload(w.tokA, "tone3.wav", wav, 0), before)

		// The file store's uploads share the quota: one byte more than the room left is refused, the room is not.
		room := int64(quota) - used()
		refused("a file over the room left", fileOf(room+1), before)
		if r := fileOf(room); r.Code != "0" {
			t.Fatalf("a file of the room left: %+v", r)
		}
		if used() != quota {
			t.Fatalf("used %d, want the whole quota", used())
		}
		before = kept()
		refused("a full customer's library file", w.upload(w.tokA, "tone4.wav", wav, 0), before)
		refused("a full customer's file", fileOf(100), before)

		// Another customer is not touched.
		if r := w.upload(w.tokB, "b.wav", wav, 0); r.Code != "200" {
			t.Fatalf("customer B: %s %s", r.Code, r.Msg)
		}

		// Deleting a library file gives its space back.
		w.ok(http.MethodDelete, fmt.Sprintf("/broadcast/v1/file/%d", lib[0].ID), w.tokA, nil, nil)
		if r := w.upload(w.tokA, "again.wav", wav, 0); r.Code != "200" {
			t.Fatalf("after a delete: %s %s", r.Code, r.Msg)
		}
	})
}
