package main

import (
	"slices"
	"testing"

	"tenfour/internal/bench"
)

// make bench fails (exit status 1) on a row over its target or not measured, whatever else passed; a row of a
// step an -only run left out, or one this machine cannot measure (netem without sch_netem), does not fail it.
// Before issue 30 it exited 0 with the scale run's PTT row "not measured: session.login: code 101".
func TestFailingRows(t *testing.T) {
	rows := []bench.Row{
		{Name: "ok", Figure: "p95 3 ms", Status: bench.Pass},
		{Name: "info", Figure: "x", Status: bench.Info},
		{Name: "netem", Figure: "not available: the kernel has no sch_netem", Status: bench.NA},
		{Name: "ptt scale", Figure: "not measured: session.login: code 101: system busy", Status: bench.Failed},
		{Name: "cpu", Figure: "1.11 cores", Status: bench.Fail},
		{Name: "web", Figure: "not measured (step web not run)", Status: bench.Failed},
	}
	names := func(rs []bench.Row) []string {
		var out []string
		for _, r := range rs {
			out = append(out, r.Name)
		}
		return out
	}
	for _, c := range []struct {
		name string
		only map[string]bool
		want []string
	}{
		{"the whole run", nil, []string{"ptt scale", "cpu", "web"}},
		{"-only scale", map[string]bool{"scale": true}, []string{"ptt scale", "cpu"}},
		{"-only web", map[string]bool{"web": true}, []string{"ptt scale", "cpu", "web"}},
	} {
		if got := names(failing(rows, c.only)); !slices.Equal(got, c.want) {
			t.Errorf("%s: failing rows %q, want %q", c.name, got, c.want)
		}
	}
	if got := failing(rows[:3], nil); len(got) != 0 {
		t.Errorf("pass, info and not available fail the run: %v", got)
	}
}
