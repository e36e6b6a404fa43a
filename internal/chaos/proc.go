package chaos

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// Proc is one process of the lab running inside its host's namespace (`ip netns exec` execs the command in place,
// so the pid signalled is the server's own), at nice 10: the lab shares the machine.
type Proc struct {
	Name string
	host Host
	argv []string
	log  string // stdout and stderr, appended across restarts

	cmd    *exec.Cmd
	done   chan struct{} // closed when cmd has exited
	killed time.Time     // when Stop last sent SIGKILL
}

func newProc(name string, h Host, log string, argv ...string) *Proc {
	return &Proc{Name: name, host: h, argv: argv, log: log}
}

// Start runs the process (again, after Kill or an exit).
func (p *Proc) Start() error {
	f, err := os.OpenFile(p.log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	fmt.Fprintf(f, "==== %s start %s\n", p.Name, time.Now().UTC().Format(time.RFC3339Nano))
	args := append([]string{"netns", "exec", p.host.Name, "nice", "-n", "10"}, p.argv...)
	cmd := exec.Command("ip", args...)
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%s: %w", p.Name, err)
	}
	p.cmd, p.done = cmd, make(chan struct{})
	go func(done chan struct{}) { _ = cmd.Wait(); close(done) }(p.done)
	return nil
}

// Running reports whether the process has been started and not exited.
func (p *Proc) Running() bool {
	if p.cmd == nil {
		return false
	}
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

// Signal sends sig to the process (SIGSTOP pauses it, SIGCONT resumes it).
func (p *Proc) Signal(sig syscall.Signal) error {
	if !p.Running() {
		return fmt.Errorf("%s is not running", p.Name)
	}
	return p.cmd.Process.Signal(sig)
}

// Killed is when Stop last sent the process SIGKILL (zero: never).
func (p *Proc) Killed() time.Time { return p.killed }

// Stop sends sig (SIGKILL: nothing of the process's shutdown runs; SIGINT: PostgreSQL's fast shutdown) and waits
// for the exit. A paused process is resumed first so that it can act on a catchable signal.
func (p *Proc) Stop(ctx context.Context, sig syscall.Signal) error {
	if !p.Running() {
		return nil
	}
	_ = p.cmd.Process.Signal(syscall.SIGCONT)
	if sig == syscall.SIGKILL {
		p.killed = time.Now()
	}
	if err := p.cmd.Process.Signal(sig); err != nil {
		return err
	}
	select {
	case <-p.done:
		return nil
	case <-ctx.Done():
		_ = p.cmd.Process.Kill()
		<-p.done
		return fmt.Errorf("%s did not exit on %v: killed", p.Name, sig)
	}
}
