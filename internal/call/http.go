package call

import (
	"context"
	"errors"
	"log/slog"
	"math"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"tenfour/internal/oplog"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
)

// Routes mounts the call records, voice files, mute list and missed calls (spec §7 "Call records", "Mute").
func (s *Service) Routes(mux *http.ServeMux, require func(http.Handler) http.Handler) {
	mux.Handle("POST /ds/data/callByUTCPost", require(httpx.Handle(s.callByUTC)))
	mux.Handle("GET /ds/data/callByUTC", require(httpx.Handle(s.callByUTC)))
	mux.Handle("POST /ds/data/voicePost", require(httpx.Handle(s.voicePost)))
	mux.Handle("GET /ds/data/voice", require(http.HandlerFunc(s.voice)))
	mux.Handle("POST /ds/mute/add", require(httpx.Handle(s.muteAdd)))
	mux.Handle("DELETE /ds/mute/delete", require(httpx.Handle(s.muteDelete)))
	mux.Handle("GET /ds/mute/list", require(httpx.Handle(s.muteList)))
	mux.Handle("GET /ds/call/missed", require(httpx.Handle(s.missedList)))
	mux.Handle("DELETE /ds/call/missed", require(httpx.Handle(s.missedClear)))
}

// RecordView is a call record as the console lists it (one talk burst).
type RecordView struct {
	ID            string `json:"id"`
	CallID        string `json:"callid"`
	BTime         int64  `json:"btime"`
	ETime         int64  `json:"etime"`
	Type          Kind   `json:"type"`
	GID           string `json:"gid"`
	GName         string `json:"gName"`
	Peers         string `json:"peers"`
	MsID          string `json:"msId"`
	MsName        string `json:"msName"`
	Duration      int64  `json:"duration"` // ms
	Quality       string `json:"quality"`
	Size          int64  `json:"size"`
	Playable      bool   `json:"playable"`
	URL           string `json:"url,omitempty"`
	AccessUs      int64  `json:"accessUs"`
	FirstPacketUs int64  `json:"firstPacketUs"`
	DelayP99Us    int64  `json:"delayP99Us"`
}

func recordView(r Record) RecordView {
	v := RecordView{ID: strconv.FormatInt(r.ID, 10), CallID: r.CallID, BTime: r.Started, ETime: r.Started + r.DurationMs,
		Type: r.Kind, GName: r.GroupName, Peers: r.PeerIDs, MsID: r.TalkerID, MsName: r.TalkerName,
		Duration: r.DurationMs, Quality: r.Quality, Size: r.Size, Playable: r.Quality == "HD", AccessUs: r.AccessUs,
		FirstPacketUs: r.FirstPacketUs, DelayP99Us: r.DelayP99Us}
	if r.GroupID != 0 {
		v.GID = strconv.FormatInt(r.GroupID, 10)
	}
	if v.Playable {
		v.URL = "/ds/data/voice?" + url.Values{"callid": {r.CallID}, "btime": {strconv.FormatInt(r.Started, 10)}}.Encode()
	}
	return v
}

func (s *Service) callByUTC(w http.ResponseWriter, r *http.Request) (any, error) {
	var req struct {
		STime    string `json:"stime"`
		ETime    string `json:"etime"`
		MsID     string `json:"msId"`
		GID      string `json:"gid"`
		Type     string `json:"type"`
		PageNo   string `json:"pageNo"`
		PageSize string `json:"pageSize"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	p := identity.Must(r.Context())
	from, to, err := s.timeRange(r.Context(), p.CustomerID, req.STime, req.ETime)
	if err != nil {
		return nil, err
	}
	q := RecordQuery{From: from, To: to, MsID: strings.TrimSpace(req.MsID), Kind: Kind(req.Type), Limit: 1000}
	if q.Kind != "" && !q.Kind.valid() {
		return nil, httpx.BadParam("type", "single, group, temp, all or broadcast")
	}
	if req.GID != "" {
		if q.GroupID, err = httpx.Int("gid", req.GID); err != nil {
			return nil, err
		}
	}
	page := int64(1)
	if req.PageNo != "" {
		if page, err = httpx.Int("pageNo", req.PageNo); err != nil || page < 1 {
			return nil, httpx.BadParam("pageNo", "from 1")
		}
	}
	if req.PageSize != "" {
		size, err := httpx.Int("pageSize", req.PageSize)
		if err != nil || size < 1 || size > 1000 {
			return nil, httpx.BadParam("pageSize", "1 to 1000")
		}
		q.Limit = int(size)
	}
	q.Offset = int(page-1) * q.Limit
	list, total, err := s.store.Records(r.Context(), p.CustomerID, q)
	if err != nil {
		return nil, err
	}
	out := make([]RecordView, len(list))
	for i, rec := range list {
		out[i] = recordView(rec)
	}
	s.log.By(r.Context(), p, oplog.VoiceSearch, "voice records "+time.UnixMilli(from).UTC().Format(time.DateTime)+
		" – "+time.UnixMilli(to).UTC().Format(time.DateTime))
	return map[string]any{"total": total, "list": out}, nil
}

// timeRange checks a query's range (spec §5): both ends required, start not after end, at most MaxQueryDays,
// and within one month of the customer's time zone (cross-month queries are not supported).
func (s *Service) timeRange(ctx context.Context, customer int64, st, et string) (int64, int64, error) {
	if err := httpx.Required("stime", st); err != nil {
		return 0, 0, err
	}
	if err := httpx.Required("etime", et); err != nil {
		return 0, 0, err
	}
	from, err := httpx.Int("stime", st)
	if err != nil {
		return 0, 0, err
	}
	to, err := httpx.Int("etime", et)
	if err != nil {
		return 0, 0, err
	}
	if from > to {
		return 0, 0, httpx.BadParam("stime", "start after end")
	}
	if time.Duration(to-from)*time.Millisecond > time.Duration(s.opts.MaxQueryDays)*24*time.Hour {
		return 0, 0, ErrRangeTooLong
	}
	tz, err := s.store.CustomerTimeZone(ctx, customer)
	if err != nil {
		return 0, 0, err
	}
	loc := time.FixedZone("customer", int(math.Round(tz*3600)))
	a, b := time.UnixMilli(from).In(loc), time.UnixMilli(to).In(loc)
	if a.Year() != b.Year() || a.Month() != b.Month() {
		return 0, 0, ErrCrossMonth
	}
	return from, to, nil
}

func (s *Service) voicePost(w http.ResponseWriter, r *http.Request) (any, error) {
	var req struct {
		CallID string `json:"callid"`
		BTime  string `json:"btime"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	if err := httpx.Required("callid", req.CallID); err != nil {
		return nil, err
	}
	var btime int64
	if req.BTime != "" {
		var err error
		if btime, err = httpx.Int("btime", req.BTime); err != nil {
			return nil, err
		}
	}
	p := identity.Must(r.Context())
	list, err := s.store.CallRecords(r.Context(), p.CustomerID, req.CallID, btime)
	if err != nil {
		return nil, err
	}
	out := make([]RecordView, len(list))
	for i, rec := range list {
		out[i] = recordView(rec)
	}
	s.log.By(r.Context(), p, oplog.VoiceQuery, "call "+req.CallID)
	return map[string]any{"list": out}, nil
}

// voice serves one recording (Ogg Opus) with range requests; `download=1` makes it an attachment.
func (s *Service) voice(w http.ResponseWriter, r *http.Request) {
	p := identity.Must(r.Context())
	q := r.URL.Query()
	callID, bt := q.Get("callid"), q.Get("btime")
	if callID == "" || bt == "" {
		httpx.WriteError(w, r, httpx.BadParam("callid", "callid and btime required"))
		return
	}
	btime, err := httpx.Int("btime", bt)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	list, err := s.store.CallRecords(r.Context(), p.CustomerID, callID, btime)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if len(list) == 0 {
		httpx.WriteError(w, r, db.ErrNotFound)
		return
	}
	rec := list[0]
	if rec.Quality != "HD" {
		httpx.WriteError(w, r, ErrSDNotPlayable)
		return
	}
	f, err := os.Open(filepath.Join(s.opts.DataDir, rec.Path))
	if err != nil {
		httpx.WriteError(w, r, ErrNoFile)
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		httpx.WriteError(w, r, ErrNoFile)
		return
	}
	name := callID + "-" + bt + ".ogg"
	download := q.Get("download") == "1" || q.Get("download") == "true"
	if download {
		w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
		s.log.By(r.Context(), p, oplog.VoiceDownload, name)
	} else if rg := r.Header.Get("Range"); rg == "" || rg == "bytes=0-" {
		s.log.By(r.Context(), p, oplog.VoiceQuery2, name) // once per playback, not per range
	}
	w.Header().Set("Content-Type", "audio/ogg")
	w.Header().Set("Cache-Control", "private, max-age=3600")
	http.ServeContent(w, r, name, st.ModTime(), f)
}

// ErrMuteSelf is a mute entry of an account for itself.
var ErrMuteSelf = httpx.BadParam("muteId", "an account cannot mute itself")

// muteAllowed: the mute list is for account type "1" only (spec §6).
func muteAllowed(p identity.Principal) error {
	if p.AcctType != "1" {
		return ErrPermission
	}
	return nil
}

func (s *Service) muteAdd(w http.ResponseWriter, r *http.Request) (any, error) {
	var req struct {
		MsID   string `json:"msId"`
		MuteID string `json:"muteId"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	p := identity.Must(r.Context())
	if err := muteAllowed(p); err != nil {
		return nil, err
	}
	if req.MsID == "" {
		req.MsID = p.AccountID // the dispatcher's own mute list
	}
	if err := httpx.Required("muteId", req.MuteID); err != nil {
		return nil, err
	}
	if req.MsID == req.MuteID {
		return nil, ErrMuteSelf
	}
	accts, err := s.store.Accounts(r.Context(), p.CustomerID, []string{req.MsID, req.MuteID})
	if err != nil {
		return nil, err
	}
	if len(accts) != 2 {
		return nil, ErrNotFound
	}
	id, err := s.store.AddMute(r.Context(), p.CustomerID, req.MsID, req.MuteID, time.Now().UnixMilli())
	if err != nil {
		return nil, err
	}
	s.setMute(p.CustomerID, req.MsID, req.MuteID, true)
	return map[string]string{"id": strconv.FormatInt(id, 10)}, nil
}

func (s *Service) muteDelete(w http.ResponseWriter, r *http.Request) (any, error) {
	var req struct {
		ID     string `json:"id"`
		MsID   string `json:"msId"`
		MuteID string `json:"muteId"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	p := identity.Must(r.Context())
	if err := muteAllowed(p); err != nil {
		return nil, err
	}
	var id int64
	if req.ID != "" {
		var err error
		if id, err = httpx.Int("id", req.ID); err != nil {
			return nil, err
		}
	} else if req.MuteID == "" {
		return nil, httpx.BadParam("id", "id, or msId and muteId")
	} else if req.MsID == "" {
		req.MsID = p.AccountID
	}
	msID, muteID, err := s.store.DeleteMute(r.Context(), p.CustomerID, id, req.MsID, req.MuteID)
	if errors.Is(err, db.ErrNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	s.setMute(p.CustomerID, msID, muteID, false)
	return struct{}{}, nil
}

func (s *Service) muteList(w http.ResponseWriter, r *http.Request) (any, error) {
	var req struct {
		MsID string `json:"msId"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	p := identity.Must(r.Context())
	if err := muteAllowed(p); err != nil {
		return nil, err
	}
	list, err := s.store.Mutes(r.Context(), p.CustomerID, req.MsID)
	if err != nil {
		return nil, err
	}
	return map[string]any{"list": list}, nil
}

// setMute applies a mute-list change to live routing at once.
func (s *Service) setMute(customer int64, msID, muteID string, on bool) {
	_ = s.locked(func(f *fx) error {
		set := s.mutes[msID]
		if on {
			if set == nil {
				set = map[string]bool{}
				s.mutes[msID] = set
			}
			set[muteID] = true
		} else if set != nil {
			delete(set, muteID)
		}
		s.recomputeLocked(customer)
		return nil
	})
}

func (s *Service) missedList(w http.ResponseWriter, r *http.Request) (any, error) {
	var req struct {
		STime string `json:"stime"`
		ETime string `json:"etime"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	from, to := int64(0), int64(math.MaxInt64)
	var err error
	if req.STime != "" {
		if from, err = httpx.Int("stime", req.STime); err != nil {
			return nil, err
		}
	}
	if req.ETime != "" {
		if to, err = httpx.Int("etime", req.ETime); err != nil {
			return nil, err
		}
	}
	p := identity.Must(r.Context())
	list, err := s.store.MissedCalls(r.Context(), p.CustomerID, p.AccountID, from, to, 300)
	if err != nil {
		return nil, err
	}
	return map[string]any{"list": list}, nil
}

func (s *Service) missedClear(w http.ResponseWriter, r *http.Request) (any, error) {
	var req struct {
		ID string `json:"id"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	var id int64
	if req.ID != "" {
		var err error
		if id, err = httpx.Int("id", req.ID); err != nil {
			return nil, err
		}
	}
	p := identity.Must(r.Context())
	return struct{}{}, s.store.ClearMissed(r.Context(), p.CustomerID, p.AccountID, id)
}

// RunRetention deletes recordings older than the retention setting, files and rows together, hourly.
func (s *Service) RunRetention(ctx context.Context) {
	if s.opts.Retention <= 0 {
		return
	}
	t := time.NewTicker(time.Hour)
	defer t.Stop()
	for {
		if _, err := s.PruneRecordings(ctx, time.Now().Add(-s.opts.Retention)); err != nil && ctx.Err() == nil {
			slog.Error("voice: retention", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// PruneRecordings deletes the recordings that started before cutoff; it returns how many.
func (s *Service) PruneRecordings(ctx context.Context, cutoff time.Time) (int, error) {
	total := 0
	for {
		n, err := s.store.DeleteOlder(ctx, cutoff.UnixMilli(), 500, s.removeRecording)
		total += n
		if err != nil || n < 500 {
			return total, err
		}
	}
}
