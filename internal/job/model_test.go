package job

import (
	"testing"

	"tenfour/internal/platform/httpx"
)

// Every state against every action: the five allowed transitions lead where spec §4 says, everything else is
// refused with "134" and leaves the state as it was.
func TestStateMachine(t *testing.T) {
	allowed := map[State]map[Action]State{
		Unsettled: {Accept: Accepted, Reject: Rejected},
		Accepted:  {Start: Working, Reject: Rejected},
		Working:   {Complete: Over},
	}
	refused := 0
	for st := Unsettled; st <= Over; st++ {
		for _, a := range []Action{Accept, Reject, Start, Complete} {
			to, err := Next(st, a)
			want, ok := allowed[st][a]
			switch {
			case ok && (err != nil || to != want):
				t.Errorf("%s + %s = %s, %v; want %s", st, a, to, err, want)
			case !ok && httpx.Code(err) != "134":
				t.Errorf("%s + %s: code %q, want 134", st, a, httpx.Code(err))
			case !ok && to != st:
				t.Errorf("%s + %s refused but moved to %s", st, a, to)
			case !ok:
				refused++
			}
		}
	}
	// 20 pairs, 5 allowed: completing a rejected ticket, accepting a completed one, starting an unsettled one… are not.
	if refused != 15 {
		t.Fatalf("%d refusals, want 15", refused)
	}
	if _, err := Next(Rejected, Complete); httpx.Code(err) != "134" {
		t.Fatal("a rejected ticket was completed")
	}
}

func TestStatus(t *testing.T) {
	tk := func(states ...State) []Ticket {
		out := make([]Ticket, len(states))
		for i, s := range states {
			out[i].State = s
		}
		return out
	}
	cases := []struct {
		in   []Ticket
		want State
	}{
		{tk(), Unsettled},
		{tk(Unsettled, Unsettled), Unsettled},
		{tk(Unsettled, Accepted), Accepted},
		{tk(Accepted, Working, Over), Working},
		{tk(Rejected, Rejected), Rejected},
		{tk(Rejected, Over), Over},
		{tk(Over, Unsettled), Unsettled},
		{tk(Rejected, Accepted), Accepted},
	}
	for _, c := range cases {
		if got := Status(c.in); got != c.want {
			t.Errorf("Status(%v) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestCheckInput(t *testing.T) {
	long := func(n int) string {
		b := make([]rune, n)
		for i := range b {
			b[i] = 'é'
		}
		return string(b)
	}
	cases := []struct {
		name string
		in   RawInput
		code string
	}{
		{"ok", RawInput{Job: "Check gate 4", MsIDs: []string{"1"}}, "0"},
		{"task alias, comma list", RawInput{Task: "x", MsIDs: []string{"1,2"}}, "0"},
		{"jobMsList", RawInput{Job: "x", JobMsList: []jobMsID{"1", "2"}}, "0"},
		{"no task", RawInput{Job: "  ", MsIDs: []string{"1"}}, "130"},
		{"no terminal", RawInput{Job: "x"}, "131"},
		{"task at the limit", RawInput{Job: long(MaxTask), MsIDs: []string{"1"}}, "0"},
		{"task too long", RawInput{Job: long(MaxTask + 1), MsIDs: []string{"1"}}, "136"},
		{"address too long", RawInput{Job: "x", Address: long(MaxAddress + 1), MsIDs: []string{"1"}}, "136"},
		{"address with a line feed", RawInput{Job: "x", Address: "a\nb", MsIDs: []string{"1"}}, "400"},
		{"task with an override", RawInput{Job: "x\u202e", MsIDs: []string{"1"}}, "400"},
		{"lat without lng", RawInput{Job: "x", Lat: "41", MsIDs: []string{"1"}}, "133"},
		{"lat off the globe", RawInput{Job: "x", Lat: "95", Lng: "29", MsIDs: []string{"1"}}, "133"},
		{"not a number", RawInput{Job: "x", Lat: "north", Lng: "29", MsIDs: []string{"1"}}, "133"},
		{"micro-degrees", RawInput{Job: "x", Lat: "41012345", Lng: "29000000", MsIDs: []string{"1"}}, "0"},
	}
	for _, c := range cases {
		in, err := c.in.Check()
		if httpx.Code(err) != c.code {
			t.Errorf("%s: code %q (%v), want %s", c.name, httpx.Code(err), err, c.code)
		}
		if c.name == "micro-degrees" && (in.Lat == nil || *in.Lat != 41.012345 || *in.Lng != 29) {
			t.Errorf("micro-degrees: %v %v", in.Lat, in.Lng)
		}
	}
	many := RawInput{Job: "x"}
	for i := range MaxAssignees + 1 {
		many.MsIDs = append(many.MsIDs, "t"+string(rune('a'+i%26))+string(rune('a'+i/26)))
	}
	if _, err := many.Check(); httpx.Code(err) != "132" {
		t.Errorf("101 terminals: %v", err)
	}
}
