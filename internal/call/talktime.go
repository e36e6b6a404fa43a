package call

// Talk time: every talk burst — recorded or not — leaves a row in voice_bursts when it ends, and the
// call-duration report (spec §2 /call-duration-data, §6 "call-duration statistics count only terminals with
// voice permission") sums them per terminal, per group and per day.

import (
	"context"
	"log/slog"
	"sort"
	"strconv"
	"time"

	"tenfour/internal/platform/db"
	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/timerange"
)

// Burst is one talk burst as the talk-time table keeps it.
type Burst struct {
	Customer    int64
	CallID      string
	Kind        Kind
	GroupID     int64
	GroupName   string
	TalkerID    string
	Started     int64 // btime, UTC ms of the grant
	DurationMs  int64
	NotRecorded string // "" or NoRecordPermission / NoRecordTime
}

// AddBurst stores a finished burst (a repeated one — the same call and btime — is ignored).
func (s *Store) AddBurst(ctx context.Context, b Burst) error {
	_, err := s.db.Exec(ctx, `INSERT INTO voice_bursts (customer_id, call_id, kind, group_id, group_name, talker_id,
		started_at, duration_ms, recorded) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (customer_id, call_id, started_at) DO NOTHING`,
		b.Customer, b.CallID, string(b.Kind), b.GroupID, b.GroupName, b.TalkerID, b.Started, b.DurationMs, b.NotRecorded)
	return err
}

// Bursts reads a customer's bursts that started in [from, to], oldest first.
func (s *Store) Bursts(ctx context.Context, customer, from, to int64) ([]Burst, error) {
	rows, err := s.db.Query(ctx, `SELECT call_id, kind, group_id, group_name, talker_id, started_at, duration_ms, recorded
		FROM voice_bursts WHERE customer_id = ? AND started_at >= ? AND started_at <= ? ORDER BY started_at`,
		customer, from, to)
	return db.Collect(rows, err, func(sc db.Scanner) (Burst, error) {
		b := Burst{Customer: customer}
		err := sc.Scan(&b.CallID, &b.Kind, &b.GroupID, &b.GroupName, &b.TalkerID, &b.Started, &b.DurationMs,
			&b.NotRecorded)
		return b, err
	})
}

// recordTalk stores a finished burst's talk time; it runs outside the lock (finishBurst).
func (s *Service) recordTalk(c *Call, b *burst, durationMs int64) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := s.store.AddBurst(ctx, Burst{Customer: c.Customer, CallID: c.ID, Kind: c.Kind, GroupID: c.Group,
		GroupName: c.GroupName, TalkerID: b.claim.Account, Started: b.btime, DurationMs: durationMs,
		NotRecorded: b.notRecorded})
	if err != nil {
		slog.Error("voice: store talk time", "call", c.ID, "err", err) // the report misses this burst
	}
}

// TerminalTalk is one terminal's line of the call-duration report.
type TerminalTalk struct {
	MsID     string `json:"msId"`
	MsName   string `json:"msName"`
	TalkMs   int64  `json:"talkMs"`
	Bursts   int    `json:"bursts"`
	GroupMs  int64  `json:"groupMs"`  // in group and temporary-group calls
	SingleMs int64  `json:"singleMs"` // in individual calls
	OtherMs  int64  `json:"otherMs"`  // in all and broadcast calls
}

// GroupTalk is one group's line: the talk time of counted terminals in its calls.
type GroupTalk struct {
	GID    string `json:"gid"`
	GName  string `json:"gName"`
	Kind   Kind   `json:"kind"` // group | temp
	TalkMs int64  `json:"talkMs"`
	Bursts int    `json:"bursts"`
}

// DayTalk is one calendar day's talk time (the customer's zone).
type DayTalk struct {
	Day    string `json:"day"`
	TalkMs int64  `json:"talkMs"`
	Bursts int    `json:"bursts"`
}

// DurationReport is the answer of findCallDurationPost.
type DurationReport struct {
	STime     int64          `json:"sTime"`
	ETime     int64          `json:"eTime"`
	TalkMs    int64          `json:"talkMs"`
	Bursts    int            `json:"bursts"`
	Terminals []TerminalTalk `json:"terminals"`
	Groups    []GroupTalk    `json:"groups"`
	Days      []DayTalk      `json:"days"`
}

// Talker is what the report needs of a burst's talker: whether it counts, and its name.
type Talker struct {
	Name   string
	Counts bool // a terminal with voice permission
}

// SumTalk builds the report from bursts: only bursts of talkers that count, of the wanted terminals (all when
// msIDs is empty) and groups (all calls when gids is empty), inside [from, to].
func SumTalk(bursts []Burst, talkers map[string]Talker, msIDs []string, gids []int64, loc *time.Location) DurationReport {
	wantMs, wantG := map[string]bool{}, map[int64]bool{}
	for _, id := range msIDs {
		wantMs[id] = true
	}
	for _, g := range gids {
		wantG[g] = true
	}
	var rep DurationReport
	terms, groups, days := map[string]*TerminalTalk{}, map[int64]*GroupTalk{}, map[string]*DayTalk{}
	for _, b := range bursts {
		t, ok := talkers[b.TalkerID]
		if !ok || !t.Counts || (len(wantMs) > 0 && !wantMs[b.TalkerID]) {
			continue
		}
		inGroup := (b.Kind == Group || b.Kind == Temp) && b.GroupID != 0
		if len(wantG) > 0 && (!inGroup || !wantG[b.GroupID]) {
			continue
		}
		rep.TalkMs += b.DurationMs
		rep.Bursts++
		tt := entry(terms, b.TalkerID, func() *TerminalTalk { return &TerminalTalk{MsID: b.TalkerID, MsName: t.Name} })
		tt.TalkMs += b.DurationMs
		tt.Bursts++
		switch {
		case inGroup:
			tt.GroupMs += b.DurationMs
			g := entry(groups, b.GroupID, func() *GroupTalk {
				return &GroupTalk{GID: strconv.FormatInt(b.GroupID, 10), Kind: b.Kind}
			})
			g.GName = b.GroupName // bursts come oldest first: the latest name wins
			g.TalkMs += b.DurationMs
			g.Bursts++
		case b.Kind == Single:
			tt.SingleMs += b.DurationMs
		default:
			tt.OtherMs += b.DurationMs
		}
		day := timerange.Day(b.Started, loc)
		d := entry(days, day, func() *DayTalk { return &DayTalk{Day: day} })
		d.TalkMs += b.DurationMs
		d.Bursts++
	}
	rep.Terminals = sortedValues(terms, func(a, b TerminalTalk) bool {
		return a.TalkMs > b.TalkMs || (a.TalkMs == b.TalkMs && a.MsID < b.MsID)
	})
	rep.Groups = sortedValues(groups, func(a, b GroupTalk) bool {
		return a.TalkMs > b.TalkMs || (a.TalkMs == b.TalkMs && a.GID < b.GID)
	})
	rep.Days = sortedValues(days, func(a, b DayTalk) bool { return a.Day < b.Day })
	return rep
}

// entry is m's tally for k, made by fresh on its first burst.
func entry[K comparable, V any](m map[K]*V, k K, fresh func() *V) *V {
	v := m[k]
	if v == nil {
		v = fresh()
		m[k] = v
	}
	return v
}

// sortedValues lists the tallies of m in the report's order (never nil: an empty report lists [], not null).
func sortedValues[K comparable, V any](m map[K]*V, less func(a, b V) bool) []V {
	out := make([]V, 0, len(m))
	for _, v := range m {
		out = append(out, *v)
	}
	sort.Slice(out, func(i, j int) bool { return less(out[i], out[j]) })
	return out
}

type durationReq struct {
	MsIDs flex.List `json:"msIds"`
	GIDs  flex.List `json:"gids"`
	timerange.Params
}

// POST /ds/report/findCallDurationPost {msIds?, gids?, sTime, eTime} → DurationReport.
func (s *Service) findCallDuration(ctx context.Context, p identity.Principal, req durationReq) (any, error) {
	ids, err := httpx.IDs("msIds", req.MsIDs, 1000, false)
	if err != nil {
		return nil, err
	}
	gids, err := httpx.RowIDs("gids", req.GIDs, 1000, false)
	if err != nil {
		return nil, err
	}
	rg, loc, err := req.ForCustomer(ctx, s.db, p.CustomerID, timerange.Month)
	if err != nil {
		return nil, err
	}
	bursts, err := s.store.Bursts(ctx, p.CustomerID, rg.From, rg.To)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var talkerIDs []string
	for _, b := range bursts {
		if !seen[b.TalkerID] {
			seen[b.TalkerID] = true
			talkerIDs = append(talkerIDs, b.TalkerID)
		}
	}
	accts, err := s.store.Accounts(ctx, p.CustomerID, talkerIDs)
	if err != nil {
		return nil, err
	}
	talkers := make(map[string]Talker, len(accts))
	for _, a := range accts {
		talkers[a.ID] = Talker{Name: a.Name, Counts: !a.Dispatcher() && s.VoicePermitted(a.ID)}
	}
	rep := SumTalk(bursts, talkers, ids, gids, loc)
	rep.STime, rep.ETime = rg.From, rg.To
	return rep, nil
}

// SeedBursts stores past bursts inside tx (the demo's talk history; internal/demo).
func SeedBursts(ctx context.Context, tx *db.Tx, list []Burst) error {
	for _, b := range list {
		if _, err := tx.Exec(ctx, `INSERT INTO voice_bursts (customer_id, call_id, kind, group_id, group_name, talker_id,
			started_at, duration_ms, recorded) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, b.Customer, b.CallID, string(b.Kind),
			b.GroupID, b.GroupName, b.TalkerID, b.Started, b.DurationMs, b.NotRecorded); err != nil {
			return err
		}
	}
	return nil
}
