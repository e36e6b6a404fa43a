package db

import "strings"

// Filter builds a WHERE clause and its arguments in one place: a domain names its columns and which filters
// apply; it never assembles `where += " AND …"` or escapes a LIKE pattern itself. Conditions are joined by
// AND in the order they are added. Column names come from the code, never from a client.
//
//	f := db.Scope("p.customer_id", c).
//		If(q.AreaID != 0, "p.area_id = ?", q.AreaID).
//		Contains(q.Name, "p.name")
type Filter struct {
	conds []string
	args  []any
}

// Scope starts a filter on a customer's rows: `col = customer`. Every customer-scoped list starts here.
func Scope(col string, customer int64) *Filter { return new(Filter).Eq(col, customer) }

// Where starts a filter with one condition (`?` arguments).
func Where(cond string, args ...any) *Filter { return new(Filter).And(cond, args...) }

// And adds a condition with `?` arguments.
func (f *Filter) And(cond string, args ...any) *Filter {
	f.conds = append(f.conds, cond)
	f.args = append(f.args, args...)
	return f
}

// If adds the condition only when ok: an optional filter of a list ("areaId given").
func (f *Filter) If(ok bool, cond string, args ...any) *Filter {
	if ok {
		f.And(cond, args...)
	}
	return f
}

// Eq adds `col = v`.
func (f *Filter) Eq(col string, v any) *Filter { return f.And(col+" = ?", v) }

// In adds `col IN (…)`. An empty list matches no row (SQL has no empty IN list); a list filter for which an
// empty list means "any" is OptIn.
func (f *Filter) In(col string, vals []any) *Filter {
	if len(vals) == 0 {
		return f.And("1 = 0")
	}
	return f.And(col+" IN ("+Placeholders(len(vals))+")", vals...)
}

// OptIn is a list's optional IN filter ("msIds", "state"): `col IN (…)`, or nothing for an empty list.
func (f *Filter) OptIn(col string, vals []any) *Filter {
	if len(vals) == 0 {
		return f
	}
	return f.In(col, vals)
}

// Args turns a typed list into In's arguments: `f.In("o.ms_id", db.Args(ids))`.
func Args[T any](vals []T) []any {
	out := make([]any, len(vals))
	for i, v := range vals {
		out[i] = v
	}
	return out
}

// Between adds the inclusive range `col >= from AND col <= to` (times in milliseconds, days as YYYY-MM-DD).
func (f *Filter) Between(col string, from, to any) *Filter {
	return f.And(col+" >= ? AND "+col+" <= ?", from, to)
}

// Contains adds a case-insensitive search for needle as a part of any of cols; a blank needle adds nothing.
// `%`, `_` and `\` in the needle match themselves, on SQLite and PostgreSQL alike (ESCAPE '\'): searching
// for "a_b" does not find "axb". Letters are lowered by the engine on both sides, so a search matches as the
// column's own LOWER does. This is the only LIKE the domains use.
func (f *Filter) Contains(needle string, cols ...string) *Filter {
	if needle == "" || len(cols) == 0 {
		return f
	}
	pat := "%" + EscapeLike(needle) + "%"
	or := make([]string, len(cols))
	args := make([]any, len(cols))
	for i, c := range cols {
		or[i] = "LOWER(" + c + ") LIKE LOWER(?) ESCAPE '\\'"
		args[i] = pat
	}
	cond := or[0]
	if len(or) > 1 {
		cond = "(" + strings.Join(or, " OR ") + ")"
	}
	return f.And(cond, args...)
}

// EscapeLike makes s match itself in a LIKE pattern with ESCAPE '\'.
func EscapeLike(s string) string {
	return likeEscaper.Replace(s)
}

var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// Cond is the condition, "1 = 1" when there is none, for `WHERE `+f.Cond().
func (f *Filter) Cond() string {
	if f == nil || len(f.conds) == 0 {
		return "1 = 1"
	}
	return strings.Join(f.conds, " AND ")
}

// Args is the conditions' arguments in order (a copy: appending LIMIT to it never aliases the filter's).
func (f *Filter) Args() []any {
	if f == nil {
		return nil
	}
	return append([]any(nil), f.args...)
}
