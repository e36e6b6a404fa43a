package testkit

import "strings"

// Has reports whether the frame's data contains every part: JSON fragments such as `"msId":"10000101"`, for a
// test that needs one field of an event and not its whole shape.
func Has(f Frame, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(string(f.Data), p) {
			return false
		}
	}
	return true
}

// Event matches a frame of type typ that Has every part (a Socket.Wait's or a wait loop's match).
func Event(typ string, parts ...string) func(Frame) bool {
	return func(f Frame) bool { return f.Type == typ && Has(f, parts...) }
}
