package chaos

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"syscall"
	"time"
)

// Fault is one thing that goes wrong: Inject, the fault holds for Hold, Heal.
type Fault struct {
	Name   string
	Hold   time.Duration
	Inject func(ctx context.Context, l *Lab) error
	Heal   func(ctx context.Context, l *Lab) error
	// Uses names what the fault acts on (a node's process, a link, a server): faults mixed in one phase use
	// nothing in common, so that one's heal does not undo another's injection.
	Uses []string
}

// Loss is the lossy link's fault: its one-way delay (a 200 ms round trip) and the share of chunks lost once.
const (
	LossDelay = 100 * time.Millisecond
	LossRate  = 0.05
)

// Faults are the faults of issue 35 this lab offers, each alone (docs/reliability.md lists the ones not built
// yet). hold is how long a partition, a kill or the lossy link lasts; a pause is 10 s, as a stalled disk. seed
// chooses the lost chunks.
func Faults(hold time.Duration, seed uint64) []Fault {
	node := func(l *Lab, id string) *Node { return l.Node(id) }
	cut := func(pairs func(l *Lab) [][2]Host) (func(context.Context, *Lab) error, func(context.Context, *Lab) error) {
		return func(ctx context.Context, l *Lab) error {
				for _, p := range pairs(l) {
					if err := Cut(ctx, p[0], p[1]); err != nil {
						return err
					}
				}
				return nil
			}, func(ctx context.Context, l *Lab) error {
				var errs []error
				for _, p := range pairs(l) {
					errs = append(errs, Heal(ctx, p[0], p[1]))
				}
				return errors.Join(errs...)
			}
	}
	fromNATS := func(l *Lab) [][2]Host { return [][2]Host{{node(l, "n1").Host, l.NATS}} }
	fromPG := func(l *Lab) [][2]Host { return [][2]Host{{node(l, "n1").Host, l.PG}} }
	fromBoth := func(l *Lab) [][2]Host { return append(fromNATS(l), fromPG(l)...) }
	fromEachOther := func(l *Lab) [][2]Host { return [][2]Host{{node(l, "n1").Host, node(l, "n2").Host}} }
	nothing := func(context.Context, *Lab) error { return nil }

	var out []Fault
	out = append(out, Fault{Name: "SIGKILL n2, back with the same id", Hold: hold, Uses: []string{"n2"},
		Inject: func(ctx context.Context, l *Lab) error { return node(l, "n2").Proc.Stop(ctx, syscall.SIGKILL) },
		Heal: func(ctx context.Context, l *Lab) error {
			n := node(l, "n2")
			if err := n.Proc.Start(); err != nil {
				return err
			}
			return l.WaitHealthy(ctx, n, startWait)
		}})
	out = append(out, Fault{Name: "SIGSTOP n2 for 10 s", Hold: 10 * time.Second, Uses: []string{"n2"},
		Inject: func(ctx context.Context, l *Lab) error { return node(l, "n2").Proc.Signal(syscall.SIGSTOP) },
		Heal:   func(ctx context.Context, l *Lab) error { return node(l, "n2").Proc.Signal(syscall.SIGCONT) }})
	for _, p := range []struct {
		name  string
		pairs func(l *Lab) [][2]Host
		uses  []string
	}{
		{"partition n1 from NATS", fromNATS, []string{"n1~nats"}},
		{"partition n1 from PostgreSQL", fromPG, []string{"n1~pg"}},
		{"partition n1 from NATS and PostgreSQL", fromBoth, []string{"n1~nats", "n1~pg"}},
		{"partition n1 from n2 (both see NATS)", fromEachOther, []string{"n1~n2"}},
	} {
		inject, heal := cut(p.pairs)
		out = append(out, Fault{Name: p.name, Hold: hold, Inject: inject, Heal: heal, Uses: p.uses})
	}
	out = append(out, Fault{Name: "restart NATS", Uses: []string{"nats"},
		Inject: func(ctx context.Context, l *Lab) error { return l.RestartNATS(ctx) }, Heal: nothing})
	out = append(out, Fault{Name: "restart PostgreSQL", Uses: []string{"pg"},
		Inject: func(ctx context.Context, l *Lab) error { return l.RestartPG(ctx) }, Heal: nothing})
	out = append(out, Fault{Name: "200 ms / 5 % loss on n3's links to NATS and PostgreSQL", Hold: hold, Uses: []string{"n3~links"},
		Inject: func(_ context.Context, l *Lab) error { l.Impair(LossDelay, LossRate, seed); return nil },
		Heal:   func(_ context.Context, l *Lab) error { l.Impair(0, 0, seed); return nil }})
	return out
}

// Mixed is n phases of two or three of faults overlapping, chosen by rng among faults that use nothing in
// common: each is injected a moment after the one before (its share of the first's hold), all hold together,
// and they heal in the reverse order.
func Mixed(faults []Fault, n int, rng *rand.Rand) []Fault {
	var out []Fault
	for len(out) < n {
		pick := []Fault{faults[rng.IntN(len(faults))]}
		want := 2 + rng.IntN(2)
		for _, i := range rng.Perm(len(faults)) {
			if len(pick) < want && !slices.ContainsFunc(pick, func(f Fault) bool { return shares(f, faults[i]) }) {
				pick = append(pick, faults[i])
			}
		}
		out = append(out, together(pick))
	}
	return out
}

func shares(a, b Fault) bool {
	return slices.ContainsFunc(a.Uses, func(u string) bool { return slices.Contains(b.Uses, u) })
}

// together is one fault of several: injected in order a step apart, healed in reverse.
func together(fs []Fault) Fault {
	names := make([]string, len(fs))
	var hold time.Duration
	var uses []string
	for i, f := range fs {
		names[i], hold, uses = f.Name, max(hold, f.Hold), append(uses, f.Uses...)
	}
	step := hold / time.Duration(2*len(fs))
	return Fault{Name: "mixed: " + strings.Join(names, " + "), Hold: hold, Uses: uses,
		Inject: func(ctx context.Context, l *Lab) error {
			for i, f := range fs {
				if i > 0 {
					sleep(ctx, step)
				}
				if err := f.Inject(ctx, l); err != nil {
					return fmt.Errorf("%s: %w", f.Name, err)
				}
			}
			return nil
		},
		Heal: func(ctx context.Context, l *Lab) error {
			var errs []error
			for _, f := range slices.Backward(fs) {
				errs = append(errs, f.Heal(ctx, l))
			}
			return errors.Join(errs...)
		}}
}
