package main

import (
	"context"
	"strings"
	"testing"

	"tenfour/internal/video"
)

// The operator switches a customer's recording of video calls and monitorings on and off; other limits stay.
func TestAdminVideoLimitsRecord(t *testing.T) {
	a := newAdminScript(t)
	a.ok([][]string{
		{"create-customer", "--name", "Acme"},
		{"video-limits", "--customer", "Acme", "--max-calls", "3"},
		{"video-limits", "--customer", "Acme", "--record", "on"},
	})
	if err := a.run("video-limits", "--customer", "Acme", "--record", "yes"); err == nil || !strings.Contains(err.Error(), "on or off") {
		t.Fatalf("--record yes: %v", err)
	}
	limits := func() video.Limits {
		store := a.store()
		l, err := video.NewStore(store, nil).Limits(context.Background(), a.customer(store, "Acme"))
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	if l := limits(); !l.Record || l.MaxCalls != 3 {
		t.Fatalf("limits %+v", l)
	}
	if err := a.run("video-limits", "--customer", "Acme", "--record", "off"); err != nil {
		t.Fatal(err)
	}
	if l := limits(); l.Record || l.MaxCalls != 3 {
		t.Fatalf("limits after off %+v", l)
	}
}
