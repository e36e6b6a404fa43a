package tone_test

import (
	"encoding/json"
	"testing"
	"time"

	"tenfour/internal/testkit"
)

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

// awaitReply reads until the reply to request id, keeping events.
func awaitReply(t *testing.T, c *testkit.Socket, id int64) testkit.Frame {
	t.Helper()
	for {
		f := c.Read(10 * time.Second)
		if f.Re == id {
			return f
		}
		c.Events = append(c.Events, f)
	}
}
