package indoor

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"

	"tenfour/internal/files"
	"tenfour/internal/indoor/radio"
	"tenfour/internal/platform/identity"
)

// SeedDemo gives a customer the demo building (radio.Demo: two storeys, 24 beacons each, plans drawn here and
// stored through the file service) unless it has a building already; uploader is the dispatcher the plan
// images are uploaded as. It reports whether it seeded.
func (s *Service) SeedDemo(ctx context.Context, customerID int64, uploader string) (bool, error) {
	list, err := s.store.Buildings(ctx, customerID)
	if err != nil || len(list) > 0 {
		return false, err
	}
	bd := radio.Demo()
	now := s.now().UnixMilli()
	bid, err := s.store.CreateBuilding(ctx, customerID, bd.Name, "Demo: two storeys, 24 beacons each", now)
	if err != nil {
		return false, err
	}
	p := identity.Principal{AccountID: uploader, CustomerID: customerID, Type: identity.DispatcherType}
	for si, st := range bd.Storeys {
		img, err := DemoPlan(bd, si)
		if err != nil {
			return false, err
		}
		info, err := s.files.Save(ctx, p, fmt.Sprintf("demo-plan-%d.png", st.Level), files.Image, bytes.NewReader(img))
		if err != nil {
			return false, err
		}
		w, h := int(math.Round(st.Width/radio.DemoScale)), int(math.Round(st.Height/radio.DemoScale))
		fid, err := s.store.CreateFloor(ctx, customerID, Floor{BuildingID: bid, Name: st.Name, Level: st.Level,
			FileID: info.ID, Width: w, Height: h, Scale: radio.DemoScale}, now)
		if err != nil {
			return false, err
		}
		for _, b := range bd.Beacons {
			if b.Storey != si {
				continue
			}
			if _, err := s.store.CreateBeacon(ctx, customerID, Beacon{FloorID: fid, MAC: b.MAC, Name: b.Name,
				X: b.X / radio.DemoScale, Y: b.Y / radio.DemoScale, RSSI: b.RSSI1m, Decay: b.Decay}, now); err != nil {
				return false, err
			}
		}
	}
	s.forget(customerID)
	return true, nil
}

// DemoPlan draws storey si of the demo building as a PNG at radio.DemoScale: outer walls, the corridor along
// the middle with doors into the rooms either side, the stairs at the east end.
func DemoPlan(bd radio.Building, si int) ([]byte, error) {
	st := bd.Storeys[si]
	px := func(m float64) int { return int(math.Round(m / radio.DemoScale)) }
	w, h := px(st.Width), px(st.Height)
	pal := color.Palette{color.RGBA{0xff, 0xff, 0xff, 0xff}, color.RGBA{0x43, 0x4a, 0x54, 0xff},
		color.RGBA{0xee, 0xf2, 0xf7, 0xff}, color.RGBA{0xb8, 0xc2, 0xcc, 0xff}}
	img := image.NewPaletted(image.Rect(0, 0, w, h), pal)
	fill := func(x0, y0, x1, y1 int, c uint8) {
		for y := max(y0, 0); y < min(y1, h); y++ {
			for x := max(x0, 0); x < min(x1, w); x++ {
				img.SetColorIndex(x, y, c)
			}
		}
	}
	const wall = 6
	cy0, cy1 := px(radio.DemoCorridorY-1.5), px(radio.DemoCorridorY+1.5)
	fill(0, cy0, w, cy1, 2) // the corridor floor
	// stairs: treads across the east end of the corridor
	sx := px(radio.DemoStairsX - 1.5)
	for x := sx; x < w-wall; x += 12 {
		fill(x, cy0-px(1.5), x+3, cy1+px(1.5), 3)
	}
	// outer walls
	fill(0, 0, w, wall, 1)
	fill(0, h-wall, w, h, 1)
	fill(0, 0, wall, h, 1)
	fill(w-wall, 0, w, h, 1)
	// corridor walls with a door (1.2 m) into each room
	rooms := []float64{0, 9.5, 19, 28.5, 38, st.Width - 4}
	for _, y := range []int{cy0, cy1} {
		fill(0, y-wall/2, sx, y+wall/2, 1)
		for i := 0; i+1 < len(rooms); i++ {
			door := px((rooms[i]+rooms[i+1])/2 + float64(si))
			fill(door-px(0.6), y-wall/2, door+px(0.6), y+wall/2, 0)
		}
	}
	// partitions between rooms
	for _, x := range rooms[1 : len(rooms)-1] {
		fill(px(x)-wall/2, 0, px(x)+wall/2, cy0, 1)
		fill(px(x)-wall/2, cy1, px(x)+wall/2, h, 1)
	}
	var buf bytes.Buffer
	err := png.Encode(&buf, img)
	return buf.Bytes(), err
}

// Estimator is the estimator over a fixed layout and one terminal's track, without a store or a server: the
// estimator test and the bench run the demo building through it.
type Estimator struct {
	l  *layout
	tr Track
}

// DemoEstimator is an Estimator on the demo building as SeedDemo stores it (plan pixels at radio.DemoScale):
// building 1, storey i is floor i+1.
func DemoEstimator() *Estimator {
	bd := radio.Demo()
	l := &layout{byMAC: map[string]Anchor{}, floors: map[FloorID]floorGeom{}}
	for i, st := range bd.Storeys {
		w, h := math.Round(st.Width/radio.DemoScale), math.Round(st.Height/radio.DemoScale)
		l.floors[FloorID(i+1)] = floorGeom{Building: 1, Scale: radio.DemoScale, W: w * radio.DemoScale, H: h * radio.DemoScale}
	}
	for i, b := range bd.Beacons {
		// through plan pixels and back, as the store does
		px, py := round(b.X/radio.DemoScale, 2), round(b.Y/radio.DemoScale, 2)
		l.byMAC[b.MAC] = Anchor{Beacon: BeaconID(i + 1), Floor: FloorID(b.Storey + 1), Building: 1,
			X: px * radio.DemoScale, Y: py * radio.DemoScale, RSSI1m: float64(b.RSSI1m), Decay: b.Decay}
	}
	return &Estimator{l: l}
}

// Estimate runs one scan taken at now (ms) and returns the smoothed position (plan pixels; accuracy in metres).
func (e *Estimator) Estimate(readings []Reading, now int64) (Position, bool) {
	return e.l.estimate(&e.tr, readings, now)
}
