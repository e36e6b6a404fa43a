package main

import (
	"fmt"
	"os"

	"tenfour/internal/tiles"
)

const tilesUsage = `tenfour tiles — the street map archive the console shows offline (docs/adr/0036, docs/operations.md)

  tenfour tiles info FILE   what the archive covers: tile type, zooms, bounds, centre
  tenfour tiles demo FILE   writes a small archive of the demo area (a made-up grid city), to try the setup

Serve one with: tenfour serve --tiles FILE, or put it at DATA/streets.pmtiles.
`

func tilesCmd(args []string) error {
	if len(args) != 2 {
		fmt.Fprint(os.Stderr, tilesUsage)
		os.Exit(2)
	}
	switch args[0] {
	case "demo":
		return tiles.WriteDemoFile(args[1])
	case "info":
		f, err := os.Open(args[1])
		if err != nil {
			return err
		}
		defer f.Close()
		h, err := tiles.ReadHeader(f)
		if err != nil {
			return err
		}
		kind := map[uint8]string{tiles.TypeMVT: "vector (MVT)", tiles.TypePNG: "raster PNG", tiles.TypeJPEG: "raster JPEG",
			tiles.TypeWebP: "raster WebP", tiles.TypeAVIF: "raster AVIF"}[h.TileType]
		if h.TileType != tiles.TypeMVT {
			kind += " — the console draws vector archives only"
		}
		fmt.Printf("tiles:   %s\nzooms:   %d–%d\nbounds:  %.5f,%.5f,%.5f,%.5f (west,south,east,north)\ncentre:  %.5f,%.5f at zoom %d\ntiles:   %d addressed\n",
			kind, h.MinZoom, h.MaxZoom, h.Bounds[0], h.Bounds[1], h.Bounds[2], h.Bounds[3], h.Center[0], h.Center[1], h.CenterZoom, h.AddressedTiles)
		return nil
	default:
		fmt.Fprint(os.Stderr, tilesUsage)
		os.Exit(2)
	}
	return nil
}
