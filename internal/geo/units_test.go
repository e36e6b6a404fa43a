package geo

import (
	"math"
	"testing"
)

func TestUnits(t *testing.T) {
	for _, c := range []struct {
		in       string
		unit     Unit
		speed10  float64 // 10 m/s in the unit
		distUnit string
		dist1500 float64 // 1500 m in the distance unit
	}{
		{"", MPH, 22.37, "km", 1.5},
		{"mph", MPH, 22.37, "km", 1.5},
		{"km/h", KMH, 36, "km", 1.5},
		{"kmh", KMH, 36, "km", 1.5},
		{"m/s", MPS, 10, "m", 1500},
	} {
		u, err := ParseUnit(c.in)
		if err != nil || u != c.unit {
			t.Fatalf("ParseUnit(%q) = %v %v", c.in, u, err)
		}
		if got := u.Speed(10); math.Abs(got-c.speed10) > 1e-9 {
			t.Errorf("%s: 10 m/s = %v", u, got)
		}
		if u.DistanceUnit() != c.distUnit || u.Distance(1500) != c.dist1500 {
			t.Errorf("%s: 1500 m = %v %s", u, u.Distance(1500), u.DistanceUnit())
		}
	}
	if _, err := ParseUnit("knots"); err == nil {
		t.Error("knots accepted")
	}
}

func TestPrecisionRule(t *testing.T) {
	// Spec §9: 50-100 → 3, to 200 → 6, to 300 → 10, to 400 → 15, to 500 → 20, to 1000 → 30, else 50.
	for _, c := range []struct {
		m    float64
		want int
	}{
		{0, 50}, {49.9, 50}, {50, 3}, {75, 3}, {100, 3}, {100.1, 6}, {200, 6}, {200.5, 10}, {300, 10},
		{301, 15}, {400, 15}, {401, 20}, {500, 20}, {500.01, 30}, {1000, 30}, {1000.01, 50}, {1e6, 50},
	} {
		if got := Precision(c.m); got != c.want {
			t.Errorf("Precision(%v) = %d, want %d", c.m, got, c.want)
		}
	}
}
