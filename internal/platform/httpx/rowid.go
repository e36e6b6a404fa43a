package httpx

import (
	"strconv"
	"strings"
)

// RowID reads a required row id parameter (a positive integer: an area, a job, a plan) as the domain's id
// type: `id, err := httpx.RowID[AreaID]("areaId", req.AreaID)`. Blank is "name: required", anything else
// that is not a positive integer "name: not an id" (both "400").
func RowID[T ~int64](name, v string) (T, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, BadParam(name, "required")
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return 0, BadParam(name, "not an id")
	}
	return T(n), nil
}

// OptRowID is RowID for an optional parameter: blank is 0 (no filter, or a new row).
func OptRowID[T ~int64](name, v string) (T, error) {
	if strings.TrimSpace(v) == "" {
		return 0, nil
	}
	return RowID[T](name, v)
}

// PresentRowID reads an optional id whose absence means something else than a blank: nil when the parameter is
// absent (a PATCH that leaves it alone), 0 when it is blank or "0" (no parent: the root; no group: every one),
// else RowID. The parameter is a *string so that absent and blank differ.
func PresentRowID[T ~int64](name string, v *string) (*T, error) {
	if v == nil {
		return nil, nil
	}
	s := strings.TrimSpace(*v)
	if s == "0" {
		s = ""
	}
	id, err := OptRowID[T](name, s)
	return &id, err
}

// RowIDsOf is RowIDs as the domain's id type.
func RowIDsOf[T ~int64](name string, ids []string, maxLen int, required bool) ([]T, error) {
	l, err := RowIDs(name, ids, maxLen, required)
	if err != nil {
		return nil, err
	}
	out := make([]T, len(l))
	for i, v := range l {
		out[i] = T(v)
	}
	return out, nil
}
