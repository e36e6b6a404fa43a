package tiles_test

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"tenfour/internal/config"
	"tenfour/internal/files/filetest"
	"tenfour/internal/testkit"
	"tenfour/internal/tiles"
)

// withTiles is a server with --tiles path (empty: the default, streets.pmtiles in its data directory dataDir).
func withTiles(t *testing.T, path, dataDir string) *testkit.Server {
	return testkit.Start(t, func(c *config.Config) { c.Tiles, c.DataDir = path, dataDir })
}

// demoArchive writes the demo archive at path.
func demoArchive(t *testing.T, path string) {
	t.Helper()
	if err := tiles.WriteDemoFile(path); err != nil {
		t.Fatal(err)
	}
}

// The archive is served as a file with range requests, the way the browser's pmtiles protocol reads it.
func TestArchiveRanges(t *testing.T) {
	path := filepath.Join(t.TempDir(), "city.pmtiles")
	demoArchive(t, path)
	whole, _ := os.ReadFile(path)
	url := withTiles(t, path, t.TempDir()).URL + tiles.ArchivePath
	size := strconv.Itoa(len(whole))
	first := min(16384, len(whole)) // a pmtiles client first reads header and root directory: 16 KiB
	for _, c := range []struct {
		name, method, rng string
		status            int
		contentRange      string
		body              []byte
	}{
		{"first read", "GET", "bytes=0-16383", http.StatusPartialContent, "bytes 0-" + strconv.Itoa(first-1) + "/" + size, whole[:first]},
		{"inner range", "GET", "bytes=100-226", http.StatusPartialContent, "bytes 100-226/" + size, whole[100:227]},
		{"past the end", "GET", "bytes=" + size + "-", http.StatusRequestedRangeNotSatisfiable, "bytes */" + size, nil},
		{"whole file", "GET", "", http.StatusOK, "", whole},
		{"HEAD", "HEAD", "", http.StatusOK, "", nil},
	} {
		var res *http.Response
		var body []byte
		if c.method == "HEAD" {
			var err error
			if res, err = http.Head(url); err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
		} else {
			res, body = filetest.GetURL(t, url, "Range", c.rng)
		}
		if res.StatusCode != c.status || res.Header.Get("Content-Range") != c.contentRange || (c.body != nil && !bytes.Equal(body, c.body)) {
			t.Errorf("%s: %d %q, %d bytes", c.name, res.StatusCode, res.Header.Get("Content-Range"), len(body))
		}
		if c.method == "HEAD" && (res.Header.Get("Content-Length") != size || len(body) != 0) {
			t.Errorf("HEAD: length %q, %d bytes", res.Header.Get("Content-Length"), len(body))
		}
	}
	res, _ := filetest.GetURL(t, url)
	tag := res.Header.Get("ETag")
	if tag == "" || res.Header.Get("Last-Modified") == "" || res.Header.Get("Accept-Ranges") != "bytes" || res.Header.Get("Cache-Control") != "no-cache" {
		t.Errorf("headers %v", res.Header)
	}
	if res, _ = filetest.GetURL(t, url, "If-None-Match", tag); res.StatusCode != http.StatusNotModified {
		t.Errorf("revalidation: %d", res.StatusCode)
	}
	// A newer archive under the same name: a new ETag, so a client holding the old header reads it again.
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	if res, _ = filetest.GetURL(t, url, "If-None-Match", tag); res.StatusCode != http.StatusOK || res.Header.Get("ETag") == tag {
		t.Errorf("replaced archive: %d, ETag %s", res.StatusCode, res.Header.Get("ETag"))
	}
}

// What the console is told: nothing until an archive is there, then its bounds and zooms — found as
// streets.pmtiles in the data directory without a restart; --tiles names another file, which then wins.
func TestInfoAndDiscovery(t *testing.T) {
	data := t.TempDir()
	srv := withTiles(t, "", data)
	info := func(srv *testkit.Server) string {
		res, body := filetest.GetURL(t, srv.URL+"/tiles/streets.json")
		if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
			t.Fatalf("streets.json: %d %s %s", res.StatusCode, res.Header.Get("Content-Type"), body)
		}
		return string(bytes.TrimSpace(body))
	}
	const none = `{"archive":false}`
	if got := info(srv); got != none {
		t.Errorf("without an archive: %s", got)
	}
	if res, _ := filetest.GetURL(t, srv.URL+tiles.ArchivePath); res.StatusCode != http.StatusNotFound {
		t.Errorf("archive without one: %d", res.StatusCode)
	}
	// Not an archive: still none.
	inData := filepath.Join(data, tiles.FileName)
	if err := os.WriteFile(inData, []byte("<html>not tiles</html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := info(srv); got != none {
		t.Errorf("a file that is no archive: %s", got)
	}

	demoArchive(t, inData)
	want := `{"archive":true,"url":"/tiles/streets.pmtiles","schema":"protomaps","minzoom":10,"maxzoom":15,` +
		`"bounds":[28.94,40.99,29,41.03],"center":[28.97,41.01,14]}`
	if got := info(srv); got != want {
		t.Errorf("with the archive dropped in: %s, want %s", got, want)
	}
	if res, _ := filetest.GetURL(t, srv.URL+tiles.ArchivePath, "Range", "bytes=0-6"); res.StatusCode != http.StatusPartialContent {
		t.Errorf("archive once dropped in: %d", res.StatusCode)
	}

	// --tiles names a file elsewhere: that one, not the data directory's.
	flagged := withTiles(t, filepath.Join(t.TempDir(), "city.pmtiles"), data)
	if got := info(flagged); got != none {
		t.Errorf("--tiles naming a file not there yet: %s (the data directory's archive is not used)", got)
	}
}
