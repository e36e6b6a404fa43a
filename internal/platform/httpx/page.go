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

// ListOf is a store's (rows, total, err) as a list handler's answer: `return httpx.ListOf(s.store.List(ctx, c, q))`.
func ListOf[T any](list []T, total int, err error) (Page[T], error) {
	if err != nil {
		return Page[T]{}, err
	}
	return PageOf(list, total), nil
}

// PageReq is a list request's pageNo and pageSize (/ds, /patrolService), embedded in its Bind request struct so
// that each list names and reads them the same way.
type PageReq struct {
	PageNo   string `json:"pageNo"`
	PageSize string `json:"pageSize"`
}

// Paging reads the two as Paging does: an offset and a limit, 1000 rows by default and at most.
func (r PageReq) Paging() (offset, limit int, err error) { return Paging(r.PageNo, r.PageSize) }

// PagingFrom reads the two with the list's own page size: defSize rows when pageSize is blank, at most maxSize.
func (r PageReq) PagingFrom(defSize, maxSize int) (offset, limit int, err error) {
	return PagingFrom(r.PageNo, r.PageSize, defSize, maxSize)
}
