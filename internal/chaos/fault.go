package chaos

import (
	"context"
	"errors"
	"syscall"
	"time"
)

// Fault is one thing that goes wrong, alone: Inject, the fault holds for Hold, Heal.
type Fault struct {
	Name   string
	Hold   time.Duration
	Inject func(ctx context.Context, l *Lab) error
	Heal   func(ctx context.Context, l *Lab) error
}

// Faults are the faults of issue 35 this lab offers (docs/reliability.md lists the ones not built yet). hold is
// how long a partition or a kill lasts; a pause is 10 s, as a stalled disk.
func Faults(hold time.Duration) []Fault {
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
	out = append(out, Fault{Name: "SIGKILL n2, back with the same id", Hold: hold,
		Inject: func(ctx context.Context, l *Lab) error { return node(l, "n2").Proc.Stop(ctx, syscall.SIGKILL) },
		Heal: func(ctx context.Context, l *Lab) error {
			n := node(l, "n2")
			if err := n.Proc.Start(); err != nil {
				return err
			}
			return l.WaitHealthy(ctx, n, startWait)
		}})
	out = append(out, Fault{Name: "SIGSTOP n2 for 10 s", Hold: 10 * time.Second,
		Inject: func(ctx context.Context, l *Lab) error { return node(l, "n2").Proc.Signal(syscall.SIGSTOP) },
		Heal:   func(ctx context.Context, l *Lab) error { return node(l, "n2").Proc.Signal(syscall.SIGCONT) }})
	for _, p := range []struct {
		name  string
		pairs func(l *Lab) [][2]Host
	}{
		{"partition n1 from NATS", fromNATS},
		{"partition n1 from PostgreSQL", fromPG},
		{"partition n1 from NATS and PostgreSQL", fromBoth},
		{"partition n1 from n2 (both see NATS)", fromEachOther},
	} {
		inject, heal := cut(p.pairs)
		out = append(out, Fault{Name: p.name, Hold: hold, Inject: inject, Heal: heal})
	}
	out = append(out, Fault{Name: "restart NATS", Inject: func(ctx context.Context, l *Lab) error { return l.RestartNATS(ctx) }, Heal: nothing})
	out = append(out, Fault{Name: "restart PostgreSQL", Inject: func(ctx context.Context, l *Lab) error { return l.RestartPG(ctx) }, Heal: nothing})
	return out
}
