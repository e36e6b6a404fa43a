package realtime

import (
	"encoding/json"
	"regexp"

	"tenfour/internal/platform/httpx"
)

// typeRe is the `domain.verb` rule for request and event types.
var typeRe = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9]*(\.[a-zA-Z][a-zA-Z0-9]*)*$`)

// MaxType is the longest type a frame may carry.
const MaxType = 64

// DecodeFrame parses and validates one client frame: a JSON object with a well-formed type of at most 64
// characters, a non-negative id, and data that, when present and not null, is a JSON object (absent or null
// data becomes {}). A reply to a server→client request (`re` set) is only checked to be a JSON object.
// On error the returned frame carries nothing but the request's id when it could be read, so the error
// reply can still be matched to its request.
func DecodeFrame(msg []byte) (Frame, error) {
	if len(msg) > MaxMessage {
		return Frame{}, httpx.ErrBodyTooBig
	}
	var f Frame
	if err := json.Unmarshal(msg, &f); err != nil || isZeroObject(msg) {
		return Frame{ID: salvageID(msg)}, httpx.BadParam("frame", "not a JSON object")
	}
	if f.Re != 0 {
		return f, nil
	}
	id := max(f.ID, 0)
	if len(f.Type) == 0 || len(f.Type) > MaxType || !typeRe.MatchString(f.Type) {
		return Frame{ID: id}, httpx.BadParam("type", "malformed")
	}
	if f.ID < 0 {
		return Frame{}, httpx.BadParam("id", "negative")
	}
	if string(f.Data) == "null" {
		f.Data = nil
	}
	if len(f.Data) > 0 && f.Data[0] != '{' {
		return Frame{ID: id}, httpx.BadParam("data", "must be an object")
	}
	if len(f.Data) == 0 {
		f.Data = json.RawMessage("{}")
	}
	return f, nil
}

// isZeroObject tells a JSON null (which Unmarshal accepts into a struct) from an object.
func isZeroObject(msg []byte) bool {
	for _, b := range msg {
		switch b {
		case ' ', '\t', '\r', '\n':
			continue
		case '{':
			return false
		default:
			return true
		}
	}
	return true
}

// salvageID reads a positive numeric id out of a frame whose other fields are malformed.
func salvageID(msg []byte) int64 {
	var probe struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(msg, &probe) != nil {
		return 0
	}
	var id int64
	if json.Unmarshal(probe.ID, &id) != nil || id < 0 {
		return 0
	}
	return id
}
