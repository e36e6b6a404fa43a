package indoor

import (
	"math"
	"math/rand/v2"
)

// The particle filter of a floor with walkable areas (docs/adr/0023 "Walkable areas"): the terminal's track is a
// cloud of Particles hypotheses (position and velocity) that move as a walker does — a velocity that wanders
// and is forgotten over ParticleTau — and never through a wall: a move whose segment leaves the walkable areas
// is drawn again, and a particle that cannot move stays. Each scan weighs every particle by the likelihood of
// the scan's readings at its place (the same log-distance model as the fit, each reading's squared standardised
// residual capped at ParticleCapZ², so a multipath reading costs at most that much), and the cloud is
// resampled when its effective size falls below half. The position is the cloud's weighted mean, its accuracy
// the cloud's radial spread. When the best particle explains the scan much worse than the scan's own fit does
// (by more than LostCost), the cloud has lost the walker: a share of it (LostShare) is drawn afresh around the
// fit, and after ResetOutliers such scans in a row the whole cloud is.
var (
	Particles     = 200
	ParticleTau   = 2.0  // s, velocity memory
	ParticleSpeed = 0.9  // m/s, the stationary spread of a velocity component
	ParticleJit   = 0.15 // m per √s, position noise besides the velocity
	ParticleCapZ  = 2.5
	LostCost      = 12.0
	LostShare     = 0.2
	ParticleSharp = 1.0
	ParticleInject = 0.0
	WallPenalty = 0.0
)

type particle struct{ x, y, vx, vy, lw float64 }

// robustCost is Σ min(wᵢ rᵢ², ParticleCapZ²) at (x, y).
func robustCost(obs []observation, x, y float64) float64 {
	s := 0.0
	for _, o := range obs {
		dx, dy := x-o.x, y-o.y
		r := 0.5*math.Log(math.Max(dx*dx+dy*dy, 0.01)) - o.ld
		s += math.Min(ParticleSharp*o.w*r*r, ParticleCapZ*ParticleCapZ)
	}
	return s
}

// seedAt draws particles [from:] around (x, y) with spread sigma, in the walkable area.
func (t *Track) seedAt(g *walkable, from int, x, y, sigma float64) {
	sigma = math.Max(sigma, 1)
	nx, ny, near := g.Nearest(x, y, 10)
	for i := from; i < len(t.parts); i++ {
		p := particle{x: nx, y: ny}
		for range 20 {
			cx, cy := x+t.rng.NormFloat64()*sigma, y+t.rng.NormFloat64()*sigma
			if g.In(cx, cy) {
				p.x, p.y = cx, cy
				break
			}
		}
		if !near && !g.In(p.x, p.y) {
			p.x, p.y = x, y // no walkable area near the fit: the cloud stays off the areas until the walker reaches them
		}
		t.parts[i] = p
	}
}

// Filter feeds one scan (its own fit f and its observations) taken at ms into the track's particle filter on a
// floor with walkable areas g, and returns the position, clamped to w × h metres.
func (t *Track) Filter(f Fit, obs []observation, at int64, g *walkable, w, h float64) Smoothed {
	if t.rng == nil {
		t.rng = rand.New(rand.NewPCG(0x1d00, 0x19)) // the estimator's own stream: deterministic for a scan sequence
	}
	dt := float64(at-t.At) / 1000
	if !t.started || f.Floor != t.Floor || at-t.At > ResetAfter || dt < 0 || len(t.parts) == 0 {
		t.parts = make([]particle, Particles)
		t.seedAt(g, 0, f.X, f.Y, f.Sigma)
		t.Floor, t.Building, t.At, t.outliers, t.fused, t.started = f.Floor, f.Building, at, 0, 0, true
		t.weigh(obs)
		return t.cloud(w, h)
	}
	a := math.Exp(-dt / ParticleTau)
	sv := ParticleSpeed * math.Sqrt(1-a*a)
	sj := ParticleJit * math.Sqrt(dt)
	for i := range t.parts {
		p := &t.parts[i]
		moved := false
		var vx, vy, nx, ny float64
		for range 4 {
			vx, vy = a*p.vx+sv*t.rng.NormFloat64(), a*p.vy+sv*t.rng.NormFloat64()
			nx, ny = p.x+vx*dt+sj*t.rng.NormFloat64(), p.y+vy*dt+sj*t.rng.NormFloat64()
			if g.Clear(p.x, p.y, nx, ny) {
				p.x, p.y, p.vx, p.vy, moved = nx, ny, vx, vy, true
				break
			}
		}
		if !moved {
			if WallPenalty > 0 && g.In(nx, ny) {
				p.x, p.y, p.vx, p.vy = nx, ny, vx, vy
				p.lw -= WallPenalty
			} else {
				p.vx, p.vy = 0, 0
			}
		}
	}
	if k := int(ParticleInject * float64(len(t.parts))); k > 0 && len(obs) >= 3 {
		// Mixture proposal: k particles drawn afresh around the scan's own fit, at the cloud's mean weight.
		mw := 0.0
		for _, p := range t.parts {
			mw += math.Exp(p.lw)
		}
		lw := math.Log(mw / float64(len(t.parts)))
		for range k {
			i := t.rng.IntN(len(t.parts))
			cx, cy := f.X+t.rng.NormFloat64()*math.Max(f.Sigma, 0.5), f.Y+t.rng.NormFloat64()*math.Max(f.Sigma, 0.5)
			if g.In(cx, cy) {
				t.parts[i] = particle{x: cx, y: cy, lw: lw}
			}
		}
	}
	best := t.weigh(obs)
	if len(obs) >= 3 && best-robustCost(obs, f.X, f.Y) > LostCost {
		t.outliers++
		if t.outliers >= ResetOutliers {
			t.seedAt(g, 0, f.X, f.Y, f.Sigma)
			t.outliers, t.fused = 0, 0
		} else {
			t.seedAt(g, len(t.parts)-int(LostShare*float64(Particles)), f.X, f.Y, f.Sigma)
		}
		for i := range t.parts {
			t.parts[i].lw = 0
		}
		t.weigh(obs)
	} else {
		t.outliers = 0
	}
	t.At, t.Building = at, f.Building
	t.fused++
	return t.cloud(w, h)
}

// weigh multiplies the particles' weights by the scan's likelihood, normalises them (log weights, the largest
// 0) and resamples when the effective size is below half; it returns the best particle's cost.
func (t *Track) weigh(obs []observation) float64 {
	best := math.Inf(1)
	top := math.Inf(-1)
	for i := range t.parts {
		p := &t.parts[i]
		c := robustCost(obs, p.x, p.y)
		best = math.Min(best, c)
		p.lw -= c / 2
		top = math.Max(top, p.lw)
	}
	sum, sum2 := 0.0, 0.0
	for i := range t.parts {
		t.parts[i].lw -= top
		w := math.Exp(t.parts[i].lw)
		sum += w
		sum2 += w * w
	}
	if sum*sum < sum2*float64(len(t.parts))/2 { // effective size sum²/sum2 below half
		t.resample(sum)
	}
	return best
}

// resample is systematic resampling; the new particles weigh the same.
func (t *Track) resample(sum float64) {
	n := len(t.parts)
	out := make([]particle, n)
	step := sum / float64(n)
	u := t.rng.Float64() * step
	acc, j := math.Exp(t.parts[0].lw), 0
	for i := range n {
		for acc < u && j < n-1 {
			j++
			acc += math.Exp(t.parts[j].lw)
		}
		out[i] = t.parts[j]
		out[i].lw = 0
		u += step
	}
	t.parts = out
}

// cloud is the weighted mean and radial spread of the particles.
func (t *Track) cloud(w, h float64) Smoothed {
	var sw, mx, my float64
	for _, p := range t.parts {
		v := math.Exp(p.lw)
		sw += v
		mx += v * p.x
		my += v * p.y
	}
	mx, my = mx/sw, my/sw
	var vr float64
	for _, p := range t.parts {
		vr += math.Exp(p.lw) * ((p.x-mx)*(p.x-mx) + (p.y-my)*(p.y-my))
	}
	acc := math.Sqrt(vr / sw)
	t.x[0], t.x[1] = mx, my
	if w > 0 && h > 0 {
		mx, my = math.Min(math.Max(mx, 0), w), math.Min(math.Max(my, 0), h)
	}
	return Smoothed{Floor: t.Floor, Building: t.Building, X: mx, Y: my, Accuracy: acc,
		Uncertain: t.fused < SettleScans || acc > MaxAccuracy}
}
