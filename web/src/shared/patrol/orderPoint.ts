// A point of a patrol order as the server sends it both to the console (tbPatrolOrder points) and to a terminal
// (patrol.orders, docs/terminal-protocol.md "Patrol"): one wire type for the two readers.
export interface OrderPoint {
  orderId: number;
  seq: number;
  pointId: number;
  name: string;
  nfcValue: string;
  lat: number;
  lng: number;
  radius: number;
  /** 0 not punched, 1 punched in time, 2 punched late. */
  state: number;
  punchTime: number;
  method: string;
}
