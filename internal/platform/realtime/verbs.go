package realtime

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"maps"
	"net/http"
	"slices"
	"sort"

	"tenfour/internal/platform/httpx"
)

// Role says who may send a client request, or who receives a server event or request. The guard of a client
// request runs before its payload is decoded.
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

// kinds is the set of connection kinds of the role (Kind.bit).
func (r Role) kinds() uint8 {
	switch r {
	case ConsoleOnly:
		return kindConsole
	case TerminalOnly:
		return kindTerminal
	default:
		return kindConsole | kindTerminal
	}
}

// allows tells whether a connection of kind k may send a request of this role.
func (r Role) allows(k Kind) bool { return r.kinds()&k.bit() != 0 }

// The refusals of the role guard (spec code 107, like any other missing permission).
var (
	ErrConsoleOnly  = httpx.E(http.StatusForbidden, "107", "errors.permission", "consoles only")
	ErrTerminalOnly = httpx.E(http.StatusForbidden, "107", "errors.permission", "terminals only")
)

// Dir is the direction of a socket message type.
type Dir uint8

const (
	// ClientRequest is a request a console or terminal sends; the server replies.
	ClientRequest Dir = iota
	// ServerEvent is an event the server sends; nobody replies.
	ServerEvent
	// ServerRequest is a request the server sends; the client acknowledges it.
	ServerRequest
)

func (d Dir) String() string {
	switch d {
	case ServerEvent:
		return "server → client event"
	case ServerRequest:
		return "server → client request"
	default:
		return "client → server request"
	}
}

// Verb is one socket message type: its name, its direction and its role (who may send a client request, who
// receives what the server sends), and for a client request its handler. Services list theirs in Verbs() and
// the app registers them with Hub.Register, so the hub holds the index of every type (Hub.Verbs), which a
// test holds against docs/socket-verbs.md, docs/console-socket.md and docs/terminal-protocol.md.
type Verb struct {
	Type    string
	Dir     Dir
	Role    Role
	handler Handler
}

// On builds a client request whose payload decodes into Req (see Decode; use the lenient types of package
// flex for ids and numbers). The handler returns the reply's data or an error that becomes the reply's code.
func On[Req any](typ string, role Role, fn func(ctx context.Context, c *Conn, req Req) (any, error)) Verb {
	return OnRaw(typ, role, func(ctx context.Context, c *Conn, data json.RawMessage) (any, error) {
		var req Req
		if err := Decode(data, &req); err != nil {
			return nil, err
		}
		return fn(ctx, c, req)
	})
}

// OnRaw builds a client request that reads its payload itself (relays that pass data through, or a payload
// whose shape depends on a field).
func OnRaw(typ string, role Role, fn Handler) Verb {
	return Verb{Type: typ, Dir: ClientRequest, Role: role, handler: fn}
}

// Event declares an event the server sends to the role's connections (Publish, PublishDurable, SendTo,
// Conn.Send).
func Event(typ string, to Role) Verb { return Verb{Type: typ, Dir: ServerEvent, Role: to} }

// Ask declares a request the server sends to the role's connections and waits on (Hub.Request, Conn.Request).
func Ask(typ string, to Role) Verb { return Verb{Type: typ, Dir: ServerRequest, Role: to} }

// Decode reads a request payload into v. An empty payload leaves v at its zero value; malformed JSON and wrong
// types (also a lenient type's refusal) become a coded "400" naming the field, and a field type's own coded
// error is kept.
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
			field := te.Field
			if field == "" {
				field = "data"
			}
			return httpx.BadParam(field, "wrong type")
		}
		return httpx.BadParam("data", "malformed")
	}
	return nil
}

// builtins are the client requests the hub answers itself.
var builtins = []VerbInfo{{Type: "session.login"}, {Type: "ping"}, {Type: "sync", Role: ConsoleOnly}}

type verbKey struct {
	typ string
	dir Dir
}

// Register installs verbs: the handlers of client requests (behind the role guard) and the declarations of
// what the server sends. Call before serving. A duplicate or reserved type panics (a wiring mistake).
func (h *Hub) Register(verbs ...Verb) {
	for _, v := range verbs {
		k := verbKey{v.Type, v.Dir}
		if _, dup := h.verbs[k]; dup {
			panic("realtime: duplicate verb " + v.Type + " (" + v.Dir.String() + ")")
		}
		if !typeRe.MatchString(v.Type) {
			panic("realtime: malformed type " + v.Type)
		}
		if v.Dir == ClientRequest {
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
		}
		h.verbs[k] = v.Role
	}
}

// VerbInfo describes a registered type for the index.
type VerbInfo struct {
	Type string
	Dir  Dir
	Role Role
}

// Verbs lists every socket type: the hub's own requests, every client request registered (with Register, or
// with Handle as Anyone) and every server event and request declared, sorted by type and direction.
func (h *Hub) Verbs() []VerbInfo {
	out := append([]VerbInfo(nil), builtins...)
	for k, role := range h.verbs {
		out = append(out, VerbInfo{Type: k.typ, Dir: k.dir, Role: role})
	}
	for typ := range h.handlers {
		if _, ok := h.verbs[verbKey{typ, ClientRequest}]; !ok {
			out = append(out, VerbInfo{Type: typ})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Type != out[j].Type {
			return out[i].Type < out[j].Type
		}
		return out[i].Dir < out[j].Dir
	})
	return out
}

// sent checks what the server sent to connections of the given kinds (Kind.bit) against the declarations
// (Event, Ask): a type sent to a kind it is not declared for is noted once (a warning, and Undeclared for the
// tests); the frame goes out all the same.
func (h *Hub) sent(typ string, dir Dir, kinds uint8) {
	role, ok := h.verbs[verbKey{typ, dir}]
	if ok {
		kinds &^= role.kinds()
	}
	for _, k := range []Kind{Console, Terminal} {
		if kinds&k.bit() == 0 {
			continue
		}
		note := typ + " (" + dir.String() + ") to a " + string(k)
		h.undeclaredMu.Lock()
		seen := h.undeclared[note]
		h.undeclared[note] = true
		h.undeclaredMu.Unlock()
		if !seen {
			slog.Warn("realtime: undeclared server message", "type", typ, "dir", dir.String(), "to", string(k))
		}
	}
}

// Undeclared lists what the server sent without a declaration (see Event and Ask), sorted.
func (h *Hub) Undeclared() []string {
	h.undeclaredMu.Lock()
	defer h.undeclaredMu.Unlock()
	return slices.Sorted(maps.Keys(h.undeclared))
}
