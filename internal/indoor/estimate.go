package indoor

import (
	"math"
	"math/rand/v2"
	"sort"

	"tenfour/internal/indoor/radio"
)

// The estimator (docs/adr/0023): a report's readings → the storey (the floor whose strongest beacons are
// strongest) → distances by the log-distance path loss model → a weighted least-squares fit of the position
// in the log-distance domain (the maximum-likelihood position under log-normal shadowing; Gauss–Newton from the best
// point of a coarse grid) with beacons dropped by a deletion test → while a track runs, the scan's explanation
// (all readings, or all but one) that best agrees with the track's prediction → a Kalman filter per terminal
// (constant velocity that decays over a few seconds) that smooths the fits, inflates the noise of an implausible
// jump, and restarts on a storey change or after a silence → uncertain until the track has settled.
//
// Everything here is in metres on the floor (x right, y down from the plan's top-left); the service converts
// plan pixels with the floor's scale.

// Estimator tuning (ADR 0023).
const (
	// SigmaRSSI is the noise of a reported RSSI the weights assume (dB).
	SigmaRSSI = 3.0
	// MaxAnchors is how many of a floor's strongest readings a fit uses.
	MaxAnchors = 16
	// MinRSSI is the weakest reading the estimator uses (dBm); weaker ones are too far to range.
	MinRSSI = -98
	// OutlierZ: a beacon is dropped when leaving it out lowers the fit's cost (Σ of squared standardised
	// residuals) by more than OutlierZ², as a reading OutlierZ σ off would.
	OutlierZ = 2.5
	// FloorHysteresis keeps a terminal on its floor unless another floor is this much stronger (dB).
	FloorHysteresis = 3.0
	// AccelNoise is the Kalman filter's process noise: the spectral density of a walker's acceleration (m²/s³).
	AccelNoise = 0.3
	// VelocityTau is how long the track remembers a walker's velocity (s): it decays as e^(−t/τ).
	VelocityTau = 4.0
	// GateChi2 is the squared Mahalanobis distance (2 degrees of freedom, 99.9 %) above which a fit counts as an
	// outlier: its noise is inflated so it pulls the track only a little.
	GateChi2 = 13.8
	// ResetAfter is a silence after which a track starts afresh (ms); so does a run of ResetOutliers outliers.
	ResetAfter    = 30_000
	ResetOutliers = 3
	// PromiseMetres is what a settled position promises: within 3 m of the terminal (issue 19, ADR 0023). A
	// position is settled when its track has fused SettleScans scans since it (re)started and its stated accuracy
	// (radial σ) is at most MaxAccuracy; otherwise it is published marked uncertain.
	PromiseMetres = 3.0
	SettleScans   = 3
	MaxAccuracy   = PromiseMetres / 2
)

// Anchor is a known beacon as the estimator sees it.
type Anchor struct {
	Beacon   BeaconID
	Floor    FloorID
	Building BuildingID
	X, Y     float64 // metres
	RSSI1m   float64
	Decay    float64
}

// Heard is a reading matched to its anchor (several readings of one beacon in a report are averaged first).
type Heard struct {
	Anchor
	RSSI float64
}

// Fit is one report's position before smoothing.
type Fit struct {
	Floor    FloorID
	Building BuildingID
	X, Y     float64
	Sigma    float64 // metres, per axis
	Used     int
}

// PickFloor chooses the floor of a report: each floor is scored by the mean of its three strongest readings
// (missing ones counted at MinRSSI); the current floor stays unless another beats it by FloorHysteresis.
func PickFloor(heard []Heard, current FloorID) FloorID {
	by := map[FloorID][]float64{}
	for _, h := range heard {
		by[h.Floor] = append(by[h.Floor], h.RSSI)
	}
	score := func(v []float64) float64 {
		sort.Sort(sort.Reverse(sort.Float64Slice(v)))
		s := 0.0
		for i := range 3 {
			if i < len(v) {
				s += v[i]
			} else {
				s += MinRSSI
			}
		}
		return s / 3
	}
	best, bestScore := FloorID(0), math.Inf(-1)
	floors := make([]FloorID, 0, len(by))
	for f := range by {
		floors = append(floors, f)
	}
	sort.Slice(floors, func(i, j int) bool { return floors[i] < floors[j] })
	scores := map[FloorID]float64{}
	for _, f := range floors {
		scores[f] = score(by[f])
		if scores[f] > bestScore {
			best, bestScore = f, scores[f]
		}
	}
	if cur, ok := scores[current]; ok && current != best && cur >= bestScore-FloorHysteresis {
		return current
	}
	return best
}

type observation struct {
	x, y  float64
	d, ld float64 // the distance by the path loss model, and its natural log
	w     float64 // 1/σ² of ld: the log-normal shadowing of the RSSI, σ = ln10/(10 n) · SigmaRSSI
}

// observe turns a floor's readings into observations: the MaxAnchors strongest at or above MinRSSI.
func observe(heard []Heard) []observation { return observeN(heard, MaxAnchors) }

// observeN is observe with at most limit readings.
func observeN(heard []Heard, limit int) []observation {
	var use []Heard
	for _, r := range heard {
		if r.RSSI >= MinRSSI {
			use = append(use, r)
		}
	}
	sort.SliceStable(use, func(i, j int) bool { return use[i].RSSI > use[j].RSSI })
	if len(use) > limit {
		use = use[:limit]
	}
	obs := make([]observation, len(use))
	for i, r := range use {
		d := math.Min(math.Max(radio.Distance(r.RSSI1m, r.Decay, r.RSSI), 0.3), 60)
		s := math.Ln10 / (10 * r.Decay) * SigmaRSSI
		obs[i] = observation{x: r.X, y: r.Y, d: d, ld: math.Log(d), w: 1 / (s * s)}
	}
	return obs
}

// Solve fits a position to the readings of one floor (already filtered to that floor). ok is false without a
// usable reading. bounds (w, h in metres; zero: none) clamp the result to the plan.
func Solve(heard []Heard, w, h float64) (Fit, bool) {
	if len(heard) == 0 {
		return Fit{}, false
	}
	return solveObs(observe(heard), heard[0].Floor, heard[0].Building, w, h, true)
}

// solveObs is Solve on a floor's observations; drop runs the deletion test (the particle filter, whose
// likelihood caps each reading, needs the fit only to start a cloud and to tell a lost one, and skips it).
func solveObs(obs []observation, floor FloorID, building BuildingID, w, h float64, drop bool) (Fit, bool) {
	if len(obs) == 0 {
		return Fit{}, false
	}
	fit := Fit{Floor: floor, Building: building}
	x, y, cost, sigma := solve(obs, w, h, 12)
	// Outliers: while five or more beacons remain, the beacon whose leaving out lowers the cost most is dropped
	// if it lowers it by more than OutlierZ² — a deletion test. (A multipath reading spreads its error over the
	// whole fit, so no single residual need stand out, and the worst residual may name an innocent beacon.)
	// No deletion can lower the cost by more than the cost itself: a fit whose cost is below OutlierZ² is done.
	// Each refit descends from the current fit (leaving one reading out moves the minimum a little; a second basin
	// is Refine's business, with the track's prediction).
	for drop && len(obs) >= 5 && cost > OutlierZ*OutlierZ {
		best, bestCost := -1, cost-OutlierZ*OutlierZ
		var bx, by, bs float64
		rest := make([]observation, 0, len(obs)-1)
		for i := range obs {
			rest = append(append(rest[:0], obs[:i]...), obs[i+1:]...)
			if lx, ly, lc, ls := descend(rest, x, y); lc < bestCost {
				best, bestCost, bx, by, bs = i, lc, lx, ly, ls
			}
		}
		if best < 0 {
			break
		}
		obs = append(obs[:best:best], obs[best+1:]...)
		x, y, cost, sigma = bx, by, bestCost, bs
	}
	if w > 0 && h > 0 {
		x, y = math.Min(math.Max(x, 0), w), math.Min(math.Max(y, 0), h)
	}
	fit.X, fit.Y, fit.Sigma, fit.Used = x, y, sigma, len(obs)
	return fit, true
}

// solve is the weighted least-squares fit in the log-distance domain — the maximum-likelihood position under
// log-normal shadowing: minimise Σ wᵢ (ln‖p − bᵢ‖ − ln dᵢ)² by Gauss–Newton with a Levenberg–Marquardt damping.
// The cost has local minima (near a beacon that reads too strong), so the start is the best point of a grid of
// cells × cells/2 over the plan (w × h metres; without bounds, the beacons' box and 5 m around it), or the centroid
// weighted by 1/d² if that is better. With one or two beacons it returns that centroid. sigma is the per-axis
// standard deviation of the result (metres).
func solve(obs []observation, w, h float64, cells int) (x, y, cost, sigma float64) {
	var sw float64
	for _, o := range obs {
		c := 1 / (o.d * o.d)
		x += c * o.x
		y += c * o.y
		sw += c
	}
	x, y = x/sw, y/sw
	if len(obs) < 3 {
		far := 0.0
		for _, o := range obs {
			far = math.Max(far, o.d)
		}
		return x, y, 0, math.Max(far, 1)
	}
	costAt := func(x, y float64) float64 { return gridCost(obs, x, y) }
	x0, y0, x1, y1 := 0.0, 0.0, w, h
	if w <= 0 || h <= 0 {
		x0, y0, x1, y1 = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		for _, o := range obs {
			x0, y0, x1, y1 = math.Min(x0, o.x-5), math.Min(y0, o.y-5), math.Max(x1, o.x+5), math.Max(y1, o.y+5)
		}
	}
	c := costAt(x, y)
	step := math.Max(x1-x0, y1-y0) / float64(cells)
	for gx := x0 + step/2; gx < x1; gx += step {
		for gy := y0 + step/2; gy < y1; gy += step {
			if gc := costAt(gx, gy); gc < c {
				x, y, c = gx, gy, gc
			}
		}
	}
	x, y, c, sigma = descend(obs, x, y)
	return x, y, c, sigma
}

// gridCost is the weighted least-squares cost Σ wᵢ (ln‖p − bᵢ‖ − ln dᵢ)² with fastLn: the grid only picks where
// the descent starts.
func gridCost(obs []observation, x, y float64) float64 { return logCost(obs, x, y, math.Inf(1)) }

// logCost is Σ min(wᵢ (ln‖p − bᵢ‖ − ln dᵢ)², capped) at p = (x, y), with fastLn (a distance under 10 cm counts as
// 10 cm): gridCost uncapped, robustCost with each beacon's share capped.
func logCost(obs []observation, x, y, capped float64) float64 {
	s := 0.0
	for _, o := range obs {
		dx, dy := x-o.x, y-o.y
		d2 := dx*dx + dy*dy
		if d2 < 0.01 {
			d2 = 0.01
		}
		r := 0.5*fastLn(d2) - o.ld
		s += min(o.w*r*r, capped)
	}
	return s
}

// descend is the Levenberg–Marquardt descent of fitCost from (x, y) to its local minimum; sigma as solve's.
func descend(obs []observation, x, y float64) (float64, float64, float64, float64) {
	// The residuals at the current point are kept from its cost for the next gradient (the logarithms are most
	// of an estimate's CPU).
	var bufs [2][MaxAnchors]float64
	cur, next := bufs[0][:0], bufs[1][:0]
	if len(obs) > MaxAnchors {
		cur, next = make([]float64, 0, len(obs)), make([]float64, 0, len(obs))
	}
	costAt := func(x, y float64, r []float64) ([]float64, float64) {
		r = r[:0]
		s := 0.0
		for _, o := range obs {
			dx, dy := x-o.x, y-o.y
			v := 0.5*math.Log(math.Max(dx*dx+dy*dy, 0.01)) - o.ld
			r = append(r, v)
			s += o.w * v * v
		}
		return r, s
	}
	cur, c := costAt(x, y, cur)
	lambda := 1e-3
	var a11, a12, a22 float64
	for range 50 {
		var g1, g2 float64
		a11, a12, a22 = 0, 0, 0
		for i, o := range obs {
			dx, dy := x-o.x, y-o.y
			rr2 := math.Max(dx*dx+dy*dy, 0.01)
			jx, jy := dx/rr2, dy/rr2 // ∂ ln ρ / ∂x, ∂y
			r := cur[i]
			a11 += o.w * jx * jx
			a12 += o.w * jx * jy
			a22 += o.w * jy * jy
			g1 += o.w * jx * r
			g2 += o.w * jy * r
		}
		improved := false
		for range 10 {
			b11, b22 := a11*(1+lambda)+1e-9, a22*(1+lambda)+1e-9
			det := b11*b22 - a12*a12
			if det <= 0 {
				lambda *= 10
				continue
			}
			sx := -(b22*g1 - a12*g2) / det
			sy := -(b11*g2 - a12*g1) / det
			var nc float64
			if next, nc = costAt(x+sx, y+sy, next); nc < c {
				x, y, c = x+sx, y+sy, nc
				cur, next = next, cur
				lambda = math.Max(lambda/10, 1e-7)
				improved = true
				if math.Hypot(sx, sy) < 1e-2 {
					return x, y, c, covSigma(a11, a12, a22, c, len(obs))
				}
				break
			}
			lambda *= 10
		}
		if !improved {
			break
		}
	}
	return x, y, c, covSigma(a11, a12, a22, c, len(obs))
}

// covSigma is the per-axis σ of a fit: (JᵀWJ)⁻¹ scaled by the reduced χ² when the residuals are larger than
// the weights assumed.
func covSigma(a11, a12, a22, cost float64, n int) float64 {
	det := a11*a22 - a12*a12
	if det <= 1e-12 {
		return 10
	}
	tr := (a11 + a22) / det // trace of the inverse
	chi := 1.0
	if n > 2 {
		chi = math.Max(1, cost/float64(n-2))
	}
	return math.Sqrt(tr * chi / 2)
}

// Track is one terminal's Kalman filter (constant velocity) over its fits.
type Track struct {
	Floor    FloorID
	Building BuildingID
	At       int64         // ms of the last update
	x        [4]float64    // x, y, vx, vy
	p        [4][4]float64 // covariance
	outliers int
	fused    int // scans fused since the track (re)started
	started  bool
	// On a floor with walkable areas the track is a particle filter (particles.go) instead of the Kalman filter.
	parts []particle
	spare []particle // resampling's other buffer
	rng   *rand.Rand
	times [maxLag + 1]int64 // the times of the last scans, newest first
}

// Smoothed is a Track's state after an update.
type Smoothed struct {
	Floor    FloorID
	Building BuildingID
	X, Y     float64
	Accuracy float64 // metres, radial σ
	At       int64   // ms: the time the position is of (a fixed-lag smoother's is a few scans old); 0: the scan's
	// Uncertain: the track has not settled (fewer than SettleScans scans since it (re)started — the first
	// position on a floor, after a silence or a lost track, is a single unsmoothed fit) or its accuracy is worse
	// than PromiseMetres / 2. Only settled positions carry the 3 m promise.
	Uncertain bool
}

// Refine chooses a running track's fit of a scan taken at ms among the scan's explanations, using what the
// track predicts: one scan alone is often ambiguous — a reading thrown off by multipath can make a second,
// wrong place fit the rest as well as the right one (the deletion test in Solve then finds nothing to drop),
// and beacons in a row fit a point and its mirror image about the row. Each hypothesis — all readings, or all
// but one (a multipath outlier) while five or more remain — is fitted from the scan's own fit f and from the
// predicted position, and scores its cost + OutlierZ² per reading dropped (the deletion test's price) + the
// squared Mahalanobis distance of its fit from the prediction; the best one is the fit. A track that is not
// running (none yet, another floor, after a silence) keeps f.
func (t *Track) Refine(f Fit, obs []observation, at int64) Fit {
	dt := float64(at-t.At) / 1000
	if !t.started || f.Floor != t.Floor || at-t.At > ResetAfter || dt < 0 || len(obs) < 3 || t.parts != nil {
		return f
	}
	pred := *t
	pred.predict(dt)
	px, py := pred.x[0], pred.x[1]
	p00, p01, p11 := pred.p[0][0], pred.p[0][1], pred.p[1][1]
	best, bestScore := f, math.Inf(1)
	try := func(use []observation, penalty float64, sx, sy float64) (float64, float64) {
		x, y, c, sigma := descend(use, sx, sy)
		r := sigma * sigma
		s00, s11 := p00+r, p11+r
		dx, dy := x-px, y-py
		d2 := (s11*dx*dx - 2*p01*dx*dy + s00*dy*dy) / (s00*s11 - p01*p01)
		if score := c + penalty + math.Min(d2, GateChi2); score < bestScore {
			best, bestScore = Fit{Floor: f.Floor, Building: f.Building, X: x, Y: y, Sigma: sigma, Used: len(use)}, score
		}
		return x, y
	}
	// The full hypothesis from both starts (one when they are in one basin), then — unless the best full one
	// scores below OutlierZ², which no hypothesis dropping a reading can beat — each drop-one hypothesis from the
	// minimum the full one found in that basin (leaving one reading out moves a minimum a little).
	var found [][2]float64
	for _, s := range [][2]float64{{f.X, f.Y}, {px, py}} {
		if len(found) > 0 && math.Hypot(s[0]-f.X, s[1]-f.Y) < 0.5 {
			break
		}
		x, y := try(obs, 0, s[0], s[1])
		if len(found) == 0 || math.Hypot(x-found[0][0], y-found[0][1]) > 0.1 {
			found = append(found, [2]float64{x, y})
		}
	}
	if len(obs) >= 5 && bestScore > OutlierZ*OutlierZ {
		rest := make([]observation, 0, len(obs)-1)
		for i := range obs {
			rest = append(append(rest[:0], obs[:i]...), obs[i+1:]...)
			for _, s := range found {
				try(rest, OutlierZ*OutlierZ, s[0], s[1])
			}
		}
	}
	return best
}

// Update feeds a fit taken at ms into the track and returns the smoothed position, clamped to w × h metres.
func (t *Track) Update(f Fit, at int64, w, h float64) Smoothed {
	dt := float64(at-t.At) / 1000
	if !t.started || f.Floor != t.Floor || at-t.At > ResetAfter || dt < 0 || t.parts != nil { // t.parts: a particle track ran here
		t.reset(f, at)
		return t.out(w, h)
	}
	t.predict(dt)
	r := f.Sigma * f.Sigma
	// innovation
	y0, y1 := f.X-t.x[0], f.Y-t.x[1]
	s00, s01, s11 := t.p[0][0]+r, t.p[0][1], t.p[1][1]+r
	det := s00*s11 - s01*s01
	d2 := (s11*y0*y0 - 2*s01*y0*y1 + s00*y1*y1) / det
	if d2 > GateChi2 {
		t.outliers++
		if t.outliers >= ResetOutliers {
			t.reset(f, at)
			return t.out(w, h)
		}
		r *= d2 / GateChi2
		s00, s11 = t.p[0][0]+r, t.p[1][1]+r
		det = s00*s11 - s01*s01
	} else {
		t.outliers = 0
	}
	// K = P Hᵀ S⁻¹ (H picks x, y)
	i00, i01, i11 := s11/det, -s01/det, s00/det
	var k [4][2]float64
	for i := range 4 {
		k[i][0] = t.p[i][0]*i00 + t.p[i][1]*i01
		k[i][1] = t.p[i][0]*i01 + t.p[i][1]*i11
	}
	for i := range 4 {
		t.x[i] += k[i][0]*y0 + k[i][1]*y1
	}
	var np [4][4]float64
	for i := range 4 {
		for j := range 4 {
			np[i][j] = t.p[i][j] - k[i][0]*t.p[0][j] - k[i][1]*t.p[1][j]
		}
	}
	t.p = np
	t.At = at
	t.Building = f.Building
	t.fused++
	return t.out(w, h)
}

func (t *Track) reset(f Fit, at int64) {
	t.parts = nil
	r := f.Sigma * f.Sigma
	t.x = [4]float64{f.X, f.Y, 0, 0}
	t.p = [4][4]float64{{r, 0, 0, 0}, {0, r, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}
	t.Floor, t.Building, t.At, t.outliers, t.fused, t.started = f.Floor, f.Building, at, 0, 0, true
}

func (t *Track) predict(dt float64) {
	// A walker's velocity is remembered for a few seconds only (it turns at corners and into doors): x' = x + b·v,
	// v' = a·v with a = e^(−dt/τ), b = τ(1 − a) — a constant-velocity model whose velocity decays, so a turn makes
	// the track round the corner instead of overshooting it.
	a := math.Exp(-dt / VelocityTau)
	b := VelocityTau * (1 - a)
	t.x[0] += b * t.x[2]
	t.x[1] += b * t.x[3]
	t.x[2] *= a
	t.x[3] *= a
	// P' = F P Fᵀ + Q, F = [[1,0,b,0],[0,1,0,b],[0,0,a,0],[0,0,0,a]].
	var fp [4][4]float64
	for j := range 4 {
		fp[0][j] = t.p[0][j] + b*t.p[2][j]
		fp[1][j] = t.p[1][j] + b*t.p[3][j]
		fp[2][j] = a * t.p[2][j]
		fp[3][j] = a * t.p[3][j]
	}
	var np [4][4]float64
	for i := range 4 {
		np[i][0] = fp[i][0] + b*fp[i][2]
		np[i][1] = fp[i][1] + b*fp[i][3]
		np[i][2] = a * fp[i][2]
		np[i][3] = a * fp[i][3]
	}
	q := AccelNoise
	q11, q12, q22 := q*dt*dt*dt/3, q*dt*dt/2, q*dt
	np[0][0] += q11
	np[1][1] += q11
	np[0][2] += q12
	np[2][0] += q12
	np[1][3] += q12
	np[3][1] += q12
	np[2][2] += q22
	np[3][3] += q22
	t.p = np
}

func (t *Track) out(w, h float64) Smoothed {
	x, y := t.x[0], t.x[1]
	if w > 0 && h > 0 {
		x, y = math.Min(math.Max(x, 0), w), math.Min(math.Max(y, 0), h)
	}
	acc := math.Sqrt(math.Max(t.p[0][0]+t.p[1][1], 0))
	return Smoothed{Floor: t.Floor, Building: t.Building, X: x, Y: y, Accuracy: acc,
		Uncertain: t.fused < SettleScans || acc > MaxAccuracy}
}
