package geo

import (
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
	"golang.org/x/time/rate"

	"tenfour/internal/platform/httpx"
)

// mRefused counts positions a terminal sent that were not stored, by why: "rate" (over the terminal's budget),
// "old" (a fix time before the accepted window: back-dated further than MaxAge or the retention) and "invalid"
// (anything else out of range).
var mRefused = promauto.NewCounterVec(prometheus.CounterOpts{Name: "tenfour_gps_points_refused_total",
	Help: "GPS positions refused, by reason: rate (over the terminal's budget), old (back-dated too far), invalid."},
	[]string{"reason"})

// budget is every terminal's GPS allowance, a token bucket of positions per terminal (not per connection, so a
// reconnect does not refill it): Burst positions at once — an offline backlog, several full batches — then Rate
// per second. A report that does not fit is refused whole and costs nothing; the terminal keeps its positions
// and sends them again later (docs/terminal-protocol.md "Positions"). Without it one terminal stored 246,500
// back-dated positions in 10 s (issue 14 M4) at the socket's frame rate × MaxBatch.
type budget struct {
	rate  rate.Limit
	burst int

	mu sync.Mutex
	m  map[string]*rate.Limiter // terminal id → bucket; one per terminal that ever reported (bounded by the fleet)
}

func newBudget(perSecond float64, burst int) *budget {
	return &budget{rate: rate.Limit(perSecond), burst: burst, m: map[string]*rate.Limiter{}}
}

// take spends n positions of the terminal's budget, or spends nothing and returns the coded refusal ("429",
// with how long until n would fit).
func (b *budget) take(terminal string, n int, now time.Time) error {
	b.mu.Lock()
	l := b.m[terminal]
	if l == nil {
		l = rate.NewLimiter(b.rate, b.burst)
		b.m[terminal] = l
	}
	r := l.ReserveN(now, n)
	var wait time.Duration
	if r.OK() {
		if wait = r.DelayFrom(now); wait > 0 {
			r.CancelAt(now)
		}
	}
	b.mu.Unlock()
	if r.OK() && wait == 0 {
		return nil
	}
	mRefused.WithLabelValues("rate").Add(float64(n))
	return httpx.E(http.StatusTooManyRequests, ErrGPSRate.Code, ErrGPSRate.Key,
		fmt.Sprintf("%s: at most %d positions at once, then %g per second; retry in %d ms", ErrGPSRate.Msg,
			b.burst, float64(b.rate), wait.Milliseconds()+1))
}
