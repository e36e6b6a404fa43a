package testkit

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

// Counter reads a counter (summed over its labels) from the process's default Prometheus registry, where the
// servers a test starts register their metrics; 0 if it was never registered.
func Counter(t testing.TB, name string) float64 {
	t.Helper()
	families, err := prometheus.DefaultGatherer.Gather()
	if err != nil {
		t.Fatal(err)
	}
	total := 0.0
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.GetMetric() {
			total += m.GetCounter().GetValue()
		}
	}
	return total
}
