package testkit

import "maps"

// Variants is a request's parameters and the variants a scenario table sends: variant(extra) is a copy of base
// with extra's keys set, and a key whose value is nil removed (a missing parameter). variant(nil) is base.
func Variants(base map[string]any) func(extra map[string]any) map[string]any {
	return func(extra map[string]any) map[string]any {
		m := maps.Clone(base)
		for k, v := range extra {
			if v == nil {
				delete(m, k)
			} else {
				m[k] = v
			}
		}
		return m
	}
}
