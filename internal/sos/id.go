package sos

import (
	"strconv"
	"strings"

	"tenfour/internal/platform/httpx"
)

// AlarmID is kept out of model.go, the file web/src/shared/wire/sos.ts is generated from: it travels as a
// string, which tygo cannot tell from its Go type, so tygo.yaml declares it in the generated file's front matter.

// AlarmID is an alarm's id; it travels as a string in JSON.
type AlarmID int64

func (id AlarmID) String() string { return strconv.FormatInt(int64(id), 10) }

// MarshalJSON writes the id as a string, like every id of the API.
func (id AlarmID) MarshalJSON() ([]byte, error) { return []byte(`"` + id.String() + `"`), nil }

// UnmarshalJSON accepts a string or a number.
func (id *AlarmID) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return httpx.BadParam("id", "not an alarm id")
	}
	*id = AlarmID(n)
	return nil
}
