package httpx

import (
	"errors"
	"slices"
	"testing"
)

func TestFlag(t *testing.T) {
	for v, want := range map[string]bool{"": false, "0": false, "false": false, "1": true, "true": true} {
		if got, err := Flag("open", v); err != nil || got != want {
			t.Errorf("Flag(%q) = %v, %v; want %v", v, got, err, want)
		}
	}
	for _, v := range []string{"2", "yes", "-1", " 1"} {
		var e *Error
		if _, err := Flag("open", v); !errors.As(err, &e) || e.Msg != "open: 0 or 1" {
			t.Errorf("Flag(%q): %v, want 400 open: 0 or 1", v, err)
		}
	}
}

// A list's order: newest first unless "asc" is asked, in any case; anything else is refused.
func TestAscending(t *testing.T) {
	for v, want := range map[string]bool{"": false, "desc": false, " DESC ": false, "asc": true, "Asc": true} {
		if got, err := Ascending("order", v); err != nil || got != want {
			t.Errorf("Ascending(%q) = %v, %v; want %v", v, got, err, want)
		}
	}
	for _, v := range []string{"up", "1", "ascending"} {
		var e *Error
		if _, err := Ascending("order", v); !errors.As(err, &e) || e.Msg != "order: asc or desc" {
			t.Errorf("Ascending(%q): %v, want 400 order: asc or desc", v, err)
		}
	}
}

func TestChoices(t *testing.T) {
	got, err := Choices[int]("state", []string{"0", "2", "1"}, 2)
	if err != nil || !slices.Equal(got, []int{0, 2, 1}) {
		t.Fatalf("Choices = %v, %v", got, err)
	}
	if got, err := Choices[int]("state", nil, 2); err != nil || got != nil {
		t.Fatalf("no values: %v, %v", got, err)
	}
	for _, vs := range [][]string{{"3"}, {"-1"}, {"0", "x"}, {" 1"}} {
		var e *Error
		if _, err := Choices[int]("state", vs, 2); !errors.As(err, &e) || e.Msg != "state: 0, 1 or 2" {
			t.Errorf("Choices(%v): %v, want 400 state: 0, 1 or 2", vs, err)
		}
	}
	if text := choicesText(1); text != "0 or 1" {
		t.Errorf("choicesText(1) = %q", text)
	}
}
