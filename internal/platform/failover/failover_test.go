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

// A login's node list puts the node in use first; a list with nothing new leaves it alone.
func TestNodesLearnTheClusterFromTheLogin(t *testing.T) {
	n := Nodes{URLs: []string{"http://lb"}}
	n.Learn(nil)
	n.Learn([]string{"http://lb/"})
	if !slices.Equal(n.URLs, []string{"http://lb"}) {
		t.Fatalf("nothing new learnt: %q", n.URLs)
	}
	// client 1, on b: the others rotated by its index, so the clients of a dead node spread over the rest
	n = Nodes{URLs: []string{"http://a", "http://b"}, Start: 1}
	n.Learn([]string{"http://b", "http://c", "http://a", "http://c"})
	if !slices.Equal(n.URLs, []string{"http://b", "http://a", "http://c"}) || n.Current() != "http://b" {
		t.Fatalf("learnt %q, on %q", n.URLs, n.Current())
	}
	if n.Next() != "http://a" || n.Next() != "http://c" || n.Next() != "http://b" {
		t.Fatal("rotation after learning")
	}
	// client 2 on the same node moves to the other survivor first
	m := Nodes{URLs: []string{"http://b"}, Start: 2}
	m.Learn([]string{"http://b", "http://c", "http://a"})
	if m.Current() != "http://b" || m.Next() != "http://c" {
		t.Fatalf("client 2 learnt %q", m.URLs)
	}
}
