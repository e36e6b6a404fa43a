package geo_test

import (
	"fmt"
	"sync/atomic"
	"testing"

	"tenfour/internal/platform/db"
	"tenfour/internal/testkit"
)

// fleets numbers the fleets seeded by this package's tests: each gets its own account-id prefix digit, so the
// two or three a test seeds in one store never collide.
var fleets atomic.Int32

// seed adds a customer with a dispatcher (signed in) and n app terminals in one group: testkit.NewFleet.
func seed(t testing.TB, d *db.DB, n int) testkit.Fleet {
	t.Helper()
	return testkit.NewFleet(t, d, fmt.Sprint(fleets.Add(1)%9+1), n, 1)
}
