// Package tiles serves the street map archive (docs/adr/0036): one PMTiles v3 file, named by --tiles or found as
// streets.pmtiles in the data directory, served as a plain file with range requests. The browser's pmtiles
// protocol reads the header, the directories and the tiles by ranges itself, so the server decodes nothing but
// the header (for what the console is told about the archive). demo.go writes a small archive of the demo area
// for the tests and `tenfour tiles demo`.
package tiles

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// HeaderLen is the size of a PMTiles v3 header (https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md).
const HeaderLen = 127

// Tile types and compressions of the spec (the values the header stores).
const (
	TypeMVT  = 1
	TypePNG  = 2
	TypeJPEG = 3
	TypeWebP = 4
	TypeAVIF = 5

	CompressionNone = 1
	CompressionGzip = 2
)

// Header is what a PMTiles v3 header says about the archive.
type Header struct {
	RootOffset, RootLength         uint64
	MetadataOffset, MetadataLength uint64
	LeafOffset, LeafLength         uint64
	DataOffset, DataLength         uint64
	AddressedTiles, TileEntries    uint64
	TileContents                   uint64
	Clustered                      bool
	InternalCompression            uint8
	TileCompression                uint8
	TileType                       uint8
	MinZoom, MaxZoom               uint8
	// Bounds are west, south, east, north in degrees.
	Bounds     [4]float64
	CenterZoom uint8
	// Center is longitude, latitude in degrees.
	Center [2]float64
}

// ErrNotPMTiles is a file that does not start with a PMTiles v3 header.
var ErrNotPMTiles = errors.New("not a PMTiles v3 archive")

// ReadHeader reads the header at the start of r.
func ReadHeader(r io.ReaderAt) (Header, error) {
	var b [HeaderLen]byte
	if _, err := r.ReadAt(b[:], 0); err != nil {
		if errors.Is(err, io.EOF) {
			return Header{}, ErrNotPMTiles
		}
		return Header{}, err
	}
	return ParseHeader(b[:])
}

// ParseHeader decodes the 127 bytes of a header.
func ParseHeader(b []byte) (Header, error) {
	if len(b) < HeaderLen || string(b[:7]) != "PMTiles" {
		return Header{}, ErrNotPMTiles
	}
	if b[7] != 3 {
		return Header{}, fmt.Errorf("%w (spec version %d)", ErrNotPMTiles, b[7])
	}
	u := func(at int) uint64 { return binary.LittleEndian.Uint64(b[at:]) }
	deg := func(at int) float64 { return float64(int32(binary.LittleEndian.Uint32(b[at:]))) / 1e7 }
	return Header{
		RootOffset: u(8), RootLength: u(16), MetadataOffset: u(24), MetadataLength: u(32),
		LeafOffset: u(40), LeafLength: u(48), DataOffset: u(56), DataLength: u(64),
		AddressedTiles: u(72), TileEntries: u(80), TileContents: u(88),
		Clustered: b[96] == 1, InternalCompression: b[97], TileCompression: b[98], TileType: b[99],
		MinZoom: b[100], MaxZoom: b[101],
		Bounds:     [4]float64{deg(102), deg(106), deg(110), deg(114)},
		CenterZoom: b[118],
		Center:     [2]float64{deg(119), deg(123)},
	}, nil
}

// bytes encodes the header (the writer's half of ParseHeader).
func (h Header) bytes() []byte {
	b := make([]byte, HeaderLen)
	copy(b, "PMTiles")
	b[7] = 3
	for i, v := range []uint64{h.RootOffset, h.RootLength, h.MetadataOffset, h.MetadataLength, h.LeafOffset,
		h.LeafLength, h.DataOffset, h.DataLength, h.AddressedTiles, h.TileEntries, h.TileContents} {
		binary.LittleEndian.PutUint64(b[8+8*i:], v)
	}
	if h.Clustered {
		b[96] = 1
	}
	b[97], b[98], b[99], b[100], b[101] = h.InternalCompression, h.TileCompression, h.TileType, h.MinZoom, h.MaxZoom
	deg := func(at int, v float64) { binary.LittleEndian.PutUint32(b[at:], uint32(int32(v*1e7))) }
	for i, v := range h.Bounds {
		deg(102+4*i, v)
	}
	b[118] = h.CenterZoom
	deg(119, h.Center[0])
	deg(123, h.Center[1])
	return b
}

// TileID is the tile's position on the archive's Hilbert order: the tiles of every lower zoom, then the tile's
// index on the Hilbert curve of its zoom.
func TileID(z uint8, x, y uint32) uint64 {
	id := (uint64(1)<<(2*z) - 1) / 3
	for s := uint32(1) << z >> 1; s > 0; s >>= 1 {
		var rx, ry uint32
		if x&s != 0 {
			rx = 1
		}
		if y&s != 0 {
			ry = 1
		}
		id += uint64(s) * uint64(s) * uint64((3*rx)^ry)
		if ry == 0 { // rotate the quadrant
			if rx == 1 {
				x, y = s-1-x%s, s-1-y%s
			}
			x, y = y, x
		}
	}
	return id
}
