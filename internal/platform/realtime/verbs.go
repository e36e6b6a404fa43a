package realtime

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sort"

	"tenfour/internal/platform/httpx"
)

// Role says who may send a request: the role guard runs before the request is decoded.
type Role uint8

const (
	// Anyone is any logged-in connection, console or terminal.
	Anyone Role = iota
	// ConsoleOnly is a dispatcher's console.
	ConsoleOnly
	// TerminalOnly is a radio or phone terminal.
	TerminalOnly
)

func (r Role) String() string {
	switch r {
	case ConsoleOnly:
		return "console"
	case TerminalOnly:
		return "terminal"
	default:
		return "console, terminal"
	}
}

// allows tells whether a connection of kind k may send a request of this role.
func (r Role) allows(k Kind) bool {
	switch r {
	case ConsoleOnly:
		return k == Console
	case TerminalOnly:
		return k == Terminal
	default:
		return true
	}
}

// The refusals of the role guard (spec code 107, like any other missing permission).
var (
	ErrConsoleOnly  = httpx.E(http.StatusForbidden, "107", "errors.permission", "consoles only")
	ErrTerminalOnly = httpx.E(http.StatusForbidden, "107", "errors.permission", "terminals only")
)

// Verb is one client→server request type: its name, who may send it and its handler. Services list theirs
// in Verbs() and the app registers them with Hub.Register, so the hub holds the index of every verb
// (Hub.Verbs) that a test holds against docs/console-socket.md and docs/terminal-protocol.md.
type Verb struct {
	Type    string
	Role    Role
	handler Handler
}

// On builds a verb whose payload decodes into Req (see Decode; use the lenient types of package flex for ids
// and numbers). The handler returns the reply's data or an error that becomes the reply's code.
func On[Req any](typ string, role Role, fn func(ctx context.Context, c *Conn, req Req) (any, error)) Verb {
	return Verb{Type: typ, Role: role, handler: func(ctx context.Context, c *Conn, data json.RawMessage) (any, error) {
		var req Req
		if err := Decode(data, &req); err != nil {
			return nil, err
		}
		return fn(ctx, c, req)
	}}
}

// OnRaw builds a verb that reads its payload itself (relays that pass data through, or a payload whose shape
// depends on a field).
func OnRaw(typ string, role Role, fn Handler) Verb { return Verb{Type: typ, Role: role, handler: fn} }

// Decode reads a request payload into v. An empty payload leaves v at its zero value; malformed JSON and wrong
// types become a coded "400" naming the field, and a lenient type's own coded error is kept.
func Decode(data json.RawMessage, v any) error {
	if len(data) == 0 || string(data) == "null" {
		return nil
	}
	if err := json.Unmarshal(data, v); err != nil {
		var he *httpx.Error
		if errors.As(err, &he) {
			return he
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return httpx.BadParam(te.Field, "wrong type")
		}
		return httpx.BadParam("data", "malformed")
	}
	return nil
}

// Register installs verbs; call before serving. A duplicate or reserved type panics (a wiring mistake).
func (h *Hub) Register(verbs ...Verb) {
	for _, v := range verbs {
		role, fn := v.Role, v.handler
		if fn == nil {
			panic("realtime: verb without handler " + v.Type)
		}
		h.Handle(v.Type, func(ctx context.Context, c *Conn, data json.RawMessage) (any, error) {
			if !role.allows(c.Kind()) {
				if role == ConsoleOnly {
					return nil, ErrConsoleOnly
				}
				return nil, ErrTerminalOnly
			}
			return fn(ctx, c, data)
		})
		h.roles[v.Type] = role
	}
}

// VerbInfo describes a registered verb for the index.
type VerbInfo struct {
	Type string
	Role Role
}

// Verbs lists every registered client→server request type, sorted by name.
func (h *Hub) Verbs() []VerbInfo {
	out := make([]VerbInfo, 0, len(h.handlers))
	for typ := range h.handlers {
		out = append(out, VerbInfo{Type: typ, Role: h.roles[typ]})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Type < out[j].Type })
	return out
}
