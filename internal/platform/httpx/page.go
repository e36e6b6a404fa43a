package httpx

// Page is the one list answer, {total, list}: total is the number of rows the query matches, list the page
// asked for (every /ds, /patrolService and /broadcast list spells it so). A list with more to say embeds it:
// `struct{ httpx.Page[Floor]; Truncated bool `json:"truncated,omitempty"` }` answers
// {total, list, truncated}.
type Page[T any] struct {
	Total int `json:"total"`
	List  []T `json:"list"`
}

// PageOf is a page of list out of total rows; a nil list is answered as [] (never null).
func PageOf[T any](list []T, total int) Page[T] {
	if list == nil {
		list = []T{}
	}
	return Page[T]{Total: total, List: list}
}

// All is a whole list as a page: total is its length.
func All[T any](list []T) Page[T] { return PageOf(list, len(list)) }
