package call

// The call records over HTTP: the record search, a call's bursts, and the recordings themselves.

import (
	"context"
	"net/http"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"tenfour/internal/oplog"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/tenant"
)

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

// callByUTCReq is the request of POST /ds/data/callByUTCPost and GET /ds/data/callByUTC.
type callByUTCReq struct {
	STime string `json:"stime"`
	ETime string `json:"etime"`
	MsID  string `json:"msId"`
	GID   string `json:"gid"`
	Type  string `json:"type"`
	httpx.PageReq
}

func (s *Service) callByUTC(ctx context.Context, p identity.Principal, req callByUTCReq) (any, error) {
	from, to, err := s.timeRange(ctx, p.CustomerID, req.STime, req.ETime)
	if err != nil {
		return nil, err
	}
	q := RecordQuery{From: from, To: to, MsID: strings.TrimSpace(req.MsID), Kind: Kind(req.Type)}
	if q.Kind != "" && !q.Kind.valid() {
		return nil, httpx.BadParam("type", "single, group, temp, all or broadcast")
	}
	if req.GID != "" {
		if q.GroupID, err = httpx.Int("gid", req.GID); err != nil {
			return nil, err
		}
	}
	if q.Offset, q.Limit, err = req.Paging(); err != nil {
		return nil, err
	}
	list, total, err := s.store.Records(ctx, p.CustomerID, q)
	if err != nil {
		return nil, err
	}
	out := make([]RecordView, len(list))
	for i, rec := range list {
		out[i] = recordView(rec)
	}
	s.log.By(ctx, p, oplog.VoiceSearch, "voice records "+time.UnixMilli(from).UTC().Format(time.DateTime)+
		" – "+time.UnixMilli(to).UTC().Format(time.DateTime),
		oplog.D("voiceSearch", "start", strconv.FormatInt(from, 10), "end", strconv.FormatInt(to, 10)))
	return httpx.PageOf(out, total), nil
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
	loc, err := tenant.TimeZone(ctx, s.db, customer)
	if err != nil {
		return 0, 0, err
	}
	a, b := time.UnixMilli(from).In(loc), time.UnixMilli(to).In(loc)
	if a.Year() != b.Year() || a.Month() != b.Month() {
		return 0, 0, ErrCrossMonth
	}
	return from, to, nil
}

// voicePostReq is the request of POST /ds/data/voicePost.
type voicePostReq struct {
	CallID string `json:"callid"`
	BTime  string `json:"btime"`
}

func (s *Service) voicePost(ctx context.Context, p identity.Principal, req voicePostReq) (any, error) {
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
	list, err := s.store.CallRecords(ctx, p.CustomerID, req.CallID, btime)
	if err != nil {
		return nil, err
	}
	out := make([]RecordView, len(list))
	for i, rec := range list {
		out[i] = recordView(rec)
	}
	s.log.By(ctx, p, oplog.VoiceQuery, "call "+req.CallID, oplog.D("voiceQuery", "call", req.CallID))
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
	name := callID + "-" + bt + ".ogg"
	opened := func() {
		if httpx.Download(r) {
			s.log.By(r.Context(), p, oplog.VoiceDownload, name, oplog.D("voiceDownload", "call", callID, "burst", bt))
		} else if rg := r.Header.Get("Range"); rg == "" || rg == "bytes=0-" {
			s.log.By(r.Context(), p, oplog.VoiceQuery2, name, oplog.D("voicePlayed", "call", callID, "burst", bt)) // once per playback, not per range
		}
	}
	httpx.ServeStored(w, r, httpx.StoredFile{Path: filepath.Join(s.opts.DataDir, rec.Path), Name: name, Type: "audio/ogg", Cache: "private, max-age=3600", Opened: opened}, ErrNoFile)
}
