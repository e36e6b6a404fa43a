package chaos

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// Kind is what an operation of the workload does.
type Kind string

const (
	KindSMS  Kind = "sms"  // a console's sms.send to one terminal (Target) or to a group (Group)
	KindSOS  Kind = "sos"  // a terminal's sos.raise
	KindPTT  Kind = "ptt"  // a terminal's press: floor.request in its group, audio while it holds, floor.release
	KindGPS  Kind = "gps"  // a terminal's gps.report
	KindJob  Kind = "job"  // a console's POST /ds/job/add: a job ticket to one terminal
	KindTone Kind = "tone" // a console's tone.send to one terminal; its delivery is the terminal's tone.play
	// KindPunch is a terminal's patrol.punch of a point of its open order; its delivery is a console's live
	// patrol.punch event.
	KindPunch Kind = "punch"
)

// EntryType says which of Entry's fields are set.
type EntryType string

const (
	// TypeOp is one request: sent, and its reply (Code, ID, Acked) when one came.
	TypeOp EntryType = "op"
	// TypeDelivery is a client seeing an item: a terminal's sms.deliver or job.deliver, a console's sms.status,
	// sos.alarm, job.changed or patrol.punch; a listener's first packet of a burst (ptt, Op the press).
	TypeDelivery EntryType = "delivery"
	// TypeConverge is the harness's measure of one node's presence view after a heal.
	TypeConverge EntryType = "converge"
	// TypeFailover is a terminal whose connection ended, and when it was logged in again (on any node).
	TypeFailover EntryType = "failover"
	// TypeFault is the fault of the phase: when it started and when it healed.
	TypeFault EntryType = "fault"
	// TypeKill is a node's process killed (SIGKILL) by the fault: Node, at Sent.
	TypeKill EntryType = "kill"
)

// Entry is one line of a history (JSONL). Times are the harness's wall clock, in the root namespace.
type Entry struct {
	Type EntryType `json:"type"`
	Op   int64     `json:"op,omitempty"`   // op id, unique in the history (deliveries of an op's item name it too)
	Kind Kind      `json:"kind,omitempty"` // op and delivery
	Node string    `json:"node,omitempty"` // where the request was sent / the observer's node
	// Actor is who sent the request (op) or who saw the item (delivery: "console@n2", a terminal's id).
	Actor  string `json:"actor,omitempty"`
	Target string `json:"target,omitempty"` // sms: the terminal
	Group  string `json:"group,omitempty"`  // ptt: the group
	ID     string `json:"id,omitempty"`     // the server's id of the item: message id, alarm id, punch log id; ptt: call id
	Seq    int64  `json:"seq,omitempty"`    // delivery: the durable event's seq (0 for a request to a terminal)
	Code   string `json:"code,omitempty"`   // op: the reply's code; "" when none came (timeout, connection lost)

	Sent     time.Time `json:"sent,omitzero"`     // op: request written; fault: started
	Acked    time.Time `json:"acked,omitzero"`    // op: reply read; delivery: seen; fault: healed
	Released time.Time `json:"released,omitzero"` // ptt: floor.release sent or floor.revoked seen, the earlier
	Revoked  string    `json:"revoked,omitempty"` // ptt: the floor.revoked code when the server ended the hold
	// Dup is a raise that referred to an alarm already open (reply duplicate:true, e.g. its cancel failed in a
	// fault): the consoles were shown that alarm when it was first raised, maybe in another phase.
	Dup bool `json:"dup,omitempty"`
	// Took is a converge's or a failover's duration; OK says it happened at all within the harness's patience.
	Took time.Duration `json:"took,omitempty"`
	OK   bool          `json:"ok,omitempty"`
	Name string        `json:"name,omitempty"` // fault: its name
}

// Acknowledged reports whether the op's reply said the server took it (code "0").
func (e Entry) Acknowledged() bool { return e.Type == TypeOp && !e.Acked.IsZero() && e.Code == "0" }

// History is an append-only JSONL log safe for concurrent writers, kept in memory for the checker too.
type History struct {
	mu      sync.Mutex
	w       *bufio.Writer
	f       *os.File
	entries []Entry
	nextOp  int64
}

// NewHistory writes to file (created or truncated); "" keeps it in memory only.
func NewHistory(file string) (*History, error) {
	h := &History{}
	if file != "" {
		f, err := os.Create(file)
		if err != nil {
			return nil, err
		}
		h.f, h.w = f, bufio.NewWriter(f)
	}
	return h, nil
}

// NextOp is a new op id.
func (h *History) NextOp() int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.nextOp++
	return h.nextOp
}

// Add appends e.
func (h *History) Add(e Entry) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.entries = append(h.entries, e)
	if h.w != nil {
		b, _ := json.Marshal(e)
		_, _ = h.w.Write(append(b, '\n'))
	}
}

// Entries is a copy of what was added, in order.
func (h *History) Entries() []Entry {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]Entry(nil), h.entries...)
}

// Close flushes and closes the file.
func (h *History) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.f == nil {
		return nil
	}
	err := h.w.Flush()
	if cerr := h.f.Close(); err == nil {
		err = cerr
	}
	h.f, h.w = nil, nil
	return err
}

// ReadHistory parses a JSONL history.
func ReadHistory(r io.Reader) ([]Entry, error) {
	var out []Entry
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for line := 1; sc.Scan(); line++ {
		var e Entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return nil, fmt.Errorf("history line %d: %w", line, err)
		}
		out = append(out, e)
	}
	return out, sc.Err()
}
