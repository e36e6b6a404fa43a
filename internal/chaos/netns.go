package chaos

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// Prefix names every namespace and link the lab makes, so that a crashed run's leftovers can be found and removed.
const Prefix = "tfc-"

// bridge is the lab's one switch; the harness (terminals, consoles, the checker) stays in the root namespace and
// reaches every host through its address on it.
const bridge = Prefix + "br0"

// Net is the lab's private /24 (docs/adr/0038-chaos-lab.md): a prefix such as "10.231.77." unused on the machine.
type Net string

// Addr is host number n of the network.
func (n Net) Addr(host int) string { return fmt.Sprintf("%s%d", n, host) }

// HostAddr is the root namespace's address on the bridge: where the harness's clients connect from.
func (n Net) HostAddr() string { return n.Addr(1) }

// Host is one network namespace on the bridge: a machine of the cluster.
type Host struct {
	Name string // the namespace, Prefix + a short name
	IP   string
}

// ip runs `ip args…`, returning its output in the error when it fails.
func ip(ctx context.Context, args ...string) error {
	out, err := exec.CommandContext(ctx, "ip", args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("ip %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return nil
}

// inNS runs `ip args…` inside the namespace ns.
func inNS(ctx context.Context, ns string, args ...string) error {
	return ip(ctx, append([]string{"netns", "exec", ns, "ip"}, args...)...)
}

// Usable says why the lab cannot run here (nil when it can): it needs root and `ip netns`.
func Usable(ctx context.Context) error {
	if os.Geteuid() != 0 {
		return errors.New("the chaos lab needs root (network namespaces)")
	}
	if _, err := exec.LookPath("ip"); err != nil {
		return fmt.Errorf("the chaos lab needs iproute2: %w", err)
	}
	probe := Prefix + "probe"
	_ = ip(ctx, "netns", "del", probe)
	if err := ip(ctx, "netns", "add", probe); err != nil {
		return fmt.Errorf("network namespaces do not work here: %w", err)
	}
	return ip(ctx, "netns", "del", probe)
}

// CleanNet removes every namespace and link named with Prefix: the lab's own at teardown, a crashed run's before a
// new one starts. Processes still inside a deleted namespace keep it alive until they exit (the lab kills its
// own first).
func CleanNet(ctx context.Context) {
	out, _ := exec.CommandContext(ctx, "ip", "netns", "list").Output()
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) > 0 && strings.HasPrefix(f[0], Prefix) {
			_ = ip(ctx, "netns", "del", f[0])
		}
	}
	out, _ = exec.CommandContext(ctx, "ip", "-o", "link", "show").Output()
	for _, line := range strings.Split(string(out), "\n") {
		// "12: tfc-br0: <…>" or "13: tfc-n1@if2: <…>"
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimSuffix(f[1], ":"), "@")
		if strings.HasPrefix(name, Prefix) {
			_ = ip(ctx, "link", "del", name)
		}
	}
}

// netUp makes the bridge with the root namespace's address on it.
func netUp(ctx context.Context, n Net) error {
	for _, args := range [][]string{
		{"link", "add", bridge, "type", "bridge"},
		{"addr", "add", n.HostAddr() + "/24", "dev", bridge},
		{"link", "set", bridge, "up"},
	} {
		if err := ip(ctx, args...); err != nil {
			return err
		}
	}
	return nil
}

// addHost makes the namespace of h, wired to the bridge by a veth pair (its end inside is "eth0").
func addHost(ctx context.Context, h Host) error {
	outer, inner := h.Name, h.Name+"-in"
	steps := [][]string{
		{"netns", "add", h.Name},
		{"link", "add", outer, "type", "veth", "peer", "name", inner},
		{"link", "set", outer, "master", bridge},
		{"link", "set", outer, "up"},
		{"link", "set", inner, "netns", h.Name},
	}
	for _, args := range steps {
		if err := ip(ctx, args...); err != nil {
			return err
		}
	}
	for _, args := range [][]string{
		{"link", "set", "lo", "up"},
		{"link", "set", inner, "name", "eth0"},
		{"addr", "add", h.IP + "/24", "dev", "eth0"},
		{"link", "set", "eth0", "up"},
	} {
		if err := inNS(ctx, h.Name, args...); err != nil {
			return err
		}
	}
	return nil
}

// Cut partitions a from b: a blackhole route to the other on each side, so neither's packets leave (no
// netfilter needed). Connections between them hang until their own timeouts notice.
func Cut(ctx context.Context, a, b Host) error {
	if err := inNS(ctx, a.Name, "route", "replace", "blackhole", b.IP+"/32"); err != nil {
		return err
	}
	return inNS(ctx, b.Name, "route", "replace", "blackhole", a.IP+"/32")
}

// Heal undoes Cut.
func Heal(ctx context.Context, a, b Host) error {
	err1 := inNS(ctx, a.Name, "route", "del", "blackhole", b.IP+"/32")
	err2 := inNS(ctx, b.Name, "route", "del", "blackhole", a.IP+"/32")
	return errors.Join(err1, err2)
}
