package failover

import (
	"slices"
	"testing"
	"time"
)

func TestParseList(t *testing.T) {
	got := ParseList(" http://a:8080/, ,http://b:8080,http://c:8080 ")
	if want := []string{"http://a:8080", "http://b:8080", "http://c:8080"}; !slices.Equal(got, want) {
		t.Fatalf("ParseList = %q, want %q", got, want)
	}
	if got := ParseList(""); len(got) != 0 {
		t.Fatalf("empty list = %q", got)
	}
}

// Clients spread by their start and each moves through every node in turn.
func TestNodesRotate(t *testing.T) {
	urls := []string{"a", "b", "c"}
	n := Nodes{URLs: urls, Start: 4}
	var seen []string
	seen = append(seen, n.Current())
	for range 3 {
		seen = append(seen, n.Next())
	}
	if want := []string{"b", "c", "a", "b"}; !slices.Equal(seen, want) {
		t.Fatalf("rotation %q, want %q", seen, want)
	}
	if (&Nodes{}).Current() != "" {
		t.Fatal("no nodes: no URL")
	}
}

func TestBackoffDoublesToTheCapWithJitter(t *testing.T) {
	for _, c := range []struct {
		failures int
		r        float64
		want     time.Duration
	}{
		{1, 0.5, time.Second}, {2, 0.5, 2 * time.Second}, {3, 0, 2 * time.Second}, {6, 0.5, 30 * time.Second},
		{20, 0.999, time.Duration(float64(Cap) * 1.499)}, {0, 0.5, time.Second},
	} {
		if got := Backoff(c.failures, c.r); got != c.want {
			t.Errorf("Backoff(%d, %v) = %v, want %v", c.failures, c.r, got, c.want)
		}
	}
}
