// Package defaults fills the unset fields of a service's options: `defaults.Positive(&o.RingTimeout,
// 30*time.Second)` instead of an if per field, so a withDefaults reads as the table of defaults it is.
package defaults

import "cmp"

// Positive sets *v to def unless *v is above zero: a zero or negative duration, count or size is unset.
func Positive[T cmp.Ordered](v *T, def T) {
	var zero T
	if *v <= zero {
		*v = def
	}
}

// Empty sets *v to def when *v is the zero value (an empty name or path, a nil pointer).
func Empty[T comparable](v *T, def T) {
	var zero T
	if *v == zero {
		*v = def
	}
}
