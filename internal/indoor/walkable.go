package indoor

import "math"

// walkable is a floor's walkable areas as the estimator reads them: the union of the areas' polygons (metres),
// rasterised at a cell of walkCell metres (coarser on a huge plan, so a floor costs at most maxWalkCells cells).
// Areas that touch or overlap are connected; a wall is a gap between areas. The particle filter moves a
// particle only along a segment whose every point (sampled at half a cell) is walkable.
type walkable struct {
	cell   float64
	nx, ny int
	bits   []uint64
}

const (
	walkCell     = 0.1
	maxWalkCells = 4 << 20
)

// newWalkable rasterises polygons (metres) over a floor of w × h metres; nil without a polygon.
func newWalkable(polys [][][2]float64, w, h float64) *walkable {
	if len(polys) == 0 || w <= 0 || h <= 0 {
		return nil
	}
	cell := walkCell
	for (w/cell)*(h/cell) > maxWalkCells {
		cell *= 1.5
	}
	g := &walkable{cell: cell, nx: int(math.Ceil(w / cell)), ny: int(math.Ceil(h / cell))}
	g.bits = make([]uint64, (g.nx*g.ny+63)/64)
	for _, poly := range polys {
		x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		for _, p := range poly {
			x0, y0, x1, y1 = math.Min(x0, p[0]), math.Min(y0, p[1]), math.Max(x1, p[0]), math.Max(y1, p[1])
		}
		i0, i1 := max(int(x0/cell), 0), min(int(x1/cell), g.nx-1)
		j0, j1 := max(int(y0/cell), 0), min(int(y1/cell), g.ny-1)
		for j := j0; j <= j1; j++ {
			for i := i0; i <= i1; i++ {
				if inPolygon(poly, (float64(i)+0.5)*cell, (float64(j)+0.5)*cell) {
					k := j*g.nx + i
					g.bits[k>>6] |= 1 << (k & 63)
				}
			}
		}
	}
	return g
}

// inPolygon is the even-odd rule.
func inPolygon(poly [][2]float64, x, y float64) bool {
	in := false
	for i, j := 0, len(poly)-1; i < len(poly); j, i = i, i+1 {
		a, b := poly[i], poly[j]
		if (a[1] > y) != (b[1] > y) && x < (b[0]-a[0])*(y-a[1])/(b[1]-a[1])+a[0] {
			in = !in
		}
	}
	return in
}

// In tells whether (x, y) metres is walkable.
func (g *walkable) In(x, y float64) bool {
	if x < 0 || y < 0 {
		return false
	}
	i, j := int(x/g.cell), int(y/g.cell)
	if i >= g.nx || j >= g.ny {
		return false
	}
	k := j*g.nx + i
	return g.bits[k>>6]&(1<<(k&63)) != 0
}

// Clear tells whether the segment from (x0, y0) to (x1, y1) stays in the walkable area (it passes no wall).
func (g *walkable) Clear(x0, y0, x1, y1 float64) bool {
	if !g.In(x1, y1) {
		return false
	}
	dx, dy := x1-x0, y1-y0
	n := int(math.Sqrt(dx*dx+dy*dy)/(g.cell/2)) + 1
	for k := 1; k < n; k++ {
		f := float64(k) / float64(n)
		if !g.In(x0+(x1-x0)*f, y0+(y1-y0)*f) {
			return false
		}
	}
	return true
}

// Nearest is the walkable cell centre nearest (x, y) within r metres (ok false: none).
func (g *walkable) Nearest(x, y, r float64) (float64, float64, bool) {
	if g.In(x, y) {
		return x, y, true
	}
	ci, cj := int(x/g.cell), int(y/g.cell)
	rc := int(r/g.cell) + 1
	best, bx, by := math.Inf(1), 0.0, 0.0
	for j := max(cj-rc, 0); j <= min(cj+rc, g.ny-1); j++ {
		for i := max(ci-rc, 0); i <= min(ci+rc, g.nx-1); i++ {
			k := j*g.nx + i
			if g.bits[k>>6]&(1<<(k&63)) == 0 {
				continue
			}
			px, py := (float64(i)+0.5)*g.cell, (float64(j)+0.5)*g.cell
			if d := (px-x)*(px-x) + (py-y)*(py-y); d < best {
				best, bx, by = d, px, py
			}
		}
	}
	return bx, by, !math.IsInf(best, 1) && best <= r*r
}
