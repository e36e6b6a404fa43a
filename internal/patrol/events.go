package patrol

// Socket message types (docs/terminal-protocol.md "Patrol", docs/console-socket.md "Patrol").
const (
	// Terminal → server requests.
	ReqPunch  = "patrol.punch"  // {method: nfc|qr|gps, value?, lat?, lng?, pointId?} → PunchResult
	ReqOrders = "patrol.orders" // {} → {serverTime, list:[Order with points]}: my orders open or to come

	// Server → terminal.
	TermOrders = "patrol.assigned" // event {orderId}: a new order of mine was generated; ask patrol.orders

	// Server → console events (transient: the console re-reads the lists at reconnect).
	EventOrder = "patrol.order" // an order was generated, punched or judged (Order without points)
	EventPunch = "patrol.punch" // a punch was stored (PunchResult)
)
