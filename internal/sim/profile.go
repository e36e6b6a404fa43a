package sim

import (
	"math/rand/v2"
	"time"
)

// Profile is how a terminal type behaves (spec §3 types: 20 dispatcher, 10 app, 8 gateway, 6/0/PMR/DMR PoC
// radios, 505 SOS button, camera).
type Profile struct {
	Type string
	// DriveShare is the share of terminals of this type in vehicles; the rest walk (or stay still).
	DriveShare float64
	Mobility   Mobility // for those not driving
	// GPSInterval is the default report interval (param.set gpsInterval overrides it); 0 = never reports.
	GPSInterval time.Duration
	// Talk scales the fleet's talk rate (0 = never talks on its own).
	Talk float64
	// SOS scales the fleet's SOS rate.
	SOS float64
	// SOSType is the sos.raise type the device sends ("0" key, "3" app).
	SOSType string
	// DrainPerHour is the battery drain in percent per hour; 0 = mains powered.
	DrainPerHour float64
	// Answers tells whether it takes individual calls (cameras do not).
	Answers bool
	// Console signs in like a dispatcher's console (type 20) instead of as a terminal.
	Console bool
	// Uploads scales the fleet's rate of photos and snapshots sent to the media cloud (0 = none).
	Uploads float64
}

// Profiles by type code.
var Profiles = map[string]Profile{
	"6":      {Type: "6", DriveShare: 0.6, Mobility: Walking, GPSInterval: 15 * time.Second, Talk: 1, SOS: 1, SOSType: "0", DrainPerHour: 7, Answers: true},
	"0":      {Type: "0", DriveShare: 0.2, Mobility: Walking, GPSInterval: 15 * time.Second, Talk: 1, SOS: 1, SOSType: "0", DrainPerHour: 7, Answers: true},
	"PMR":    {Type: "PMR", DriveShare: 0.1, Mobility: Walking, GPSInterval: 15 * time.Second, Talk: 1, SOS: 1, SOSType: "0", DrainPerHour: 6, Answers: true},
	"DMR":    {Type: "DMR", DriveShare: 0.5, Mobility: Walking, GPSInterval: 15 * time.Second, Talk: 1, SOS: 1, SOSType: "0", DrainPerHour: 6, Answers: true},
	"10":     {Type: "10", DriveShare: 0.3, Mobility: Walking, GPSInterval: 20 * time.Second, Talk: 0.7, SOS: 1, SOSType: "3", DrainPerHour: 10, Answers: true, Uploads: 1},
	"8":      {Type: "8", Mobility: Fixed, GPSInterval: 5 * time.Minute, Talk: 0.5, Answers: true},
	"505":    {Type: "505", Mobility: Still, GPSInterval: time.Minute, SOS: 4, SOSType: "0", DrainPerHour: 1.5, Answers: true},
	"camera": {Type: "camera", Mobility: Fixed, GPSInterval: 5 * time.Minute, Uploads: 12},
	"20":     {Type: "20", Mobility: Fixed, Talk: 0.5, Console: true},
}

// ProfileOf returns the profile of a type (an unknown type behaves like a radio).
func ProfileOf(typ string) Profile {
	if p, ok := Profiles[typ]; ok {
		return p
	}
	p := Profiles["6"]
	p.Type = typ
	return p
}

// mobility picks how one terminal of this profile moves.
func (p Profile) mobility(rng *rand.Rand) Mobility {
	if p.DriveShare > 0 && rng.Float64() < p.DriveShare {
		return Driving
	}
	return p.Mobility
}

// mixTypes is the type mix of a fleet whose accounts come without types: mostly radios and apps, a few of
// every other kind.
var mixTypes = []struct {
	typ   string
	share float64
}{
	{"6", 0.30}, {"0", 0.12}, {"PMR", 0.08}, {"DMR", 0.10}, {"10", 0.25}, {"8", 0.03}, {"505", 0.07}, {"camera", 0.05},
}

// MixType is the type of the i-th terminal of a fleet without types (deterministic: the same i, the same
// type, so a provisioned fleet and the simulator agree).
func MixType(i int) string {
	// A fixed low-discrepancy sequence spreads the types evenly over any prefix of the fleet.
	x := float64((uint64(i)*11400714819323198485)>>11) / (1 << 53)
	for _, m := range mixTypes {
		if x < m.share {
			return m.typ
		}
		x -= m.share
	}
	return "6"
}
