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

// Regression (docs/reliability.md): a node cut from NATS for longer than the node timeout but shorter than the
// NATS client's ping timeout kept its connection, so it never rejoined; the others had taken its terminals
// offline and they stayed offline on every console. Presence now converges after the heal.
func TestPartitionFromNATSConverges(t *testing.T) {
	if err := chaos.Usable(context.Background()); err != nil {
		t.Skip(err)
	}
	o := chaos.Short(chaos.RunOptions{Dir: filepath.Join(t.TempDir(), "run"), Bin: testkit.Binary(t), Seed: 35,
		Bounds: chaos.DefaultBounds, Only: "partition n1 from NATS"})
	phases, err := chaos.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(phases) != 2 { // from NATS, from NATS and PostgreSQL
		t.Fatalf("%d phases", len(phases))
	}
	for _, p := range phases {
		if p.Err != nil || !p.Result.OK() || p.Result.Acked == 0 {
			t.Errorf("%s: %v %+v", p.Fault, p.Err, p.Result)
		}
	}
}
