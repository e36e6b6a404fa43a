package realtime

import (
	"encoding/json"
	"regexp"

	"tenfour/internal/platform/httpx"
)

var typeRe = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9]*(\.[a-zA-Z][a-zA-Z0-9]*)*$`)

// DecodeFrame parses and validates one client frame: a JSON object with a well-formed type of at most 64
// characters; data, when present, must be a JSON object.
func DecodeFrame(msg []byte) (Frame, error) {
	var f Frame
	if len(msg) > MaxMessage {
		return f, httpx.ErrBodyTooBig
	}
	if err := json.Unmarshal(msg, &f); err != nil {
		return Frame{}, httpx.BadParam("frame", "not a JSON object")
	}
	if f.Re != 0 {
		return f, nil
	}
	if len(f.Type) == 0 || len(f.Type) > 64 || !typeRe.MatchString(f.Type) {
		return Frame{}, httpx.BadParam("type", "malformed")
	}
	if f.ID < 0 {
		return Frame{}, httpx.BadParam("id", "negative")
	}
	if len(f.Data) > 0 && f.Data[0] != '{' {
		return Frame{}, httpx.BadParam("data", "must be an object")
	}
	if len(f.Data) == 0 {
		f.Data = json.RawMessage("{}")
	}
	return f, nil
}
