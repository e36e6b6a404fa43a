package httpx

import (
	"slices"

	"tenfour/internal/platform/flex"
)

// MsIDs is the terminals a request names under either spelling the API grew: msIds (a list) and msId (one id, a
// comma list or an array), both accepted wherever a request asks for terminals. Embed it in a Bind request so
// that every domain reads the pair the same way.
type MsIDs struct {
	Many flex.List `json:"msIds"`
	One  flex.List `json:"msId"`
}

// All is both spellings together, msIds first: the order in which an add makes its tickets or plans.
func (m MsIDs) All() []string { return append(slices.Clip(m.Many), m.One...) }

// Check is IDs over All: trimmed and checked, duplicates dropped, at most maxLen; an empty list is a 400 under
// name when required, else nil.
func (m MsIDs) Check(name string, maxLen int, required bool) ([]string, error) {
	return IDs(name, m.All(), maxLen, required)
}
