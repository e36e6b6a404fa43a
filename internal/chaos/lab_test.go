package chaos_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"tenfour/internal/chaos"
	"tenfour/internal/testkit"
)

// startLab starts the lab for a test, or skips the test with the reason when this machine cannot run it (not
// root, no network namespaces).
func startLab(t *testing.T) *chaos.Lab {
	t.Helper()
	ctx := context.Background()
	if err := chaos.Usable(ctx); err != nil {
		t.Skip(err)
	}
	lab, err := chaos.Start(ctx, chaos.Options{Dir: filepath.Join(t.TempDir(), "lab"), Bin: testkit.Binary(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(lab.Close)
	return lab
}

func TestLabStartsThreeHealthyNodes(t *testing.T) {
	lab := startLab(t)
	ctx := context.Background()
	if len(lab.Nodes) != 3 {
		t.Fatalf("%d nodes", len(lab.Nodes))
	}
	for _, n := range lab.Nodes {
		if !lab.Healthy(ctx, n) {
			t.Fatalf("node %s not healthy", n.ID)
		}
	}
	// A partition from PostgreSQL shows in the node's health (it pings the store), and heals.
	n1 := lab.Nodes[0]
	if err := chaos.Cut(ctx, n1.Host, lab.PG); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, 10*time.Second, "n1 unhealthy while cut from PostgreSQL", func() bool { return !lab.Healthy(ctx, n1) })
	if err := chaos.Heal(ctx, n1.Host, lab.PG); err != nil {
		t.Fatal(err)
	}
	if err := lab.WaitHealthy(ctx, n1, 30*time.Second); err != nil {
		t.Fatal(err)
	}
}
