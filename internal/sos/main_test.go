package sos_test

import (
	"os"
	"testing"

	"tenfour/internal/testkit"
)

// The package's tests make many password hashes through the code they test (testkit.Account, the API), and test
// none of them.
func TestMain(m *testing.M) {
	testkit.CheapHashes()
	os.Exit(m.Run())
}
