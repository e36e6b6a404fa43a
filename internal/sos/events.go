package sos

// Socket message types (docs/safety.md, docs/terminal-protocol.md "SOS").
const (
	// Terminal → server requests.
	ReqRaise  = "sos.raise"  // {lat?, lng?, type?} → {id, state, time, duplicate}
	ReqCancel = "sos.cancel" // {id?} → {id, state}

	// Server → console events.
	EventAlarm   = "sos.alarm"   // durable (seq): a new alarm, the Alarm record
	EventUpdated = "sos.updated" // durable (seq): an alarm changed state (acknowledged, closed, canceled)
	EventRealert = "sos.realert" // transient: an alarm still in state 0, announced again ({...Alarm, count})

	// Server → terminal.
	TermStop   = "sos.stop"   // request {id, by, byName}: stop alarming; the terminal acknowledges
	TermAcked  = "sos.acked"  // event {id, responder, responderName}: a dispatcher acknowledged, help is coming
	TermClosed = "sos.closed" // event {id, kind, closer, closerName}: a dispatcher closed the alarm
)
