// Package defaults fills the unset fields of a service's options: `defaults.Positive(&o.RingTimeout,
// 30*time.Second)` instead of an if per field, so a withDefaults reads as the table of defaults it is. (An empty
// string or nil default is the standard library's cmp.Or.)
package defaults

import "cmp"

// Positive sets *v to def unless *v is above zero: a zero or negative duration, count or size is unset.
func Positive[T cmp.Ordered](v *T, def T) {
	var zero T
	if *v <= zero {
		*v = def
	}
}
