package httpx

import (
	"net/http"
	"strconv"
	"strings"
)

// AcceptsEncoding reports whether the request's Accept-Encoding takes coding (RFC 9110 §12.5.3): listed with a
// quality above 0, or not listed while "*" is, with a quality above 0. Codings are compared without case.
func AcceptsEncoding(r *http.Request, coding string) bool {
	star := false
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, params, _ := strings.Cut(part, ";")
		switch name = strings.TrimSpace(name); {
		case strings.EqualFold(name, coding):
			return quality(params) > 0
		case name == "*":
			star = quality(params) > 0
		}
	}
	return star
}

// quality is the q parameter of an Accept-Encoding entry's parameters: 1 when absent, 0 when unreadable.
func quality(params string) float64 {
	for _, p := range strings.Split(params, ";") {
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		if strings.EqualFold(strings.TrimSpace(k), "q") {
			q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				return 0
			}
			return q
		}
	}
	return 1
}
