package testkit

import (
	"bufio"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Binary is the server as released: TENFOUR_TEST_BIN when set (`make test-go` sets it to the bin/tenfour its
// build phase made, so no test links its own), else cmd/tenfour built (CGO_ENABLED=0) into the test's temporary
// directory.
func Binary(t testing.TB) string {
	t.Helper()
	if bin := os.Getenv("TENFOUR_TEST_BIN"); bin != "" {
		if _, err := os.Stat(bin); err != nil {
			t.Fatalf("TENFOUR_TEST_BIN: %v", err)
		}
		return bin
	}
	out := filepath.Join(t.TempDir(), "tenfour")
	cmd := exec.Command("go", "build", "-o", out, "tenfour/cmd/tenfour")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	return out
}

// Process is a `tenfour serve` process: the real server as it runs in production, for tests that kill it.
type Process struct {
	URL  string
	cmd  *exec.Cmd
	done chan struct{} // closed when the process has exited

	mu  sync.Mutex
	log []string
}

var servingRe = regexp.MustCompile(`tenfour serving.*url=(\S+)`)

// Serve starts bin on dataDir (loopback, any free port, no TENFOUR_ variables of the test's environment; extra
// flags after those) and waits until it is healthy. The process is killed when the test ends.
func Serve(t testing.TB, bin, dataDir string, extra ...string) *Process {
	t.Helper()
	args := append([]string{"serve", "--addr", "127.0.0.1:0", "--data", dataDir, "--log-level", "info", "--media-udp-port", "0"}, extra...)
	cmd := exec.Command(bin, args...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TENFOUR_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &Process{cmd: cmd, done: make(chan struct{})}
	urls := make(chan string, 1)
	scanned := make(chan struct{})
	go func() {
		defer close(scanned)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			p.mu.Lock()
			p.log = append(p.log, sc.Text())
			p.mu.Unlock()
			if m := servingRe.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case urls <- strings.Trim(m[1], `"`):
				default:
				}
			}
		}
	}()
	go func() {
		<-scanned // Wait closes the pipe: read it all first
		_ = cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-p.done })
	select {
	case p.URL = <-urls:
	case <-p.done:
		t.Fatalf("server exited at start:\n%s", p.Logs())
	case <-time.After(60 * time.Second):
		t.Fatalf("server did not start within 60 s:\n%s", p.Logs())
	}
	hc := &http.Client{Timeout: 2 * time.Second}
	deadline := time.Now().Add(30 * time.Second)
	for {
		res, err := hc.Get(p.URL + "/healthz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return p
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("server not healthy: %v\n%s", err, p.Logs())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Pid is the process id (a benchmark reads its CPU time from /proc).
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Logs is what the process has written to stderr.
func (p *Process) Logs() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.log, "\n")
}

// Kill sends SIGKILL: no shutdown code runs, nothing is flushed by the server.
func (p *Process) Kill(t testing.TB) {
	t.Helper()
	if err := p.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		t.Fatal("server did not die")
	}
}

// Children counts this process's child processes named comm (Linux /proc; e.g. the in-process server's "ffmpeg").
func Children(comm string) int {
	me := os.Getpid()
	dirs, _ := filepath.Glob("/proc/[0-9]*/stat")
	n := 0
	for _, f := range dirs {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		s := string(b)
		open, closing := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || closing < 0 || closing+4 > len(s) {
			continue
		}
		fields := strings.Fields(s[closing+2:])
		if len(fields) < 2 {
			continue
		}
		if ppid, _ := strconv.Atoi(fields[1]); ppid == me && s[open+1:closing] == comm {
			n++
		}
	}
	return n
}
