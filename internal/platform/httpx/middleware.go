package httpx

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
)

var (
	reqDuration = promauto.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "tenfour_http_request_duration_seconds",
		Help:    "HTTP request latency by route pattern and status.",
		Buckets: []float64{.001, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
	}, []string{"pattern", "status"})
)

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (s *statusWriter) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController (and the WebSocket upgrade) reach the real writer.
func (s *statusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// Observe logs each request (never its parameters: they may carry passwords), records its latency and
// turns a panic into a 500.
func Observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				slog.Error("panic", "path", r.URL.Path, "panic", p, "stack", string(debug.Stack()))
				WriteError(sw, r, ErrInternal)
			}
			d := time.Since(start)
			pattern := r.Pattern
			if pattern == "" {
				pattern = "other"
			}
			reqDuration.WithLabelValues(pattern, strconv.Itoa(sw.status)).Observe(d.Seconds())
			slog.Debug("http", "method", r.Method, "path", r.URL.Path, "status", sw.status, "dur", d)
		}()
		next.ServeHTTP(sw, r)
	})
}

// ClientIP is the remote address without its port: the connection's peer, or the client a trusted reverse
// proxy names (RealIP, serve --trusted-proxies).
func ClientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

type clientIPKey struct{}

// WithClientIP keeps r's client address (ClientIP) in ctx, for work that outlives the request's handler but
// still needs to know who asked: the socket hub runs a connection's login on such a context.
func WithClientIP(ctx context.Context, r *http.Request) context.Context {
	return context.WithValue(ctx, clientIPKey{}, ClientIP(r))
}

// ClientIPFrom is the address WithClientIP kept ("" if none).
func ClientIPFrom(ctx context.Context) string {
	ip, _ := ctx.Value(clientIPKey{}).(string)
	return ip
}
