// Package bench is the harness behind `make bench`: it runs every measurement of issue 9 on this machine,
// bounded in time, one after the other (so they do not disturb each other), and joins their figures into one
// table with the target and the reference figure of each row.
//
// The measurements are the domain packages' own benchmarks and load tests (run as compiled test binaries,
// their output parsed), two latency tests of this package (press → grant at the talker, on loopback and
// behind a 60 ms round trip; late call entry), a scale run of the real binary (`tenfour serve` + `tenfour sim`
// as separate processes, plus 20 console sockets) and the console's web benchmarks. The runner is
// `go run ./internal/bench/cmd` (scripts/bench.sh, `make bench`); docs/performance.md explains the figures.
package bench

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"
)

// Status is a row's verdict.
type Status string

const (
	Pass   Status = "pass"
	Fail   Status = "FAIL"
	Info   Status = "info"          // no target, or a figure the target does not apply to
	NA     Status = "not available" // the measurement cannot run here (the figure says why)
	Failed Status = "not measured"  // the measurement broke (the figure says how)
)

// Row is one line of the table.
type Row struct {
	Name      string
	Figure    string
	Target    string
	Reference string
	Status    Status
}

// Verdict is Pass when ok, else Fail.
func Verdict(ok bool) Status {
	if ok {
		return Pass
	}
	return Fail
}

// WriteTable writes rows as a Markdown table.
func WriteTable(w io.Writer, rows []Row) {
	fmt.Fprintln(w, "| measurement | figure (this run) | target | reference | |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, r := range rows {
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", cell(r.Name), cell(r.Figure), cell(r.Target), cell(r.Reference),
			r.Status)
	}
}

func cell(s string) string {
	s = strings.ReplaceAll(s, "|", "\\|")
	return strings.ReplaceAll(s, "\n", " ")
}

// Pct returns the p-th percentile (0 < p ≤ 1) of ds by the nearest-rank method; 0 for none.
func Pct(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	k := int(math.Ceil(p*float64(len(s)))) - 1
	return s[max(0, min(k, len(s)-1))]
}

// Ms formats a duration in milliseconds with a precision that suits its size.
func Ms(d time.Duration) string {
	return MsF(float64(d) / float64(time.Millisecond))
}

// MsF formats milliseconds.
func MsF(ms float64) string {
	switch {
	case ms < 1:
		return fmt.Sprintf("%.2f ms", ms)
	case ms < 100:
		return fmt.Sprintf("%.1f ms", ms)
	default:
		return fmt.Sprintf("%.0f ms", ms)
	}
}

// Thousands formats n with thousands separators ("10,000").
func Thousands(n float64) string {
	s := fmt.Sprintf("%.0f", math.Round(n))
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
