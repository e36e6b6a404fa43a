package tiles

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

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
