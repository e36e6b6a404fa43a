// Package oplog owns the operation log: every action writes one of the spec's log types (§4: 0-9, 100-130)
// with date, name, account, type and remark, and consoles receive it live as a durable `log.added` event.
//
// The remark is English text (the spec's field, kept for exports and older clients). An entry may also carry a
// Detail: a template key and parameters the console renders in the viewer's language (features/logs i18n
// `detail.<key>`), resolving parameters named group/from (group ids) and terminal (a terminal id) to names.
package oplog

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"tenfour/internal/platform/db"
	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/realtime"
)

// Type is a spec §4 log type.
type Type int

// The spec's log types.
const (
	TempGroupCreated   Type = 0
	TempGroupCanceled  Type = 1
	VoiceCallStarted   Type = 2
	CallEnded          Type = 3
	QuitTempGroup      Type = 4
	Online             Type = 5
	Offline            Type = 6
	RepeatLogin        Type = 7
	SwitchGroup        Type = 8
	CallSettings       Type = 9
	TempGroupRemoved   Type = 15
	Login              Type = 100
	GPSReport          Type = 101
	Alarm              Type = 102
	Message            Type = 103
	TempGroupEdited    Type = 104
	IndividualCallSet  Type = 105
	IndividualCallCanc Type = 106
	MissedCall         Type = 107
	GroupMonitorStart  Type = 108
	TermMonitorStart   Type = 109
	GroupMonitorStop   Type = 110
	TermMonitorStop    Type = 111
	CallTypeSwitch     Type = 112
	FenceCreate        Type = 113
	FenceDelete        Type = 114
	FenceEdit          Type = 115
	AlarmSearch        Type = 116
	TrackQuery         Type = 117
	AlarmCanceled      Type = 118
	RemoteAlarmClosed  Type = 119
	LoneWorkerSet      Type = 120
	LoneWorkerEdited   Type = 121
	LoneWorkerRemoved  Type = 122
	VoiceSearch        Type = 123
	VoiceDownload      Type = 124
	VoiceQuery         Type = 125
	VoiceQuery2        Type = 126
	FenceAlarmCanceled Type = 127
	VideoCall          Type = 128
	ToneSent           Type = 129
	VideoMonitoring    Type = 130
	// Types this server adds beyond the spec's (docs/adr/0020): job tickets (sent, accepted, rejected, started,
	// completed, deleted), the school-bus student list (students added and removed) and the media cloud (an item
	// deleted, docs/messages.md §6).
	JobTicket  Type = 140
	SchoolBus  Type = 141
	MediaCloud Type = 142
)

// Valid tells whether t is one of the spec's types (0-9, 15, 100-130) or one this server adds (140-142).
func (t Type) Valid() bool {
	return (t >= 0 && t <= 9) || t == 15 || (t >= 100 && t <= 130) || t == JobTicket || t == SchoolBus || t == MediaCloud
}

// Entry is one log line as clients see it.
type Entry struct {
	ID      string  `json:"id"`
	Date    int64   `json:"date"`
	Name    string  `json:"name"`
	Account string  `json:"account"`
	Type    Type    `json:"type"`
	Remark  string  `json:"remark"`
	Detail  *Detail `json:"detail,omitempty"` // absent on rows written before details existed
}

// Detail is an entry's remark as data: Key names the console's template (`detail.<key>` of the logs locale),
// Params its values. Parameter names with a meaning to the console: "group" and "from" hold group ids,
// "terminal" a terminal id, "kind" a connection kind (console, terminal); other values are shown as they are.
type Detail struct {
	Key    string            `json:"key"`
	Params map[string]string `json:"params,omitempty"`
}

// D builds a Detail from a key and name/value pairs.
func D(key string, nameValues ...string) Detail {
	d := Detail{Key: key}
	if len(nameValues) > 0 {
		d.Params = make(map[string]string, len(nameValues)/2)
		for i := 0; i+1 < len(nameValues); i += 2 {
			d.Params[nameValues[i]] = nameValues[i+1]
		}
	}
	return d
}

// Log writes and lists operation-log entries.
type Log struct {
	db  *db.DB
	hub *realtime.Hub
}

// New builds the log; hub may be nil (admin commands) and then nothing is published.
func New(d *db.DB, hub *realtime.Hub) *Log { return &Log{db: d, hub: hub} }

// Write stores an entry and publishes it to the customer's consoles. remark is the English text; detail (at
// most one) the same as data for the console to render in its language. A failure is logged, not returned:
// the action it records has already happened.
func (l *Log) Write(ctx context.Context, customerID int64, account, name string, t Type, remark string, detail ...Detail) {
	now := time.Now().UnixMilli()
	var d *Detail
	stored := ""
	if len(detail) > 0 {
		d = &detail[0]
		b, _ := json.Marshal(d)
		stored = string(b)
	}
	var id int64
	err := l.db.WriteRow(ctx, `INSERT INTO oplog (customer_id, at, account_id, name, type, remark, detail) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		customerID, now, account, name, int(t), remark, stored).Scan(&id)
	if err != nil {
		slog.ErrorContext(ctx, "oplog write", "type", t, "err", err)
		return
	}
	if l.hub != nil {
		e := Entry{ID: strconv.FormatInt(id, 10), Date: now, Name: name, Account: account, Type: t, Remark: remark, Detail: d}
		if _, err := l.hub.PublishDurable(ctx, customerID, EventAdded, e, realtime.Consoles); err != nil {
			slog.ErrorContext(ctx, "oplog publish", "err", err)
		}
	}
}

// By writes an entry for the calling principal.
func (l *Log) By(ctx context.Context, p identity.Principal, t Type, remark string, detail ...Detail) {
	l.Write(ctx, p.CustomerID, p.AccountID, p.Name, t, remark, detail...)
}

// Query filters the list endpoint.
type Query struct {
	Types    []Type
	From, To int64 // ms, 0 = open
	Account  string
	Offset   int
	Limit    int
}

// List returns the customer's entries newest first — by (time, id), the order consoles keep live entries in —
// and the total count.
func (l *Log) List(ctx context.Context, customerID int64, q Query) ([]Entry, int, error) {
	f := db.Scope("customer_id", customerID).
		If(q.From > 0, "at >= ?", q.From).
		If(q.To > 0, "at <= ?", q.To).
		If(q.Account != "", "account_id = ?", q.Account).
		OptIn("type", db.Args(q.Types))
	return db.List(ctx, l.db, db.ListQuery{
		Select: "id, at, name, account_id, type, remark, detail",
		From:   "oplog",
		Where:  f,
		Order:  "at DESC, id DESC",
		Offset: q.Offset, Limit: q.Limit,
	}, scanEntry)
}

func scanEntry(r db.Scanner) (Entry, error) {
	var e Entry
	var id int64
	var detail string
	if err := r.Scan(&id, &e.Date, &e.Name, &e.Account, &e.Type, &e.Remark, &detail); err != nil {
		return e, err
	}
	if detail != "" {
		var d Detail
		if json.Unmarshal([]byte(detail), &d) == nil {
			e.Detail = &d
		}
	}
	e.ID = strconv.FormatInt(id, 10)
	return e, nil
}

// EventAdded is the durable console event of every new entry.
const EventAdded = "log.added"

// Verbs: the log declares the event it sends.
func (l *Log) Verbs() []realtime.Verb {
	return []realtime.Verb{realtime.Event(EventAdded, realtime.ConsoleOnly)}
}

// Routes mounts GET /ds/log/list.
func (l *Log) Routes(r httpx.Router) {
	r.Private("GET /ds/log/list", l.list)
}

func (l *Log) list(w http.ResponseWriter, r *http.Request) (any, error) {
	var req struct {
		Type    flex.List `json:"type"`
		STime   string    `json:"stime"`
		ETime   string    `json:"etime"`
		Account string    `json:"account"`
		httpx.PageReq
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	q := Query{Account: req.Account, Limit: 300}
	for _, s := range req.Type {
		n, err := strconv.Atoi(s)
		if err != nil || !Type(n).Valid() {
			return nil, httpx.BadParam("type", "not a log type")
		}
		q.Types = append(q.Types, Type(n))
	}
	var err error
	if req.STime != "" {
		if q.From, err = httpx.Int("stime", req.STime); err != nil {
			return nil, err
		}
	}
	if req.ETime != "" {
		if q.To, err = httpx.Int("etime", req.ETime); err != nil {
			return nil, err
		}
	}
	if q.From > 0 && q.To > 0 && q.From > q.To {
		return nil, httpx.BadParam("stime", "start after end")
	}
	if q.Offset, q.Limit, err = req.PagingFrom(300, 1000); err != nil {
		return nil, err
	}
	return httpx.ListOf(l.List(r.Context(), identity.Must(r.Context()).CustomerID, q))
}
