package bench

import (
	"math/rand/v2"
	"testing"
	"time"
)

func TestHistAgreesWithPctToTheMillisecond(t *testing.T) {
	var h Hist
	if h.Pct(.99) != 0 || h.Count() != 0 {
		t.Fatal("an empty Hist is not empty")
	}
	r := rand.New(rand.NewPCG(1, 2))
	var ds []time.Duration
	for range 50_000 {
		d := time.Duration(r.ExpFloat64() * float64(80*time.Millisecond))
		if r.IntN(1000) == 0 {
			d = 12*time.Second + time.Duration(r.IntN(5000))*time.Millisecond // past the last bucket
		}
		ds = append(ds, d)
		h.Add(d)
	}
	h.Add(-time.Second) // counted as 0
	ds = append(ds, 0)
	for _, p := range []float64{.5, .9, .99, .999, 1} {
		want, got := Pct(ds, p), h.Pct(p)
		if got < want || got-want > time.Millisecond {
			t.Errorf("p%v: Hist %v, Pct %v", p*100, got, want)
		}
	}
	if h.Count() != len(ds) {
		t.Fatalf("count %d, want %d", h.Count(), len(ds))
	}
}
