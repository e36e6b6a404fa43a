package realtime

// Events declares the events the server sends to one role's connections, one line per audience in a domain's
// Verbs (Event for each type).
func Events(to Role, types ...string) []Verb {
	out := make([]Verb, len(types))
	for i, typ := range types {
		out[i] = Event(typ, to)
	}
	return out
}
