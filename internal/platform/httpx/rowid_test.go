package httpx

import (
	"slices"
	"testing"
)

type areaID int64

func TestRowID(t *testing.T) {
	for _, c := range []struct {
		in      string
		want    areaID
		msg     string // RowID's 400 message
		optWant areaID
		optMsg  string // OptRowID's
	}{
		{" 42 ", 42, "", 42, ""},
		{"", 0, "areaId: required", 0, ""},
		{"  ", 0, "areaId: required", 0, ""},
		{"0", 0, "areaId: not an id", 0, "areaId: not an id"},
		{"-3", 0, "areaId: not an id", 0, "areaId: not an id"},
		{"4x", 0, "areaId: not an id", 0, "areaId: not an id"},
		{"9223372036854775808", 0, "areaId: not an id", 0, "areaId: not an id"}, // beyond int64
	} {
		got, err := RowID[areaID]("areaId", c.in)
		if got != c.want || msgOf(t, err) != c.msg {
			t.Errorf("RowID(%q) = %d %q, want %d %q", c.in, got, msgOf(t, err), c.want, c.msg)
		}
		got, err = OptRowID[areaID]("areaId", c.in)
		if got != c.optWant || msgOf(t, err) != c.optMsg {
			t.Errorf("OptRowID(%q) = %d %q, want %d %q", c.in, got, msgOf(t, err), c.optWant, c.optMsg)
		}
	}
}

func TestRowIDsOf(t *testing.T) {
	got, err := RowIDsOf[areaID]("ids", []string{"3", " 1", "3"}, 5, true)
	if err != nil || !slices.Equal(got, []areaID{3, 1}) {
		t.Fatalf("RowIDsOf = %v %v, want [3 1]", got, err)
	}
	if _, err := RowIDsOf[areaID]("ids", nil, 5, true); msgOf(t, err) != "ids: required" {
		t.Errorf("empty: %v", err)
	}
	if _, err := RowIDsOf[areaID]("ids", []string{"1", "x"}, 5, true); msgOf(t, err) != "ids: not an id" {
		t.Errorf("bad id: %v", err)
	}
}

// An absent parameter is nil (left alone), a blank or "0" one is 0 (the root, every group), others are ids.
func TestPresentRowID(t *testing.T) {
	if got, err := PresentRowID[areaID]("parent_id", nil); got != nil || err != nil {
		t.Errorf("absent: %v %v, want nil", got, err)
	}
	str := func(s string) *string { return &s }
	for _, c := range []struct {
		in   string
		want areaID
		msg  string
	}{
		{"", 0, ""}, {" 0 ", 0, ""}, {"7", 7, ""}, {"-1", 0, "parent_id: not an id"}, {"x", 0, "parent_id: not an id"},
	} {
		got, err := PresentRowID[areaID]("parent_id", str(c.in))
		if got == nil || *got != c.want || msgOf(t, err) != c.msg {
			t.Errorf("PresentRowID(%q) = %v %q, want %d %q", c.in, got, msgOf(t, err), c.want, c.msg)
		}
	}
}
