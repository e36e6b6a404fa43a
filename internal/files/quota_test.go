package files_test

import (
	"context"
	"net/http"
	"sync"
	"testing"

	"tenfour/internal/config"
	"tenfour/internal/files/filetest"
	"tenfour/internal/testkit"
)

const quotaBytes = 250_000

// quotaWorld is a server whose customers may each keep quotaBytes of uploads.
func quotaWorld(t *testing.T, engine string) *world {
	return newWorld(t, engine, func(c *config.Config) { c.StorageQuota = quotaBytes })
}

// used is the customer's bytes in the files table.
func (w *world) used(t *testing.T, customerID int64) int64 {
	t.Helper()
	var n int64
	if err := w.s.DB.QueryRow(context.Background(), `SELECT CAST(COALESCE(SUM(size), 0) AS BIGINT) FROM files WHERE customer_id = ?`,
		customerID).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestStorageQuota(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := quotaWorld(t, engine)
		refused := func(t *testing.T, what, token string, body []byte) {
			t.Helper()
			rows, files := w.count(t), w.stored(t)
			r := filetest.Upload(t, w.s, token, filetest.File("x.wav", body))
			if r.Code != "79" || r.Status != http.StatusInsufficientStorage || r.Key != "errors.file.quota" {
				t.Fatalf("%s: %d %+v, want 507 79", what, r.Status, r)
			}
			if w.count(t) != rows || w.stored(t) != files {
				t.Fatalf("%s: something was kept (rows %d → %d, files on disk %d → %d)", what, rows, w.count(t), files, w.stored(t))
			}
		}
		first := filetest.MustUpload(t, w.s, w.tokA, "a.wav", filetest.WAVOf(100_000), "")
		filetest.MustUpload(t, w.s, w.tokA, "b.wav", filetest.WAVOf(100_000), "")
		// 50,000 bytes are left: a larger upload is cut where it passes them, though its kind allows 1 MB.
		refused(t, "over the room left", w.tokA, filetest.WAVOf(60_000))
		filetest.MustUpload(t, w.s, w.tokA, "c.wav", filetest.WAVOf(50_000), "") // exactly full
		if got := w.used(t, w.a.Customer); got != quotaBytes {
			t.Fatalf("used %d", got)
		}
		refused(t, "a full customer's small file", w.tokA, filetest.WAVOf(100))

		// The media cloud's uploads are the terminals' uploads to the file store: the same quota.
		term := testkit.Terminal(t, w.s.URL, w.a.Terminals[0], testkit.Password)
		var tok struct{ Token string }
		term.Call("file.token", nil).Into(t, &tok)
		refused(t, "a terminal's photo", tok.Token, filetest.JPEG())

		// Another customer is not touched by A's quota.
		filetest.MustUpload(t, w.s, w.tokB, "b.wav", filetest.WAVOf(200_000), "")

		// Space comes back with the rows: the quota is measured on what is stored.
		if _, err := w.s.DB.Exec(context.Background(), `DELETE FROM files WHERE id = ?`, first.ID); err != nil {
			t.Fatal(err)
		}
		filetest.MustUpload(t, w.s, w.tokA, "d.wav", filetest.WAVOf(100_000), "")
		refused(t, "full again", w.tokA, filetest.WAVOf(100))
	})
}

// TestStorageQuotaParallel: uploads that finish together are decided one after the other, so what is stored
// never passes the quota, and every refused upload's bytes are gone.
func TestStorageQuotaParallel(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := quotaWorld(t, engine)
		const n = 8
		body := filetest.WAVOf(100_000)
		codes := make([]string, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r, err := filetest.Send(w.s.URL, w.tokA, filetest.File("p.wav", body))
				if err != nil {
					r.Code = err.Error()
				}
				codes[i] = r.Code
			}()
		}
		wg.Wait()
		ok, full := 0, 0
		for _, c := range codes {
			switch c {
			case "0":
				ok++
			case "79":
				full++
			default:
				t.Fatalf("codes %v", codes)
			}
		}
		if ok != 2 || full != n-2 {
			t.Fatalf("%d stored, %d refused: %v (room for 2)", ok, full, codes)
		}
		if got := w.used(t, w.a.Customer); got > quotaBytes {
			t.Fatalf("%d bytes stored, quota %d", got, quotaBytes)
		}
		if rows, files := w.count(t), w.stored(t); rows != 2 || files != 2 {
			t.Fatalf("%d rows, %d files on disk", rows, files)
		}
	})
}
