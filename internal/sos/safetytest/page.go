package safetytest

import (
	"testing"

	"tenfour/internal/platform/httpx"
	"tenfour/internal/testkit"
)

// PageIDs decodes a list answer ({total, list}) and reads the ids of its rows, in order: what a list scenario
// compares with the rows it wants.
func PageIDs[T any, ID comparable](t testing.TB, r testkit.Reply, id func(T) ID) ([]T, []ID) {
	t.Helper()
	var page httpx.Page[T]
	r.Into(t, &page)
	ids := make([]ID, len(page.List))
	for i, row := range page.List {
		ids[i] = id(row)
	}
	return page.List, ids
}
