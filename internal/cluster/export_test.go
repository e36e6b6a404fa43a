package cluster

// LockSpace is the high half of the customer lock keys of durable events, for the tests that hold one.
const LockSpace = lockSpace
