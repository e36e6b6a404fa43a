package httpx

import (
	"encoding/json"
	"testing"
)

// The list answer is spelled {total, list} — as every domain's own Page was — never with a null list; an
// embedding answer adds its fields beside them.
func TestPageJSON(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{PageOf([]int{1, 2}, 7), `{"total":7,"list":[1,2]}`},
		{PageOf[string](nil, 0), `{"total":0,"list":[]}`},
		{All([]string{"a"}), `{"total":1,"list":["a"]}`},
		{struct {
			Page[int]
			Truncated bool `json:"truncated,omitempty"`
		}{PageOf([]int{3}, 9), true}, `{"total":9,"list":[3],"truncated":true}`},
	} {
		b, err := json.Marshal(c.v)
		if err != nil || string(b) != c.want {
			t.Errorf("Marshal(%#v) = %s %v, want %s", c.v, b, err, c.want)
		}
	}
}
