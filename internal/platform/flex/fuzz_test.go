package flex

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
)

// FuzzLenient feeds any JSON value to every lenient type: none panics; a refusal is a *json.UnmarshalTypeError
// (what realtime.Decode and httpx turn into a coded "400" naming the field) or the decoder's syntax error; an
// accepted String is trimmed, a List holds no blank item, and a set Float is finite.
func FuzzLenient(f *testing.F) {
	for _, s := range []string{`"10000101"`, `10000101`, `" 7 "`, `null`, `["1",2," 3 "]`, `"1,2,,3"`, `41.0082`,
		`"41.0082"`, `""`, `"NaN"`, `"Inf"`, `"-Infinity"`, `1e400`, `"0x1p3"`, `9223372036854775808`, `true`, `{}`,
		`[[1]]`, `"\ud800"`, `-`, `"1_000"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		doc := append(append([]byte(`{"v":`), b...), '}')
		refusedWell := func(err error) {
			var te *json.UnmarshalTypeError
			var se *json.SyntaxError
			if err != nil && !errors.As(err, &te) && !errors.As(err, &se) {
				t.Fatalf("%s: error %T %v", b, err, err)
			}
		}
		var s struct{ V String }
		err := json.Unmarshal(doc, &s)
		refusedWell(err)
		if err == nil && string(s.V) != strings.TrimSpace(string(s.V)) {
			t.Fatalf("%s: String %q not trimmed", b, s.V)
		}
		var l struct{ V List }
		err = json.Unmarshal(doc, &l)
		refusedWell(err)
		for _, it := range l.V {
			if err == nil && strings.TrimSpace(it) == "" && !strings.HasPrefix(strings.TrimSpace(string(b)), "[") {
				t.Fatalf("%s: List holds a blank item %q", b, l.V)
			}
		}
		var fl struct{ V Float }
		err = json.Unmarshal(doc, &fl)
		refusedWell(err)
		if err == nil && fl.V.Set && (math.IsNaN(fl.V.V) || math.IsInf(fl.V.V, 0)) {
			t.Fatalf("%s: Float took %v", b, fl.V.V)
		}
		var in struct{ V Int }
		refusedWell(json.Unmarshal(doc, &in))
	})
}
