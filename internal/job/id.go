package job

import (
	"strconv"
	"strings"

	"tenfour/internal/platform/httpx"
)

// ID is kept out of model.go, the file web/src/shared/wire/job.ts is generated from: it travels as a string,
// which tygo cannot tell from its Go type, so tygo.yaml declares it in the generated file's front matter.

// ID is a job's id (jobId); it travels as a string in JSON.
type ID int64

func (id ID) String() string               { return strconv.FormatInt(int64(id), 10) }
func (id ID) MarshalJSON() ([]byte, error) { return []byte(`"` + id.String() + `"`), nil }

// UnmarshalJSON accepts a string or a number.
func (id *ID) UnmarshalJSON(b []byte) error {
	n, err := strconv.ParseInt(strings.Trim(string(b), `"`), 10, 64)
	if err != nil {
		return httpx.BadParam("jobId", "not an id")
	}
	*id = ID(n)
	return nil
}
