package tiles

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"

	"google.golang.org/protobuf/encoding/protowire"
)

// The demo area: the streets of a made-up grid city around the demo fleet (internal/sim's Istanbul centre,
// 41.01 N 28.97 E), in the Protomaps basemap schema (https://docs.protomaps.com/basemaps/layers) the console's
// street style draws: earth, water, landuse, roads and buildings. Small (a few dozen tiles, well under 100 KB)
// so the tests and the browser suite write it in a moment, and enough to tell streets from a blue sheet.
var (
	// DemoBounds are west, south, east, north.
	DemoBounds = [4]float64{28.94, 40.99, 29.00, 41.03}
	// DemoCenter is longitude, latitude.
	DemoCenter                     = [2]float64{28.97, 41.01}
	DemoMinZoom, DemoMaxZoom uint8 = 10, 15
)

const (
	extent     = 4096
	blockDeg   = 0.004 // one street every 0.004° (about 400 m north–south)
	waterNorth = 40.995
	buildings  = 14 // buildings from this zoom on
)

// WriteDemoFile writes the demo archive to path.
func WriteDemoFile(path string) error {
	var b bytes.Buffer
	if err := WriteDemo(&b); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// WriteDemo writes the demo archive: vector tiles of the demo area from DemoMinZoom to DemoMaxZoom.
func WriteDemo(w io.Writer) error {
	tiles := map[uint64][]byte{}
	for z := DemoMinZoom; z <= DemoMaxZoom; z++ {
		x0, y0 := lonLatToTile(z, DemoBounds[0], DemoBounds[3])
		x1, y1 := lonLatToTile(z, DemoBounds[2], DemoBounds[1])
		for x := x0; x <= x1; x++ {
			for y := y0; y <= y1; y++ {
				t, err := gzipped(demoTile(z, x, y))
				if err != nil {
					return err
				}
				tiles[TileID(z, x, y)] = t
			}
		}
	}
	meta := map[string]any{
		"name":        "tenfour demo streets",
		"attribution": "tenfour demo (generated)",
		"description": "A made-up grid city around the demo fleet, for tests (internal/tiles/demo.go)",
		"vector_layers": []map[string]any{
			{"id": "earth", "fields": map[string]string{"kind": "String"}},
			{"id": "water", "fields": map[string]string{"kind": "String"}},
			{"id": "landuse", "fields": map[string]string{"kind": "String"}},
			{"id": "roads", "fields": map[string]string{"kind": "String", "name": "String"}},
			{"id": "buildings", "fields": map[string]string{"kind": "String"}},
		},
	}
	h := Header{TileType: TypeMVT, TileCompression: CompressionGzip, MinZoom: DemoMinZoom, MaxZoom: DemoMaxZoom,
		Bounds: DemoBounds, Center: DemoCenter, CenterZoom: 14}
	return writeArchive(w, h, meta, tiles)
}

// writeArchive writes a PMTiles v3 archive with every tile in the root directory (enough for a small archive:
// the root directory must fit in the first 16 KiB with the header), gzip for directories and metadata.
func writeArchive(w io.Writer, h Header, meta any, tiles map[uint64][]byte) error {
	ids := slices.Sorted(maps.Keys(tiles))
	var data []byte
	var dir []byte
	dir = protowire.AppendVarint(dir, uint64(len(ids)))
	last := uint64(0)
	for _, id := range ids {
		dir = protowire.AppendVarint(dir, id-last)
		last = id
	}
	for range ids {
		dir = protowire.AppendVarint(dir, 1) // run length
	}
	for _, id := range ids {
		dir = protowire.AppendVarint(dir, uint64(len(tiles[id])))
	}
	for i, id := range ids {
		if i == 0 {
			dir = protowire.AppendVarint(dir, 1) // offset 0, plus one
		} else {
			dir = protowire.AppendVarint(dir, 0) // right after the previous tile
		}
		data = append(data, tiles[id]...)
	}
	root, err := gzipped(dir)
	if err != nil {
		return err
	}
	m, err := json.Marshal(meta)
	if err != nil {
		return err
	}
	if m, err = gzipped(m); err != nil {
		return err
	}
	if HeaderLen+len(root) > 16384 {
		return fmt.Errorf("root directory of %d bytes: too many tiles for one directory", len(root))
	}
	n := uint64(len(ids))
	h.RootOffset, h.RootLength = HeaderLen, uint64(len(root))
	h.MetadataOffset, h.MetadataLength = h.RootOffset+h.RootLength, uint64(len(m))
	h.LeafOffset = h.MetadataOffset + h.MetadataLength
	h.DataOffset, h.DataLength = h.LeafOffset, uint64(len(data))
	h.AddressedTiles, h.TileEntries, h.TileContents = n, n, n
	h.Clustered, h.InternalCompression = true, CompressionGzip
	for _, part := range [][]byte{h.bytes(), root, m, data} {
		if _, err := w.Write(part); err != nil {
			return err
		}
	}
	return nil
}

func gzipped(b []byte) ([]byte, error) {
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	if _, err := zw.Write(b); err != nil {
		return nil, err
	}
	err := zw.Close()
	return out.Bytes(), err
}

// lonLatToTile is the tile of zoom z that holds the point (Web Mercator).
func lonLatToTile(z uint8, lon, lat float64) (uint32, uint32) {
	x, y := mercator(z, lon, lat)
	return uint32(x), uint32(y)
}

// mercator is the point in tile units of zoom z (the integer part is the tile).
func mercator(z uint8, lon, lat float64) (float64, float64) {
	n := math.Exp2(float64(z))
	r := lat * math.Pi / 180
	return (lon + 180) / 360 * n, (1 - math.Log(math.Tan(r)+1/math.Cos(r))/math.Pi) / 2 * n
}

// box is a rectangle in degrees: west, south, east, north (a line when two sides meet).
type box [4]float64

func (b box) clip(c box) (box, bool) {
	out := box{max(b[0], c[0]), max(b[1], c[1]), min(b[2], c[2]), min(b[3], c[3])}
	return out, out[0] <= out[2] && out[1] <= out[3]
}

// demoTile is the vector tile z/x/y of the demo city: every shape clipped to the tile and a small buffer.
func demoTile(z uint8, x, y uint32) []byte {
	n := math.Exp2(float64(z))
	lon := func(x float64) float64 { return x/n*360 - 180 }
	lat := func(y float64) float64 { return math.Atan(math.Sinh(math.Pi*(1-2*y/n))) * 180 / math.Pi }
	const buf = 1.0 / 16
	tile := box{lon(float64(x) - buf), lat(float64(y+1) + buf), lon(float64(x+1) + buf), lat(float64(y) - buf)}
	at := func(lo, la float64) (int64, int64) {
		px, py := mercator(z, lo, la)
		return int64(math.Round((px - float64(x)) * extent)), int64(math.Round((py - float64(y)) * extent))
	}
	w, s, e, north := DemoBounds[0], DemoBounds[1], DemoBounds[2], DemoBounds[3]

	var layers []mvtLayer
	layers = append(layers, polygons("earth", tile, at, feature{box{w, s, e, north}, "earth", ""}))
	layers = append(layers, polygons("water", tile, at, feature{box{w, s, e, waterNorth}, "ocean", ""}))
	layers = append(layers, polygons("landuse", tile, at, feature{box{28.962, 41.007, 28.966, 41.011}, "park", ""}))
	var roads, houses []feature
	for i, la := 0, waterNorth+blockDeg/2; la < north; i, la = i+1, la+blockDeg {
		roads = append(roads, feature{box{w, la, e, la}, roadKind(i), fmt.Sprintf("Demo Street %d", i+1)})
	}
	for i, lo := 0, w+blockDeg/2; lo < e; i, lo = i+1, lo+blockDeg {
		roads = append(roads, feature{box{lo, waterNorth, lo, north}, roadKind(i), fmt.Sprintf("Demo Avenue %d", i+1)})
		if z < buildings {
			continue
		}
		for la := waterNorth + blockDeg/2; la+blockDeg < north; la += blockDeg {
			houses = append(houses, feature{box{lo + blockDeg/4, la + blockDeg/4, lo + 3*blockDeg/4, la + 3*blockDeg/4}, "building", ""})
		}
	}
	layers = append(layers, lines("roads", tile, at, roads...), polygons("buildings", tile, at, houses...))

	var out []byte
	for _, l := range layers {
		if len(l.features) > 0 {
			out = protowire.AppendTag(out, 3, protowire.BytesType)
			out = protowire.AppendBytes(out, l.encode())
		}
	}
	return out
}

func roadKind(i int) string {
	if i%3 == 0 {
		return "major_road"
	}
	return "minor_road"
}

// feature is a demo shape: a rectangle or an axis-aligned line, its kind and name.
type feature struct {
	box  box
	kind string
	name string
}

type point func(lon, lat float64) (int64, int64)

func polygons(name string, tile box, at point, fs ...feature) mvtLayer {
	l := mvtLayer{name: name}
	for _, f := range fs {
		if b, ok := f.box.clip(tile); ok {
			x0, y0 := at(b[0], b[3]) // north-west: the top left of the tile's y-down grid
			x1, y1 := at(b[2], b[1])
			// The exterior ring clockwise on screen (positive area with y down), as MVT 2 wants.
			l.add(3, f, [][2]int64{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}})
		}
	}
	return l
}

func lines(name string, tile box, at point, fs ...feature) mvtLayer {
	l := mvtLayer{name: name}
	for _, f := range fs {
		if b, ok := f.box.clip(tile); ok {
			x0, y0 := at(b[0], b[3])
			x1, y1 := at(b[2], b[1])
			l.add(2, f, [][2]int64{{x0, y0}, {x1, y1}})
		}
	}
	return l
}

// mvtLayer builds one layer of a Mapbox Vector Tile 2 (https://github.com/mapbox/vector-tile-spec/tree/master/2.1):
// string properties only, keys and values shared by the layer's features.
type mvtLayer struct {
	name     string
	keys     []string
	values   []string
	features [][]byte
}

func (l *mvtLayer) index(list *[]string, s string) uint64 {
	if i := slices.Index(*list, s); i >= 0 {
		return uint64(i)
	}
	*list = append(*list, s)
	return uint64(len(*list) - 1)
}

// add appends a feature of geometry type typ (2 line, 3 polygon) through the points, in tile units.
func (l *mvtLayer) add(typ uint64, f feature, pts [][2]int64) {
	var tags []byte
	for _, kv := range [][2]string{{"kind", f.kind}, {"name", f.name}} {
		if kv[1] != "" {
			tags = protowire.AppendVarint(tags, l.index(&l.keys, kv[0]))
			tags = protowire.AppendVarint(tags, l.index(&l.values, kv[1]))
		}
	}
	command := func(id, count uint64) uint64 { return id&7 | count<<3 }
	var geom []byte
	var cx, cy int64
	for i, p := range pts {
		switch i {
		case 0:
			geom = protowire.AppendVarint(geom, command(1, 1)) // MoveTo
		case 1:
			geom = protowire.AppendVarint(geom, command(2, uint64(len(pts)-1))) // LineTo the rest
		}
		geom = protowire.AppendVarint(geom, protowire.EncodeZigZag(p[0]-cx))
		geom = protowire.AppendVarint(geom, protowire.EncodeZigZag(p[1]-cy))
		cx, cy = p[0], p[1]
	}
	if typ == 3 {
		geom = protowire.AppendVarint(geom, command(7, 1)) // ClosePath
	}
	var b []byte
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	b = protowire.AppendBytes(b, tags)
	b = protowire.AppendTag(b, 3, protowire.VarintType)
	b = protowire.AppendVarint(b, typ)
	b = protowire.AppendTag(b, 4, protowire.BytesType)
	b = protowire.AppendBytes(b, geom)
	l.features = append(l.features, b)
}

func (l *mvtLayer) encode() []byte {
	var b []byte
	b = protowire.AppendTag(b, 15, protowire.VarintType)
	b = protowire.AppendVarint(b, 2)
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	b = protowire.AppendString(b, l.name)
	for _, f := range l.features {
		b = protowire.AppendTag(b, 2, protowire.BytesType)
		b = protowire.AppendBytes(b, f)
	}
	for _, k := range l.keys {
		b = protowire.AppendTag(b, 3, protowire.BytesType)
		b = protowire.AppendString(b, k)
	}
	for _, v := range l.values {
		b = protowire.AppendTag(b, 4, protowire.BytesType)
		var val []byte
		val = protowire.AppendTag(val, 1, protowire.BytesType)
		val = protowire.AppendString(val, v)
		b = protowire.AppendBytes(b, val)
	}
	b = protowire.AppendTag(b, 5, protowire.VarintType)
	return protowire.AppendVarint(b, extent)
}
