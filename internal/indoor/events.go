package indoor

// Socket message types (docs/terminal-protocol.md and docs/console-socket.md "Indoor positioning").
const (
	// ReqReport is a terminal's beacon scan: {readings: [{mac, rssi}]} → Position (its estimated position), or
	// "159" when none of the beacons is placed on a floor.
	ReqReport = "indoor.report"

	// EventPosition (transient, consoles): a terminal's new position (Position).
	EventPosition = "indoor.position"
	// EventChanged (transient, consoles): {what: building|floor|beacon, id} a plan changed; reload the list.
	EventChanged = "indoor.changed"
)
