package sim

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// TestRoutes: positions stay in their district, speeds are those of the mobility (walkers 1.1-1.6 m/s,
// vehicles 6-14 m/s, fixed terminals never move), and a route is a loop.
func TestRoutes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, m := range []Mobility{Fixed, Still, Walking, Driving} {
		for i := range 60 {
			city := Istanbul
			if i%2 == 1 {
				city = Izmir
			}
			d := city.districts[i%len(city.districts)]
			rt := newRoute(d, m, r)
			if m == Fixed && rt.Period() != 0 {
				t.Fatalf("%v route moves", m)
			}
			var prev Fix
			for k := range 400 {
				at := time.Duration(k) * 15 * time.Second
				f := rt.At(at)
				n, e := metres(d.at, f.LatLng)
				if dist := math.Hypot(n, e); dist > d.radius*1.5 {
					t.Fatalf("%v route %d at %v: %.0f m from the centre of %s (radius %.0f)", m, i, at, dist, d.name, d.radius)
				}
				lo, hi := map[Mobility][2]float64{Fixed: {0, 0}, Still: {0.6, 1.2}, Walking: {1.1, 1.6}, Driving: {6, 14}}[m][0],
					map[Mobility][2]float64{Fixed: {0, 0}, Still: {0.6, 1.2}, Walking: {1.1, 1.6}, Driving: {6, 14}}[m][1]
				if f.Speed != 0 && (f.Speed < lo || f.Speed > hi) {
					t.Fatalf("%v route: speed %.1f m/s", m, f.Speed)
				}
				if k > 0 && m != Fixed {
					// Between two fixes 15 s apart it covers no more than its top speed allows.
					n, e := metres(prev.LatLng, f.LatLng)
					if math.Hypot(n, e) > hi*15+1 {
						t.Fatalf("%v route jumps %.0f m in 15 s", m, math.Hypot(n, e))
					}
				}
				prev = f
			}
			if m != Fixed {
				if a, b := rt.At(time.Minute), rt.At(time.Minute+rt.Period()); math.Abs(a.Lat-b.Lat) > 1e-9 || math.Abs(a.Lng-b.Lng) > 1e-9 {
					t.Fatalf("%v route is not a loop", m)
				}
			}
		}
	}
}

// TestMixType: the type mix is spread over any prefix of a fleet.
func TestMixType(t *testing.T) {
	count := map[string]int{}
	for i := range 1000 {
		count[MixType(i)]++
	}
	for _, m := range mixTypes {
		want := m.share * 1000
		if got := float64(count[m.typ]); math.Abs(got-want) > 0.2*want+5 {
			t.Errorf("type %s: %v of 1000, want about %v", m.typ, got, want)
		}
	}
	if first, again := MixType(17), MixType(17); first != again {
		t.Fatal("MixType is not deterministic")
	}
}
