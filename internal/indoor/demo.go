package indoor

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"log/slog"
	"math"
	"strings"

	"tenfour/internal/files"
	"tenfour/internal/indoor/radio"
	"tenfour/internal/platform/identity"
)

// SeedDemo gives a customer the demo building (radio.Demo: two storeys, 24 beacons each, plans drawn here and
// stored through the file service) unless it has a building already; uploader is the dispatcher the plan
// images are uploaded as. It reports whether it seeded.
func (s *Service) SeedDemo(ctx context.Context, customerID int64, uploader string) (bool, error) {
	list, err := s.store.Buildings(ctx, customerID)
	if err != nil {
		return false, err
	}
	if len(list) > 0 {
		return false, s.upgradeDemo(ctx, customerID, uploader, list)
	}
	bd := radio.Demo()
	now := s.Now().UnixMilli()
	bid, err := s.store.CreateBuilding(ctx, customerID, Building{Name: bd.Name, Remark: "Demo: two storeys, 24 beacons each"}, now)
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
		for _, poly := range DemoAreaPolygons(si) {
			if _, err := s.store.CreateArea(ctx, customerID, Area{FloorID: fid, Points: poly}, now); err != nil {
				return false, err
			}
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

// upgradeDemo gives a demo building seeded before walkable areas existed (this layout's beacons, no area on any
// floor) the demo's areas and the plans drawn from them (their doors moved), so `serve --demo` on an older database
// positions its walkers with walls too. Any other building, or one with areas, is left as it is.
func (s *Service) upgradeDemo(ctx context.Context, customerID int64, uploader string, list []Building) error {
	bd := radio.Demo()
	for _, b := range list {
		if b.Name != bd.Name || len(b.Floors) != len(bd.Storeys) {
			continue
		}
		for _, f := range b.Floors {
			if len(f.Areas) > 0 || len(f.Beacons) == 0 || !strings.HasPrefix(f.Beacons[0].MAC, radio.DemoMAC(0, 0)[:12]) {
				return nil
			}
		}
		p := identity.Principal{AccountID: uploader, CustomerID: customerID, Type: identity.DispatcherType}
		now := s.Now().UnixMilli()
		for si, st := range bd.Storeys {
			f := b.Floors[si]
			if f.Level != st.Level {
				return nil
			}
			img, err := DemoPlan(bd, si)
			if err != nil {
				return err
			}
			info, err := s.files.Save(ctx, p, fmt.Sprintf("demo-plan-%d.png", st.Level), files.Image, bytes.NewReader(img))
			if err != nil {
				return err
			}
			f.FileID = info.ID
			if err := s.store.UpdateFloor(ctx, customerID, f); err != nil {
				return err
			}
			for _, poly := range DemoAreaPolygons(si) {
				if _, err := s.store.CreateArea(ctx, customerID, Area{FloorID: f.ID, Points: poly}, now); err != nil {
					return err
				}
			}
		}
		slog.InfoContext(ctx, "indoor: the demo building got its walkable areas", "customer", customerID, "building", b.ID)
		s.forget(customerID)
	}
	return nil
}

// DemoPlan draws storey si of the demo building as a PNG at radio.DemoScale from its walkable areas
// (radio.DemoAreas): walls wherever no area is, the corridor shaded, the stairs' treads at its east end.
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
	fill(0, 0, w, h, 1) // walls everywhere but the areas
	areas := radio.DemoAreas(si)
	for k, r := range areas {
		c := uint8(0)
		if k == 0 { // the corridor
			c = 2
		}
		fill(px(r.X0), px(r.Y0), px(r.X1), px(r.Y1), c)
	}
	// stairs: treads across the east end of the corridor
	c := areas[0]
	for x := px(radio.DemoStairsX - 1.5); x < px(c.X1); x += 12 {
		fill(x, px(c.Y0), x+3, px(c.Y1), 3)
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
func DemoEstimator() *Estimator { return demoEstimator(true) }

// DemoEstimatorWithoutAreas is DemoEstimator on floors without walkable areas: the fit and the Kalman track.
func DemoEstimatorWithoutAreas() *Estimator { return demoEstimator(false) }

func demoEstimator(walkAreas bool) *Estimator {
	bd := radio.Demo()
	l := &layout{byMAC: map[string]Anchor{}, floors: map[FloorID]floorGeom{}, walk: map[FloorID]*walkable{}}
	for i, st := range bd.Storeys {
		w, h := math.Round(st.Width/radio.DemoScale), math.Round(st.Height/radio.DemoScale)
		l.floors[FloorID(i+1)] = floorGeom{Building: 1, Scale: radio.DemoScale, W: w * radio.DemoScale, H: h * radio.DemoScale}
		if walkAreas {
			var polys [][][2]float64
			for _, a := range DemoAreaPolygons(i) {
				poly := make([][2]float64, len(a))
				for k, p := range a {
					poly[k] = [2]float64{p[0] * radio.DemoScale, p[1] * radio.DemoScale}
				}
				polys = append(polys, poly)
			}
			l.walk[FloorID(i+1)] = newWalkable(polys, w*radio.DemoScale, h*radio.DemoScale)
		}
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

// DemoAreaPolygons are the walkable areas of storey s of the demo building (radio.DemoAreas) as plan-pixel
// polygons, as SeedDemo stores them.
func DemoAreaPolygons(s int) [][][2]float64 {
	var out [][][2]float64
	for _, r := range radio.DemoAreas(s) {
		x0, y0 := round(r.X0/radio.DemoScale, 2), round(r.Y0/radio.DemoScale, 2)
		x1, y1 := round(r.X1/radio.DemoScale, 2), round(r.Y1/radio.DemoScale, 2)
		out = append(out, [][2]float64{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}})
	}
	return out
}
