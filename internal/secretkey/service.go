package secretkey

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"tenfour/internal/platform/db"
	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/realtime"
)

// EventChanged is the socket event of a key ring change: {keyId, secretKey}, the customer's current key after it.
// Consoles get it on every change (they refresh the list); terminals when the current key changed, and once
// after each login when the customer has a current key (docs/terminal-protocol.md "Secret key").
const EventChanged = "key.changed"

// Service is the key ring API.
type Service struct {
	Store *Store
	hub   *realtime.Hub
	now   func() time.Time
	// order serialises, per customer, reading the current key and handing it to connections (a change's publish,
	// a login's reminder), so a terminal never ends up holding an older key than the one stored.
	order [64]sync.Mutex
}

func (s *Service) lock(customerID int64) func() {
	m := &s.order[uint64(customerID)%uint64(len(s.order))]
	m.Lock()
	return m.Unlock
}

// New builds the service.
func New(d *db.DB, hub *realtime.Hub) *Service {
	return &Service{Store: NewStore(d), hub: hub, now: time.Now}
}

// Routes mounts spec §7 "Keys".
func (s *Service) Routes(r httpx.Router) {
	r.Console("POST /ds/key/add", httpx.Bind(s.add))
	r.Console("GET /ds/key/list", httpx.Bind(s.list))
	r.Console("PUT /ds/key/update", httpx.Bind(s.update))
	r.Console("DELETE /ds/key/delete", httpx.Bind(s.delete))
}

// Verbs declares `key.changed` (consoles and terminals).
func (s *Service) Verbs() []realtime.Verb {
	return []realtime.Verb{realtime.Event(EventChanged, realtime.Anyone)}
}

// CurrentKey is the customer's current key ("" when none): the console's userInfo.secretKey (internal/auth asks).
func (s *Service) CurrentKey(ctx context.Context, customerID int64) (string, error) {
	c, err := s.Store.Current(ctx, customerID)
	return c.SecretKey, err
}

// SendAtLogin is a login hook: a terminal of a customer with a current key receives it right after its login
// reply, so a terminal that was off during a rotation (or lost its storage) is in step again.
func (s *Service) SendAtLogin(ctx context.Context, c *realtime.Conn, _ bool) {
	if c.Kind() != realtime.Terminal {
		return
	}
	// Read after the reply is queued: a fleet's reconnect storm does not wait on the store for its login replies.
	c.AfterReady(func() {
		defer s.lock(c.Principal().CustomerID)()
		cur, err := s.Store.Current(ctx, c.Principal().CustomerID)
		if err != nil {
			slog.WarnContext(ctx, "secretkey: current key at login", "msId", c.Principal().AccountID, "err", err)
			return
		}
		if cur.KeyID != "" {
			_ = c.Send(EventChanged, cur)
		}
	})
}

// publish tells consoles of any change and terminals when the current key is not what it was.
func (s *Service) publish(ctx context.Context, customerID int64, before Changed) {
	defer s.lock(customerID)()
	after, err := s.Store.Current(ctx, customerID)
	if err != nil {
		slog.WarnContext(ctx, "secretkey: current key after a change", "customer", customerID, "err", err)
		return
	}
	s.hub.Publish(customerID, EventChanged, after, realtime.Consoles)
	if after != before {
		s.hub.Publish(customerID, EventChanged, after, realtime.Terminals)
	}
}

type form struct {
	ID        flex.String `json:"id"`
	Name      *string     `json:"name"`
	SecretKey *string     `json:"secretKey"`
	Current   boolish     `json:"current"`
}

// POST /ds/key/add {name, secretKey, current?} → Key
func (s *Service) add(ctx context.Context, p identity.Principal, f form) (any, error) {
	if f.Name == nil {
		return nil, ErrNameRequired
	}
	name, err := nameField.Check(*f.Name)
	if err != nil {
		return nil, err
	}
	if f.SecretKey == nil {
		return nil, ErrFormat
	}
	key, err := cleanKey(*f.SecretKey)
	if err != nil {
		return nil, err
	}
	before, err := s.Store.Current(ctx, p.CustomerID)
	if err != nil {
		return nil, err
	}
	id, err := s.Store.Add(ctx, p.CustomerID, name, key, f.Current.set && f.Current.v, p.AccountID, s.now().UnixMilli())
	if err != nil {
		return nil, err
	}
	s.publish(ctx, p.CustomerID, before)
	return s.Store.Get(ctx, p.CustomerID, id)
}

// GET /ds/key/list → {total, list} (the current key first)
func (s *Service) list(ctx context.Context, p identity.Principal, _ struct{}) (any, error) {
	keys, err := s.Store.List(ctx, p.CustomerID)
	if err != nil {
		return nil, err
	}
	return struct {
		Total int   `json:"total"`
		List  []Key `json:"list"`
	}{len(keys), keys}, nil
}

// PUT /ds/key/update {id, name?, secretKey?, current?} → Key (absent fields keep their value; current true
// rotates to this key, false on the current key leaves the customer without one)
func (s *Service) update(ctx context.Context, p identity.Principal, f form) (any, error) {
	id, err := httpx.RowID[KeyID]("id", string(f.ID))
	if err != nil {
		return nil, err
	}
	var c change
	if f.Name != nil {
		name, err := nameField.Check(*f.Name)
		if err != nil {
			return nil, err
		}
		c.name = &name
	}
	if f.SecretKey != nil {
		key, err := cleanKey(*f.SecretKey)
		if err != nil {
			return nil, err
		}
		c.key = &key
	}
	if f.Current.set {
		c.current = &f.Current.v
	}
	before, err := s.Store.Current(ctx, p.CustomerID)
	if err != nil {
		return nil, err
	}
	if err := s.Store.Update(ctx, p.CustomerID, id, c, s.now().UnixMilli()); err != nil {
		return nil, err
	}
	s.publish(ctx, p.CustomerID, before)
	return s.Store.Get(ctx, p.CustomerID, id)
}

// deleteReq is the request of DELETE /ds/key/delete.
type deleteReq struct {
	ID flex.String `json:"id"`
}

// DELETE /ds/key/delete {id} → {id}. Deleting the current key leaves the customer without one: terminals get
// `key.changed` with an empty key (encryption off) rather than a key nobody chose.
func (s *Service) delete(ctx context.Context, p identity.Principal, req deleteReq) (any, error) {
	id, err := httpx.RowID[KeyID]("id", string(req.ID))
	if err != nil {
		return nil, err
	}
	before, err := s.Store.Current(ctx, p.CustomerID)
	if err != nil {
		return nil, err
	}
	if err := s.Store.Delete(ctx, p.CustomerID, id); err != nil {
		return nil, err
	}
	s.publish(ctx, p.CustomerID, before)
	return map[string]string{"id": id.String()}, nil
}
