package tiles

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"tenfour/internal/platform/httpx"
)

// The values the browser's pmtiles library (zxyToTileId, npm pmtiles 4.5.0) gives: the archive's tile order
// must be the one the console reads it in.
func TestTileIDMatchesThePMTilesLibrary(t *testing.T) {
	for _, c := range []struct {
		z    uint8
		x, y uint32
		id   uint64
	}{
		{0, 0, 0, 0}, {1, 0, 0, 1}, {1, 0, 1, 2}, {1, 1, 1, 3}, {1, 1, 0, 4}, {2, 0, 0, 5}, {2, 3, 1, 17},
		{3, 5, 2, 76}, {12, 2377, 1531, 19809499}, {15, 19022, 12258, 1267811239}, {20, 600000, 400000, 1290148016127},
	} {
		if got := TileID(c.z, c.x, c.y); got != c.id {
			t.Errorf("TileID(%d, %d, %d) = %d, want %d", c.z, c.x, c.y, got, c.id)
		}
	}
}

// demoArchive writes the demo archive into a temporary data directory and returns its path.
func demoArchive(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, FileName)
	if err := WriteDemoFile(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// The demo archive is a PMTiles v3 archive whose tile at the demo centre holds the street layers the console's
// style draws — read back the way a pmtiles client reads it: header, root directory, tile.
func TestDemoArchive(t *testing.T) {
	b, err := os.ReadFile(demoArchive(t, t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 200_000 {
		t.Errorf("demo archive of %d bytes; it should stay small", len(b))
	}
	h, err := ParseHeader(b)
	if err != nil {
		t.Fatal(err)
	}
	if h.TileType != TypeMVT || h.MinZoom != DemoMinZoom || h.MaxZoom != DemoMaxZoom || h.Bounds != DemoBounds || h.Center != DemoCenter {
		t.Fatalf("header %+v", h)
	}
	if h.DataOffset+h.DataLength != uint64(len(b)) || h.AddressedTiles == 0 {
		t.Fatalf("header %+v for %d bytes", h, len(b))
	}
	dir := readDirectory(t, gunzip(t, b[h.RootOffset:h.RootOffset+h.RootLength]))
	if uint64(len(dir)) != h.TileEntries {
		t.Fatalf("%d entries, header says %d", len(dir), h.TileEntries)
	}
	x, y := lonLatToTile(15, DemoCenter[0], DemoCenter[1])
	e, ok := dir[TileID(15, x, y)]
	if !ok {
		t.Fatalf("no tile 15/%d/%d at the demo centre", x, y)
	}
	tile := gunzip(t, b[h.DataOffset+e[0]:h.DataOffset+e[0]+e[1]])
	layers := mvtLayers(t, tile)
	for _, want := range []string{"earth", "roads", "buildings"} {
		if !slices.Contains(layers, want) {
			t.Errorf("layers %v, want %s", layers, want)
		}
	}
	if !bytes.Contains(tile, []byte("major_road")) || !bytes.Contains(tile, []byte("Demo Street")) {
		t.Error("the roads carry no kind or name")
	}
	var meta struct {
		VectorLayers []struct{ ID string } `json:"vector_layers"`
	}
	if err := json.Unmarshal(gunzip(t, b[h.MetadataOffset:h.MetadataOffset+h.MetadataLength]), &meta); err != nil || len(meta.VectorLayers) != 5 {
		t.Errorf("metadata %+v (%v)", meta, err)
	}
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// readDirectory decodes a PMTiles directory: tile id → offset, length (run lengths of one, as the writer writes).
func readDirectory(t *testing.T, b []byte) map[uint64][2]uint64 {
	t.Helper()
	next := func() uint64 {
		v, n := protowire.ConsumeVarint(b)
		if n < 0 {
			t.Fatal("directory cut short")
		}
		b = b[n:]
		return v
	}
	n := int(next())
	ids, lengths := make([]uint64, n), make([]uint64, n)
	var id uint64
	for i := range ids {
		id += next()
		ids[i] = id
	}
	for range n {
		if run := next(); run != 1 {
			t.Fatalf("run length %d", run)
		}
	}
	for i := range lengths {
		lengths[i] = next()
	}
	out := map[uint64][2]uint64{}
	var end uint64
	for i, id := range ids {
		off := next()
		if off == 0 && i > 0 {
			off = end
		} else {
			off--
		}
		out[id] = [2]uint64{off, lengths[i]}
		end = off + lengths[i]
	}
	return out
}

// mvtLayers are the names of a vector tile's layers.
func mvtLayers(t *testing.T, tile []byte) []string {
	t.Helper()
	var names []string
	fields(t, tile, func(num protowire.Number, layer []byte) {
		if num == 3 {
			fields(t, layer, func(num protowire.Number, v []byte) {
				if num == 1 {
					names = append(names, string(v))
				}
			})
		}
	})
	return names
}

// fields calls fn with each length-delimited field of a protobuf message.
func fields(t *testing.T, b []byte, fn func(protowire.Number, []byte)) {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			t.Fatal("bad tag")
		}
		b = b[n:]
		if typ == protowire.BytesType {
			v, m := protowire.ConsumeBytes(b)
			fn(num, v)
			n = m
		} else {
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			t.Fatal("bad field")
		}
		b = b[n:]
	}
}

func serve(t *testing.T, path string) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	New(path, slog.New(slog.DiscardHandler), false).Routes(httpx.NewRouter(mux, nil, nil))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func get(t *testing.T, method, url string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, body
}

// The archive is served as a file with range requests, the way the browser's pmtiles protocol reads it.
func TestArchiveRanges(t *testing.T) {
	path := demoArchive(t, t.TempDir())
	whole, _ := os.ReadFile(path)
	srv := serve(t, path)
	url := srv.URL + ArchivePath
	size := strconv.Itoa(len(whole))

	// The first read of a pmtiles client: header and root directory, 16 KiB.
	first := min(16384, len(whole))
	res, body := get(t, "GET", url, "Range", "bytes=0-16383")
	if res.StatusCode != http.StatusPartialContent || res.Header.Get("Content-Range") != "bytes 0-"+strconv.Itoa(first-1)+"/"+size || !bytes.Equal(body, whole[:first]) {
		t.Fatalf("first range: %d %q, %d bytes", res.StatusCode, res.Header.Get("Content-Range"), len(body))
	}
	tag := res.Header.Get("ETag")
	if tag == "" || res.Header.Get("Last-Modified") == "" || res.Header.Get("Accept-Ranges") != "bytes" || res.Header.Get("Cache-Control") != "no-cache" {
		t.Errorf("headers %v", res.Header)
	}
	res, body = get(t, "GET", url, "Range", "bytes=100-226")
	if res.StatusCode != http.StatusPartialContent || res.Header.Get("Content-Range") != "bytes 100-226/"+size || !bytes.Equal(body, whole[100:227]) {
		t.Errorf("inner range: %d %q", res.StatusCode, res.Header.Get("Content-Range"))
	}
	res, _ = get(t, "GET", url, "Range", "bytes="+size+"-")
	if res.StatusCode != http.StatusRequestedRangeNotSatisfiable || res.Header.Get("Content-Range") != "bytes */"+size {
		t.Errorf("range past the end: %d %q", res.StatusCode, res.Header.Get("Content-Range"))
	}
	res, body = get(t, "HEAD", url)
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Length") != size || len(body) != 0 {
		t.Errorf("HEAD: %d length %q, %d bytes", res.StatusCode, res.Header.Get("Content-Length"), len(body))
	}
	if res, _ = get(t, "GET", url, "If-None-Match", tag); res.StatusCode != http.StatusNotModified {
		t.Errorf("revalidation: %d", res.StatusCode)
	}
	// A newer archive under the same name: a new ETag, so a client holding the old header reads it again.
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	if res, _ = get(t, "GET", url, "If-None-Match", tag); res.StatusCode != http.StatusOK || res.Header.Get("ETag") == tag {
		t.Errorf("replaced archive: %d, ETag %s", res.StatusCode, res.Header.Get("ETag"))
	}
}

// What the console is told: nothing until an archive is there, then its bounds and zooms — found in the data
// directory without a restart; --tiles names another file.
func TestInfoAndDiscovery(t *testing.T) {
	data := t.TempDir()
	if got := Path("", data); got != filepath.Join(data, "streets.pmtiles") {
		t.Errorf("default path %s", got)
	}
	if got := Path("/srv/maps/city.pmtiles", data); got != "/srv/maps/city.pmtiles" {
		t.Errorf("flag path %s", got)
	}
	srv := serve(t, Path("", data))
	info := func() (Info, string) {
		res, body := get(t, "GET", srv.URL+"/tiles/streets.json")
		var out Info
		if res.StatusCode != http.StatusOK || json.Unmarshal(body, &out) != nil {
			t.Fatalf("streets.json: %d %s", res.StatusCode, body)
		}
		return out, strings.TrimSpace(string(body))
	}
	if _, body := info(); body != `{"archive":false}` {
		t.Errorf("without an archive: %s", body)
	}
	if res, _ := get(t, "GET", srv.URL+ArchivePath); res.StatusCode != http.StatusNotFound {
		t.Errorf("archive without one: %d", res.StatusCode)
	}

	// Not an archive: still none.
	if err := os.WriteFile(filepath.Join(data, FileName), []byte("<html>not tiles</html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _ := info(); got.Archive {
		t.Errorf("a file that is no archive: %+v", got)
	}

	demoArchive(t, data)
	got, _ := info()
	want := Info{Archive: true, URL: ArchivePath, Schema: "protomaps", MinZoom: DemoMinZoom, MaxZoom: DemoMaxZoom,
		Bounds: &DemoBounds, Center: &[3]float64{DemoCenter[0], DemoCenter[1], 14}}
	if g, w := mustJSON(t, got), mustJSON(t, want); g != w {
		t.Errorf("with the archive dropped in: %s, want %s", g, w)
	}
	if res, _ := get(t, "GET", srv.URL+ArchivePath, "Range", "bytes=0-6"); res.StatusCode != http.StatusPartialContent {
		t.Errorf("archive once dropped in: %d", res.StatusCode)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
