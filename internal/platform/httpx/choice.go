package httpx

import (
	"fmt"
	"strconv"
	"strings"
)

// Flag reads a 0/1 parameter ("false"/"true" too; blank is false). Any other value is 400 "name: 0 or 1".
func Flag(name, v string) (bool, error) {
	switch v {
	case "", "0", "false":
		return false, nil
	case "1", "true":
		return true, nil
	}
	return false, BadParam(name, "0 or 1")
}

// Ascending reads a list's order parameter: "asc" is true, "desc" or blank false (newest first is every list's
// default), in any case and spacing. Any other value is 400 "name: asc or desc".
func Ascending(name, v string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "desc":
		return false, nil
	case "asc":
		return true, nil
	}
	return false, BadParam(name, "asc or desc")
}

// Choices reads a list parameter of small codes 0..most (a state or status filter) as the domain's type. A
// value that is not one of them is 400 "name: 0, 1 or 2" (the codes it takes).
func Choices[T ~int](name string, vs []string, most int) ([]T, error) {
	var out []T
	for _, v := range vs {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > most {
			return nil, BadParam(name, choicesText(most))
		}
		out = append(out, T(n))
	}
	return out, nil
}

// choicesText is "0, 1 or 2" for most 2.
func choicesText(most int) string {
	if most == 0 {
		return "0"
	}
	var b strings.Builder
	for i := 0; i < most; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprint(&b, i)
	}
	fmt.Fprintf(&b, " or %d", most)
	return b.String()
}
