package db

// First is a lookup by id read through a domain's list query (the same joins and columns as its list): the row,
// or ErrNotFound when the query read none. `list, _, err := s.plans(ctx, db.ListQuery{Where: …Eq("id", id)})`
// then `return db.First(list, err)`.
func First[T any](list []T, err error) (T, error) {
	var zero T
	if err != nil {
		return zero, err
	}
	if len(list) == 0 {
		return zero, ErrNotFound
	}
	return list[0], nil
}
