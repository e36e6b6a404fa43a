package main

import (
	"context"
	"strings"
	"testing"

	"tenfour/internal/app"
	"tenfour/internal/config"
	"tenfour/internal/video"
)

// The operator switches a customer's recording of video calls and monitorings on and off; other limits stay.
func TestAdminVideoLimitsRecord(t *testing.T) {
	dir := t.TempDir()
	run := func(args ...string) error { return admin(append(args, "--data", dir)) }
	for _, args := range [][]string{
		{"create-customer", "--name", "Acme"},
		{"video-limits", "--customer", "Acme", "--max-calls", "3"},
		{"video-limits", "--customer", "Acme", "--record", "on"},
	} {
		if err := run(args...); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
	}
	if err := run("video-limits", "--customer", "Acme", "--record", "yes"); err == nil || !strings.Contains(err.Error(), "on or off") {
		t.Fatalf("--record yes: %v", err)
	}
	limits := func() video.Limits {
		ctx := context.Background()
		store, err := app.Open(ctx, config.Config{DataDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		defer store.Close()
		var id int64
		if err := store.QueryRow(ctx, `SELECT id FROM customers WHERE name = 'Acme'`).Scan(&id); err != nil {
			t.Fatal(err)
		}
		l, err := video.NewStore(store, nil).Limits(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	if l := limits(); !l.Record || l.MaxCalls != 3 {
		t.Fatalf("limits %+v", l)
	}
	if err := run("video-limits", "--customer", "Acme", "--record", "off"); err != nil {
		t.Fatal(err)
	}
	if l := limits(); l.Record || l.MaxCalls != 3 {
		t.Fatalf("limits after off %+v", l)
	}
}
