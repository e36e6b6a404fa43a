package chaos

import (
	"bytes"
	"encoding/binary"
	"slices"
	"time"

	"github.com/pion/rtp"

	"tenfour/internal/termclient"
)

// The presses' audio: the talker sends a 20 ms Opus frame every 20 ms while it holds the floor, each carrying its
// burst's mark (the phase and the press's op: the phases' histories each count their ops from 1); a listener
// records the first packet it hears of each burst, and the checker wants a call record and a recording of every
// burst heard.

const frameTime = 20 * time.Millisecond

// burstAudio is the frames of a burst of op for hold: valid 20 ms Opus packets (termclient.SilentPacket followed
// by the mark, as one code-0 frame), one a frameTime.
func burstAudio(phase, op int64, hold time.Duration) [][]byte {
	pl := binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(slices.Clone(termclient.SilentPacket), uint32(phase)), uint32(op))
	out := make([][]byte, hold/frameTime+1)
	for i := range out {
		out[i] = pl
	}
	return out
}

// burstOf is the mark a received payload carries (ok false: not a burst of the workload).
func burstOf(pl []byte) (phase, op int64, ok bool) {
	n := len(termclient.SilentPacket)
	if len(pl) != n+8 || !bytes.Equal(pl[:n], termclient.SilentPacket) {
		return 0, 0, false
	}
	return int64(binary.BigEndian.Uint32(pl[n:])), int64(binary.BigEndian.Uint32(pl[n+4:])), true
}

// hear is a listener's packet (termclient.MediaOptions.OnPacket): the first of each burst of the phase running
// is recorded as the burst's delivery to the terminal.
func (t *terminal) hear(p *rtp.Packet) {
	phase, op, ok := burstOf(p.Payload)
	if !ok || phase != t.w.Phase() {
		return
	}
	t.mu.Lock()
	if t.heardIn != phase {
		t.heard, t.heardIn = map[int64]bool{}, phase
	}
	first := !t.heard[op]
	t.heard[op] = true
	t.mu.Unlock()
	if first {
		t.w.record(Entry{Type: TypeDelivery, Kind: KindPTT, Op: op, Actor: t.id, Acked: time.Now()})
	}
}
