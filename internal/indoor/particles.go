package indoor

import (
	"math"
	"math/rand/v2"
)

// The particle filter of a floor with walkable areas (docs/adr/0023 "Walkable areas"): the terminal's track is a
// cloud of Particles hypotheses (position and velocity) that move as a walker does — a velocity that wanders
// and is forgotten over ParticleTau — and never through a wall: a move whose segment leaves the walkable areas
// is drawn again (up to four times), and a particle that cannot move stays. Each scan weighs every particle by
// the likelihood of the scan's readings at its place (the same log-distance model and weights as the fit, each
// reading's squared standardised residual capped at ParticleCapZ², so a multipath reading costs at most that
// much), and the cloud is resampled when its effective size falls below half. A track (re)starts as a cloud
// spread SeedSigma around the scan's own fit: a single fit's tail reaches 5–7 m (the first scans upstairs), and a
// wide cloud lets the walls and the next scans decide. When the best particle explains a scan much worse than
// the scan's own fit does (by more than LostCost), the cloud has lost the walker: a fifth of it is
// drawn afresh around the fit, and after ResetOutliers such scans in a row the whole cloud is.
//
// The position is a fixed-lag smoother's: the weighted mean of where the particles' ancestors were FixedLag
// scans ago — the position of that scan's time, which has seen FixedLag more scans (a walker's turn into a room
// is plain two scans later, and a filter without them lags or overshoots it) — and its accuracy the radial
// spread of those ancestors. The published position carries that time.
const (
	Particles     = 128
	ParticleTau   = 2.0  // s, velocity memory
	ParticleSpeed = 0.9  // m/s, the stationary spread of a velocity component
	ParticleJit   = 0.15 // m per √s, position noise besides the velocity
	ParticleCapZ  = 2.5
	LostCost      = 12.0
	SeedSigma     = 3.0 // m
	FixedLag      = 2   // scans
	FreeScans     = 5   // scans a fresh track may cross walls
	lostCount     = Particles / 5
)

// maxLag bounds FixedLag.
const maxLag = 4

type particle struct {
	x, y, vx, vy, lw float64
	hx, hy           [maxLag]float64 // where this particle's ancestors were 1, 2, … scans ago
}

// robustCost is Σ min(wᵢ rᵢ², ParticleCapZ²) at (x, y).
func robustCost(obs []observation, x, y float64) float64 {
	return logCost(obs, x, y, ParticleCapZ*ParticleCapZ)
}

// seedAt draws particles [from:] around (x, y) with spread sigma, in the walkable area.
func (t *Track) seedAt(g *walkable, from int, x, y, sigma float64) {
	sigma = math.Max(sigma, SeedSigma)
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
		for k := range maxLag {
			p.hx[k], p.hy[k] = p.x, p.y
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
		t.times = [maxLag + 1]int64{}
		t.times[0] = at
		t.weigh(obs)
		return t.cloud(w, h)
	}
	a := math.Exp(-dt / ParticleTau)
	sv := ParticleSpeed * math.Sqrt(1-a*a)
	sj := ParticleJit * math.Sqrt(dt)
	// A track that has not settled yet started from a single fit, which may be in the wrong room: its particles
	// may cross walls (only their new place must be walkable) for its first FreeScans scans.
	free := t.fused < FreeScans
	for i := range t.parts {
		p := &t.parts[i]
		copy(p.hx[1:], p.hx[:maxLag-1])
		copy(p.hy[1:], p.hy[:maxLag-1])
		p.hx[0], p.hy[0] = p.x, p.y
		moved := false
		for range 4 {
			vx, vy := a*p.vx+sv*t.rng.NormFloat64(), a*p.vy+sv*t.rng.NormFloat64()
			nx, ny := p.x+vx*dt+sj*t.rng.NormFloat64(), p.y+vy*dt+sj*t.rng.NormFloat64()
			if (free && g.In(nx, ny)) || g.Clear(p.x, p.y, nx, ny) {
				p.x, p.y, p.vx, p.vy, moved = nx, ny, vx, vy, true
				break
			}
		}
		if !moved {
			p.vx, p.vy = 0, 0
		}
	}
	best := t.weigh(obs)
	if len(obs) >= 3 && best-robustCost(obs, f.X, f.Y) > LostCost {
		t.outliers++
		if t.outliers >= ResetOutliers {
			t.seedAt(g, 0, f.X, f.Y, f.Sigma)
			t.outliers, t.fused = 0, 0
		} else {
			t.seedAt(g, len(t.parts)-lostCount, f.X, f.Y, f.Sigma)
		}
		for i := range t.parts {
			t.parts[i].lw = 0
		}
		t.weigh(obs)
	} else {
		t.outliers = 0
	}
	t.At, t.Building = at, f.Building
	copy(t.times[1:], t.times[:maxLag])
	t.times[0] = at
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
	if len(t.spare) != n {
		t.spare = make([]particle, n)
	}
	out := t.spare
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
	t.parts, t.spare = out, t.parts
}

// cloud is the weighted mean and radial spread of the particles — where they are, or, with FixedLag L, where
// their ancestors were L scans ago (a fixed-lag smoother: that position, of that scan's time, has seen L more
// scans; until the track has L scans it is the current one).
func (t *Track) cloud(w, h float64) Smoothed {
	lag := min(FixedLag, t.fused, maxLag)
	at := func(p *particle) (float64, float64) {
		if lag == 0 {
			return p.x, p.y
		}
		return p.hx[lag-1], p.hy[lag-1]
	}
	var sw, mx, my float64
	var wts [Particles]float64
	for i := range t.parts {
		v := math.Exp(t.parts[i].lw)
		wts[i] = v
		x, y := at(&t.parts[i])
		sw += v
		mx += v * x
		my += v * y
	}
	mx, my = mx/sw, my/sw
	var vr float64
	for i := range t.parts {
		x, y := at(&t.parts[i])
		vr += wts[i] * ((x-mx)*(x-mx) + (y-my)*(y-my))
	}
	acc := math.Sqrt(vr / sw)
	t.x[0], t.x[1] = mx, my
	if w > 0 && h > 0 {
		mx, my = math.Min(math.Max(mx, 0), w), math.Min(math.Max(my, 0), h)
	}
	return Smoothed{Floor: t.Floor, Building: t.Building, X: mx, Y: my, Accuracy: acc, At: t.times[lag],
		Uncertain: t.fused < SettleScans || acc > MaxAccuracy}
}

// fastLn is ln x for a positive normal x from its exponent and a table of log₂ over the top lnBits of its
// mantissa: within 2·10⁻⁴ of math.Log, a thousandth of the likelihood's σ in the log-distance domain, at a
// fraction of its cost (the logarithm is most of a particle filter's CPU).
func fastLn(x float64) float64 {
	b := math.Float64bits(x)
	e := int((b>>52)&0x7ff) - 1023
	return (float64(e) + lnTable[(b&(1<<52-1))>>(52-lnBits)]) * math.Ln2
}

const lnBits = 12

var lnTable = func() (t [1 << lnBits]float64) {
	for i := range t {
		t[i] = math.Log2(1 + (float64(i)+0.5)/(1<<lnBits))
	}
	return t
}()
