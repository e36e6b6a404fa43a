package geo

import (
	"net/http"

	"tenfour/internal/platform/httpx"
)

// Unit is a speed unit of spec §9. Positions are stored and sent in metres per second; a track summary is
// presented in the unit the console asks for (client config speedUnit, default mph).
type Unit string

const (
	KMH Unit = "km/h"
	MPH Unit = "mph"
	MPS Unit = "m/s"
)

// DefaultUnit is the spec's default speed unit (client config speedUnit).
const DefaultUnit = MPH

// Spec §9 factors from metres per second.
const (
	kmhPerMps = 3.6
	mphPerMps = 2.237
)

// ParseUnit reads a unit parameter; empty is the default (mph). "kmh" and "mps" are accepted spellings.
func ParseUnit(s string) (Unit, error) {
	switch s {
	case "":
		return DefaultUnit, nil
	case "km/h", "kmh", "KM/H":
		return KMH, nil
	case "mph", "MPH":
		return MPH, nil
	case "m/s", "mps", "M/S":
		return MPS, nil
	}
	return "", httpx.E(http.StatusBadRequest, "400", "errors.badParam", "unit: km/h, mph or m/s")
}

// Speed converts metres per second into the unit.
func (u Unit) Speed(mps float64) float64 {
	switch u {
	case KMH:
		return mps * kmhPerMps
	case MPH:
		return mps * mphPerMps
	}
	return mps
}

// DistanceUnit is "km" for km/h and mph and "m" for m/s (spec §9).
func (u Unit) DistanceUnit() string {
	if u == KMH || u == MPH {
		return "km"
	}
	return "m"
}

// Distance converts metres into the unit's distance unit.
func (u Unit) Distance(m float64) float64 {
	if u.DistanceUnit() == "km" {
		return m / 1000
	}
	return m
}

// Precision is spec §9's distance-to-precision rule, by metres: 50–100 gives 3, up to 200 gives 6, up to 300
// gives 10, up to 400 gives 15, up to 500 gives 20, up to 1000 gives 30, anything else 50. Ranges are closed
// at the top ((100, 200] → 6); below 50 m falls under "anything else" exactly as the rule is written. Track
// playback uses it as the number of animation steps for a segment of that length.
func Precision(meters float64) int {
	switch {
	case meters >= 50 && meters <= 100:
		return 3
	case meters > 100 && meters <= 200:
		return 6
	case meters > 200 && meters <= 300:
		return 10
	case meters > 300 && meters <= 400:
		return 15
	case meters > 400 && meters <= 500:
		return 20
	case meters > 500 && meters <= 1000:
		return 30
	}
	return 50
}
