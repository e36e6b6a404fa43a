// Package flex holds the lenient JSON types of socket and HTTP payloads. Terminals and consoles of many makers
// send ids as strings or numbers, lists as arrays or comma-separated strings and coordinates as numbers or
// numeric strings; every domain decodes them with these types, so the rules live in one place.
package flex

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// refuse is the error of a value a lenient type cannot take: a *json.UnmarshalTypeError, which the JSON
// decoder completes with the field's name (realtime.Decode and httpx turn it into a coded "400" naming it).
func refuse(b []byte, v any) error {
	what := strings.TrimSpace(string(b))
	if len(what) > 32 {
		what = what[:32] + "…"
	}
	return &json.UnmarshalTypeError{Value: what, Type: reflect.TypeOf(v).Elem()}
}

// String accepts a JSON string or number and null (as ""); surrounding white space is dropped.
type String string

// UnmarshalJSON implements json.Unmarshaler.
func (f *String) UnmarshalJSON(b []byte) error {
	s := strings.TrimSpace(string(b))
	switch {
	case s == "null":
		*f = ""
	case strings.HasPrefix(s, `"`):
		var v string
		if err := json.Unmarshal(b, &v); err != nil {
			return refuse(b, f)
		}
		*f = String(strings.TrimSpace(v))
	case s != "" && (s[0] == '-' || (s[0] >= '0' && s[0] <= '9')):
		var n json.Number
		if err := json.Unmarshal(b, &n); err != nil {
			return refuse(b, f)
		}
		*f = String(n.String())
	default:
		return refuse(b, f)
	}
	return nil
}

// List accepts an array of strings/numbers or one comma-separated string; empty items are dropped.
type List []string

// UnmarshalJSON implements json.Unmarshaler.
func (l *List) UnmarshalJSON(b []byte) error {
	s := strings.TrimSpace(string(b))
	if s == "null" {
		*l = nil
		return nil
	}
	if strings.HasPrefix(s, "[") {
		var items []String
		if err := json.Unmarshal(b, &items); err != nil {
			return refuse(b, l)
		}
		out := make([]string, 0, len(items))
		for _, it := range items {
			out = append(out, string(it))
		}
		*l = out
		return nil
	}
	var one String
	if err := one.UnmarshalJSON(b); err != nil {
		return refuse(b, l)
	}
	*l = nil
	for _, p := range strings.Split(string(one), ",") {
		if p = strings.TrimSpace(p); p != "" {
			*l = append(*l, p)
		}
	}
	return nil
}

// Float accepts a JSON number or a numeric string; null, "" and absence leave it unset (Set false). A string
// naming a non-finite number ("NaN", "Inf", "-Infinity") is refused: no coordinate, speed or level is one.
type Float struct {
	V   float64
	Set bool
}

// numeral is a JSON number or numeric string without quotes and blanks; "" for null, "" and absence.
func numeral(b []byte) string {
	s := strings.Trim(strings.TrimSpace(string(b)), `"`)
	if s == "null" {
		return ""
	}
	return strings.TrimSpace(s)
}

// UnmarshalJSON implements json.Unmarshaler.
func (f *Float) UnmarshalJSON(b []byte) error {
	*f = Float{}
	if s := numeral(b); s != "" {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return refuse(b, f)
		}
		*f = Float{V: v, Set: true}
	}
	return nil
}

// Ptr returns the value or nil when unset.
func (f Float) Ptr() *float64 {
	if !f.Set {
		return nil
	}
	v := f.V
	return &v
}

// Int accepts a JSON integer or an integer string; null, "" and absence leave it unset (Set false).
type Int struct {
	V   int64
	Set bool
}

// UnmarshalJSON implements json.Unmarshaler.
func (i *Int) UnmarshalJSON(b []byte) error {
	*i = Int{}
	if s := numeral(b); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return refuse(b, i)
		}
		*i = Int{V: v, Set: true}
	}
	return nil
}
