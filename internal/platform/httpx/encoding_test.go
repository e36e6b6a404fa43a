package httpx

import (
	"net/http/httptest"
	"testing"
)

func TestAcceptsEncoding(t *testing.T) {
	for _, c := range []struct {
		header, coding string
		want           bool
	}{
		{"gzip, deflate, br, zstd", "br", true},
		{"gzip, deflate, br, zstd", "gzip", true},
		{"gzip", "br", false},
		{"BR", "br", true},
		{"br;q=0, gzip;q=0.5", "br", false},
		{"br;q=0, gzip;q=0.5", "gzip", true},
		{"gzip;q=0", "gzip", false}, // named and refused
		{"br;q=zero", "br", false},  // an unreadable quality is no consent
		{"*", "br", true},
		{"*;q=0, identity", "gzip", false},
		{"*, gzip;q=0", "gzip", false}, // listed wins over "*"
		{"", "gzip", false},
		{"xgzip", "gzip", false},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.Header.Set("Accept-Encoding", c.header)
		if got := AcceptsEncoding(r, c.coding); got != c.want {
			t.Errorf("%q takes %s: %v, want %v", c.header, c.coding, got, c.want)
		}
	}
}
