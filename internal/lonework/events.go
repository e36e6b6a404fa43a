package lonework

// Socket message types (docs/safety.md, docs/terminal-protocol.md "Lone worker").
const (
	// Terminal → server requests.
	ReqCheckin = "lonework.checkin" // {workId?} → {workIds, nextCheck}: "I am fine" after a prompt
	ReqGet     = "lonework.get"     // {} → {list:[Plan]}: my plans, waiting or in progress

	// Server → terminal.
	TermCheck = "lonework.check" // request {workId, countdown, deadline, serverTime}: show the prompt; ack "0", or "486" busy
	TermStart = "lonework.start" // event Plan: lone work began
	TermEnd   = "lonework.end"   // event Plan: lone work ended

	// Server → console events.
	EventState        = "lonework.state"        // transient: a plan changed (created, edited, started, prompted, checked in, alarmed, ended)
	EventRemoved      = "lonework.removed"      // transient: {ids} plans deleted
	EventAlarm        = "lonework.alarm"        // durable (seq): a new lone-work alarm
	EventAlarmUpdated = "lonework.alarmUpdated" // durable (seq): a dispatcher handled an alarm (remark)
)
