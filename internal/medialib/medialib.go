// Package medialib is the media cloud (spec §2 /medias, §7 "POST /ds/mediaLib/list"): photos, videos and audio
// that terminals upload through the file service (with a socket-issued file token) and then register with
// `media.uploaded`; consoles list them, get `media.added` as they arrive and `media.removed` as a dispatcher
// deletes one (logged, type 142).
package medialib

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strconv"
	"strings"
	"time"

	"tenfour/internal/directory"
	"tenfour/internal/files"
	"tenfour/internal/oplog"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/realtime"
	"tenfour/internal/platform/timerange"
)

// Socket types.
const (
	ReqUploaded  = "media.uploaded" // terminal → server
	EventAdded   = "media.added"    // server → consoles, durable
	EventRemoved = "media.removed"  // server → consoles, durable
)

// Item is one entry of the media cloud.
type Item struct {
	ID         string   `json:"id"`
	MsID       string   `json:"msId"`
	MsName     string   `json:"msName"`
	FileID     string   `json:"fileId"`
	Kind       string   `json:"kind"` // image | video | audio
	Mime       string   `json:"mime"`
	Name       string   `json:"name"`
	Size       int64    `json:"size"`
	URL        string   `json:"url"`
	Lat        *float64 `json:"lat,omitempty"`
	Lng        *float64 `json:"lng,omitempty"`
	Time       int64    `json:"time"`       // when the terminal took it (UTC ms)
	CreateTime int64    `json:"createTime"` // when it was registered
	// Camera and CameraName: a camera snapshot a dispatcher took in the console (KeepShot) names its camera (the
	// stream id and the camera's name then); MsID and MsName are then the dispatcher who took it.
	Camera     string `json:"camera,omitempty"`
	CameraName string `json:"cameraName,omitempty"`
}

// Service is the media cloud.
type Service struct {
	db    *db.DB
	dir   Directory
	files *files.Service
	hub   *realtime.Hub
	log   *oplog.Log
	now   func() time.Time
}

// Directory is what the media cloud reads of accounts (internal/directory's Store).
type Directory interface {
	Names(ctx context.Context, c directory.CustomerID, ids []directory.TerminalID) (map[directory.TerminalID]string, error)
}

// New builds the service.
func New(d *db.DB, dir Directory, f *files.Service, hub *realtime.Hub, log *oplog.Log) *Service {
	return &Service{db: d, dir: dir, files: f, hub: hub, log: log, now: time.Now}
}

// Routes mounts spec §7 "POST /ds/mediaLib/list" and this server's delete (the media cloud's space in the
// customer's storage quota comes back with it).
func (s *Service) Routes(r httpx.Router) {
	r.Console("POST /ds/mediaLib/list", httpx.Bind(s.list))
	r.Console("DELETE /ds/mediaLib/delete", httpx.Bind(s.delete))
}

// Verbs: `media.uploaded` from terminals (docs/terminal-protocol.md "Media uploads"), `media.added` and
// `media.removed` to consoles (docs/console-socket.md).
func (s *Service) Verbs() []realtime.Verb {
	return []realtime.Verb{
		realtime.On(ReqUploaded, realtime.TerminalOnly, s.sockUploaded),
		realtime.Event(EventAdded, realtime.ConsoleOnly),
		realtime.Event(EventRemoved, realtime.ConsoleOnly),
	}
}

// Removed is the data of `media.removed`: the item's id, its terminal and file.
type Removed struct {
	ID     string `json:"id"`
	MsID   string `json:"msId"`
	FileID string `json:"fileId"`
}

// Uploaded is the data of `media.uploaded`.
type Uploaded struct {
	FileID  string   `json:"fileId"`
	FileURL string   `json:"fileUrl"`
	Kind    string   `json:"kind"`
	Lat     *float64 `json:"lat"`
	Lng     *float64 `json:"lng"`
	Time    int64    `json:"time"`
}

func (s *Service) sockUploaded(ctx context.Context, c *realtime.Conn, req Uploaded) (any, error) {
	it, dup, err := s.Record(ctx, c.Principal(), req)
	if err != nil {
		return nil, err
	}
	return map[string]any{"id": it.ID, "duplicate": dup, "item": it}, nil
}

// Record records a terminal's upload in the media cloud and tells the consoles. The file must be one this
// terminal uploaded (404 otherwise) and a photo, video or audio ("72" for any other file). Registering the
// same file again answers the same item (duplicate) and tells nobody again.
func (s *Service) Record(ctx context.Context, p identity.Principal, req Uploaded) (Item, bool, error) {
	ref := req.FileID
	if ref == "" {
		ref = req.FileURL
	}
	if strings.TrimSpace(ref) == "" {
		return Item{}, false, httpx.BadParam("fileId", "required")
	}
	id := files.Ref(ref)
	if id == "" {
		return Item{}, false, httpx.ErrNotFound
	}
	f, err := s.files.Get(ctx, p.CustomerID, id)
	if err != nil {
		return Item{}, false, err
	}
	if f.UploadedBy != p.AccountID {
		return Item{}, false, httpx.ErrNotFound
	}
	if f.Kind != files.Image && f.Kind != files.Video && f.Kind != files.Audio {
		return Item{}, false, files.ErrType
	}
	if req.Kind != "" && req.Kind != string(f.Kind) {
		return Item{}, false, httpx.BadParam("kind", "the uploaded file is "+string(f.Kind))
	}
	lat, lng, err := position(req.Lat, req.Lng)
	if err != nil {
		return Item{}, false, err
	}
	now := s.now()
	at := req.Time
	switch {
	case at == 0:
		at = now.UnixMilli()
	case at < time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli() || at > now.Add(10*time.Minute).UnixMilli():
		return Item{}, false, httpx.BadParam("time", "UTC ms, not before 2000 nor in the future")
	}
	if existing, err := s.byFile(ctx, p.CustomerID, f.ID); err == nil {
		return existing, true, nil
	} else if !errors.Is(err, db.ErrNotFound) {
		return Item{}, false, err
	}
	return s.insert(ctx, p, f, Item{Lat: lat, Lng: lng, Time: at})
}

// insert writes the item of file f, taken by p at it.Time (with its position and camera, if any), and tells the
// consoles; a file registered meanwhile answers the item it has (duplicate) and tells nobody again.
func (s *Service) insert(ctx context.Context, p identity.Principal, f files.Info, it Item) (Item, bool, error) {
	var rowID int64
	err := s.db.WriteRow(ctx, `INSERT INTO media_items (customer_id, ms_id, ms_name, file_id, kind, lat, lng, taken_at, created_at,
		camera, camera_name) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, p.CustomerID, p.AccountID, p.Name, f.ID,
		string(f.Kind), it.Lat, it.Lng, it.Time, s.now().UnixMilli(), it.Camera, it.CameraName).Scan(&rowID)
	if db.IsUniqueViolation(err) {
		it, err := s.byFile(ctx, p.CustomerID, f.ID)
		return it, true, err
	}
	if err != nil {
		return Item{}, false, err
	}
	it, err = s.byFile(ctx, p.CustomerID, f.ID)
	if err != nil {
		return Item{}, false, err
	}
	if _, err := s.hub.PublishDurable(context.WithoutCancel(ctx), p.CustomerID, EventAdded, it, realtime.Consoles); err != nil {
		slog.ErrorContext(ctx, "medialib: publish", "err", err)
	}
	return it, false, nil
}

// Shot is a camera snapshot a dispatcher took in the console (camera's GET /ds/apiZlmk/snap).
type Shot struct {
	Camera     string // the camera's stream id
	CameraName string
	Name       string // the file name, <camera>-YYYYMMDD-HHmmss.jpg as the console names it
	JPEG       []byte
	Time       int64 // when it was taken (UTC ms)
}

// KeepShot keeps a camera snapshot in the media cloud: the picture becomes one of the customer's files (it
// counts in the storage quota: quota.ErrFull when there is no room) and an item with its camera and time, taken
// by the dispatcher; the customer's consoles get `media.added`.
func (s *Service) KeepShot(ctx context.Context, p identity.Principal, shot Shot) (Item, error) {
	f, err := s.files.Save(ctx, p, shot.Name, files.Image, bytes.NewReader(shot.JPEG))
	if err != nil {
		return Item{}, err
	}
	it, _, err := s.insert(ctx, p, f, Item{Time: shot.Time, Camera: shot.Camera, CameraName: shot.CameraName})
	return it, err
}

// position checks an optional position: both or neither, degrees (absolute value ≥ 200: micro-degrees).
func position(lat, lng *float64) (*float64, *float64, error) {
	if lat == nil && lng == nil {
		return nil, nil, nil
	}
	if lat == nil || lng == nil {
		return nil, nil, httpx.BadParam("lat", "lat and lng go together")
	}
	a, o := *lat, *lng
	if math.Abs(a) >= 200 {
		a /= 1e6
	}
	if math.Abs(o) >= 200 {
		o /= 1e6
	}
	if math.IsNaN(a) || math.IsNaN(o) || a < -90 || a > 90 || o < -180 || o > 180 {
		return nil, nil, httpx.BadParam("lat", "out of range")
	}
	return &a, &o, nil
}

const itemCols = `m.id, m.ms_id, m.ms_name, m.file_id, m.kind, f.mime, f.name, f.size, m.lat, m.lng, m.taken_at, m.created_at,
	m.camera, m.camera_name`
const itemFrom = `media_items m JOIN files f ON f.id = m.file_id`

func scanItem(sc db.Scanner) (Item, error) {
	var it Item
	var id int64
	var pos db.Position
	err := sc.Scan(&id, &it.MsID, &it.MsName, &it.FileID, &it.Kind, &it.Mime, &it.Name, &it.Size, &pos.Lat, &pos.Lng, &it.Time, &it.CreateTime,
		&it.Camera, &it.CameraName)
	it.ID = strconv.FormatInt(id, 10)
	it.URL = files.URL(it.FileID)
	it.Lat, it.Lng = pos.Coords()
	return it, err
}

func (s *Service) byFile(ctx context.Context, customerID int64, fileID string) (Item, error) {
	it, err := scanItem(s.db.QueryRow(ctx, `SELECT `+itemCols+` FROM `+itemFrom+` WHERE m.customer_id = ? AND m.file_id = ?`, customerID, fileID))
	return it, db.NotFound(err)
}

// Query selects media-cloud items.
type Query struct {
	MsIDs    []string
	Kind     string
	From, To int64
	Offset   int
	Limit    int
}

// Find returns a page of the customer's items, newest first, and how many match.
func (s *Service) Find(ctx context.Context, customerID int64, q Query) ([]Item, int, error) {
	f := db.Scope("m.customer_id", customerID).Between("m.taken_at", q.From, q.To).If(q.Kind != "", "m.kind = ?", q.Kind)
	if len(q.MsIDs) > 0 {
		f.In("m.ms_id", db.Args(q.MsIDs))
	}
	return db.List(ctx, s.db, db.ListQuery{Select: itemCols, From: itemFrom, Where: f, Order: "m.taken_at DESC, m.id DESC",
		Offset: q.Offset, Limit: q.Limit}, scanItem)
}

// Delete removes one of the customer's items and its file (row and bytes): its size leaves the customer's
// storage quota, the deletion is logged (type 142) and the customer's consoles get `media.removed`. "404" for
// another customer's or an unknown item; files.ErrInUse ("409") when a tone or a floor plan uses the file, and
// then nothing is removed.
func (s *Service) Delete(ctx context.Context, p identity.Principal, id int64) (Item, error) {
	var it Item
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		var err error
		it, err = scanItem(tx.QueryRow(ctx, `SELECT `+itemCols+` FROM `+itemFrom+` WHERE m.id = ? AND m.customer_id = ?`, id, p.CustomerID))
		if err != nil {
			return db.NotFound(err)
		}
		if err := db.OneRow(tx.Exec(ctx, `DELETE FROM media_items WHERE id = ? AND customer_id = ?`, id, p.CustomerID)); err != nil {
			return err
		}
		return s.files.DeleteIn(ctx, tx, p.CustomerID, it.FileID)
	})
	if err != nil {
		return Item{}, err
	}
	s.files.RemoveBytes(ctx, it.FileID)
	// The item is gone whatever happens next: telling and logging outlive a caller that went away.
	bg := context.WithoutCancel(ctx)
	if _, err := s.hub.PublishDurable(bg, p.CustomerID, EventRemoved, Removed{ID: it.ID, MsID: it.MsID, FileID: it.FileID}, realtime.Consoles); err != nil {
		slog.ErrorContext(ctx, "medialib: publish", "err", err)
	}
	if s.log != nil {
		s.log.By(bg, p, oplog.MediaCloud, fmt.Sprintf("media-cloud %s %q of %s deleted", it.Kind, it.Name, it.MsID), deletedDetail(it))
	}
	return it, nil
}

// deletedDetail is the log detail of a deleted item: one key per kind, so each language words it in its grammar.
func deletedDetail(it Item) oplog.Detail {
	switch files.Kind(it.Kind) {
	case files.Image:
		return oplog.D("mediaImageDeleted", "name", it.Name, "terminal", it.MsID)
	case files.Video:
		return oplog.D("mediaVideoDeleted", "name", it.Name, "terminal", it.MsID)
	default:
		return oplog.D("mediaAudioDeleted", "name", it.Name, "terminal", it.MsID)
	}
}

type deleteReq struct {
	ID flex.String `json:"id"`
}

// DELETE /ds/mediaLib/delete {id} → {id}
func (s *Service) delete(ctx context.Context, p identity.Principal, req deleteReq) (any, error) {
	id, err := httpx.RowID[int64]("id", string(req.ID))
	if err != nil {
		return nil, err
	}
	if _, err := s.Delete(ctx, p, id); err != nil {
		return nil, err
	}
	return map[string]string{"id": strconv.FormatInt(id, 10)}, nil
}

type listReq struct {
	MsIDs flex.List `json:"msIds"`
	timerange.Params
	Kind string `json:"kind"`
	httpx.PageReq
}

// POST /ds/mediaLib/list {msIds, sTime, eTime, kind, pageNo, pageSize} → {total, list:[Item]}
func (s *Service) list(ctx context.Context, p identity.Principal, req listReq) (any, error) {
	q := Query{Kind: strings.TrimSpace(req.Kind)}
	switch files.Kind(q.Kind) {
	case "", files.Image, files.Video, files.Audio:
	default:
		return nil, httpx.BadParam("kind", "image, video or audio")
	}
	// Ids are taken in order: the first bad one answers, an unknown id (404) before a malformed one after it.
	var badID error
	for _, id := range req.MsIDs {
		id = strings.TrimSpace(id)
		if id == "" {
			continue
		}
		if len(id) > 32 || len(q.MsIDs) >= 1000 {
			badID = httpx.BadParam("msIds", "at most 1000 ids")
			break
		}
		q.MsIDs = append(q.MsIDs, id)
	}
	ids := directory.TerminalIDs(q.MsIDs)
	names, err := s.dir.Names(ctx, directory.CustomerID(p.CustomerID), ids)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		if _, ok := names[id]; !ok {
			return nil, httpx.ErrNotFound
		}
	}
	if badID != nil {
		return nil, badID
	}
	if q.Offset, q.Limit, err = req.Paging(); err != nil {
		return nil, err
	}
	rg, _, err := req.ForCustomer(ctx, s.db, p.CustomerID, timerange.Month)
	if err != nil {
		return nil, err
	}
	q.From, q.To = rg.From, rg.To
	return httpx.ListOf(s.Find(ctx, p.CustomerID, q))
}
