package tone

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
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
)

// Socket types.
const (
	ReqSend  = "tone.send" // console → server {toneId, msIds?, gid?}
	TermPlay = "tone.play" // server → terminal request; the terminal acknowledges once it plays
)

// Service is the tone library and tone sending.
type Service struct {
	Store *Store
	files *files.Service
	hub   *realtime.Hub
	log   *oplog.Log
	dir   Directory
	now   func() time.Time
}

// Directory is what tones read of terminals and groups (internal/directory's Store).
type Directory interface {
	CheckTerminal(ctx context.Context, c directory.CustomerID, id directory.TerminalID) (directory.Account, error)
	GroupTerminals(ctx context.Context, c directory.CustomerID, gid directory.GroupID) ([]directory.TerminalID, error)
}

// New builds the service.
func New(d *db.DB, dir Directory, f *files.Service, hub *realtime.Hub, log *oplog.Log) *Service {
	return &Service{Store: NewStore(d), files: f, hub: hub, log: log, dir: dir, now: time.Now}
}

// Routes mounts spec §7 "Tones".
func (s *Service) Routes(r httpx.Router) {
	r.Console("POST /ds/tone/add", httpx.Bind(s.add))
	r.Console("PUT /ds/tone/update", httpx.Bind(s.update))
	r.Console("GET /ds/tone/list", httpx.Bind(s.list))
	r.Console("DELETE /ds/tone/delete", httpx.Bind(s.delete))
}

// Verbs: `tone.send` from consoles, `tone.play` to terminals (docs/console-socket.md, docs/terminal-protocol.md "Tones").
func (s *Service) Verbs() []realtime.Verb {
	return []realtime.Verb{
		realtime.On(ReqSend, realtime.ConsoleOnly, s.sockSend),
		realtime.Ask(TermPlay, realtime.TerminalOnly),
	}
}

type toneForm struct {
	ID       string  `json:"id"`
	Name     *string `json:"name"`
	FileURL  *string `json:"fileUrl"`
	AudioURL *string `json:"audioUrl"`
	FileID   *string `json:"fileId"`
	IconURL  *string `json:"iconUrl"`
	IconID   *string `json:"iconId"`
	Sort     *string `json:"sort"`
}

func firstPtr(ps ...*string) *string {
	for _, p := range ps {
		if p != nil {
			return p
		}
	}
	return nil
}

// attachment is the rule of one of a tone's files: its kind, its largest size and the answer when it is missing.
type attachment struct {
	kind    files.Kind
	max     int64
	missing error
}

var (
	sound = attachment{kind: files.Audio, max: MaxFileSize, missing: ErrFileRequired}
	icon  = attachment{kind: files.Image, max: MaxIconSize, missing: ErrIconRequired}
)

// attach checks the file ref names (nil: the form leaves cur as it is) against the rule and returns the id the
// tone keeps; a tone always has both files.
func (s *Service) attach(ctx context.Context, p identity.Principal, cur string, ref *string, a attachment) (string, error) {
	if ref != nil {
		if strings.TrimSpace(*ref) == "" {
			return "", a.missing
		}
		info, err := s.file(ctx, p, *ref)
		if err != nil {
			return "", err
		}
		if info.Kind != a.kind {
			return "", ErrFileType
		}
		if info.Size > a.max {
			return "", ErrTooLarge
		}
		cur = info.ID
	}
	if cur == "" {
		return "", a.missing
	}
	return cur, nil
}

// apply checks the form's fields over t (the current tone, or a new one): given fields replace, absent keep.
func (s *Service) apply(ctx context.Context, p identity.Principal, t *Tone, f toneForm) error {
	if f.Name != nil {
		name, err := nameField.Check(*f.Name)
		if err != nil {
			return err
		}
		t.Name = name
	}
	if t.Name == "" {
		return ErrNameRequired
	}
	var err error
	if t.FileID, err = s.attach(ctx, p, t.FileID, firstPtr(f.FileID, f.FileURL, f.AudioURL), sound); err != nil {
		return err
	}
	if t.IconID, err = s.attach(ctx, p, t.IconID, firstPtr(f.IconID, f.IconURL), icon); err != nil {
		return err
	}
	if f.Sort != nil && strings.TrimSpace(*f.Sort) != "" {
		n, err := strconv.Atoi(strings.TrimSpace(*f.Sort))
		if err != nil || n < 0 || n > MaxSort {
			return httpx.BadParam("sort", "0 to 9999")
		}
		t.Sort = n
	}
	return nil
}

// file resolves a reference to one of the caller's customer's uploads (404 for anything else).
func (s *Service) file(ctx context.Context, p identity.Principal, ref string) (files.Info, error) {
	id := files.Ref(ref)
	if id == "" {
		return files.Info{}, httpx.ErrNotFound
	}
	return s.files.Get(ctx, p.CustomerID, id)
}

// POST /ds/tone/add {name, fileUrl, iconUrl, sort} → Tone
func (s *Service) add(ctx context.Context, p identity.Principal, f toneForm) (any, error) {
	if f.Name == nil {
		return nil, ErrNameRequired
	}
	t := Tone{CreateBy: p.AccountID}
	if err := s.apply(ctx, p, &t, f); err != nil {
		return nil, err
	}
	id, err := s.Store.Save(ctx, p.CustomerID, t, s.now().UnixMilli())
	if err != nil {
		return nil, err
	}
	return s.Store.Get(ctx, p.CustomerID, id)
}

// PUT /ds/tone/update {id, name?, fileUrl?, iconUrl?, sort?} → Tone (absent fields keep their value)
func (s *Service) update(ctx context.Context, p identity.Principal, f toneForm) (any, error) {
	id, err := httpx.RowID[int64]("id", f.ID)
	if err != nil {
		return nil, err
	}
	t, err := s.Store.Get(ctx, p.CustomerID, id)
	if err != nil {
		return nil, err
	}
	if err := s.apply(ctx, p, &t, f); err != nil {
		return nil, err
	}
	if _, err := s.Store.Save(ctx, p.CustomerID, t, s.now().UnixMilli()); err != nil {
		return nil, err
	}
	return s.Store.Get(ctx, p.CustomerID, id)
}

type listReq struct {
	CreateBy string `json:"createBy"`
}

// GET /ds/tone/list {createBy} → {total, list:[Tone]}
func (s *Service) list(ctx context.Context, p identity.Principal, req listReq) (any, error) {
	list, err := s.Store.List(ctx, p.CustomerID, strings.TrimSpace(req.CreateBy))
	if err != nil {
		return nil, err
	}
	return httpx.All(list), nil
}

type deleteReq struct {
	ID string `json:"id"`
}

// DELETE /ds/tone/delete {id} → {id}
func (s *Service) delete(ctx context.Context, p identity.Principal, req deleteReq) (any, error) {
	id, err := httpx.RowID[int64]("id", req.ID)
	if err != nil {
		return nil, err
	}
	if err := s.Store.Delete(ctx, p.CustomerID, id); err != nil {
		return nil, err
	}
	return map[string]any{"id": strconv.FormatInt(id, 10)}, nil
}

// SendRequest is the data of `tone.send`: a tone and at least one target (terminals, a group, or both).
type SendRequest struct {
	ToneID flex.String `json:"toneId"`
	MsIDs  flex.List   `json:"msIds"`
	GID    flex.String `json:"gid"`
}

// SendResult is the reply data of `tone.send`.
type SendResult struct {
	ToneID     string   `json:"toneId"`
	Recipients int      `json:"recipients"`
	Online     int      `json:"online"`
	Delivered  int      `json:"delivered"`
	Failed     []string `json:"failed"` // terminals that did not acknowledge (offline, timed out or refused)
	State      string   `json:"state"`  // pending | partial | delivered
}

// Play is the data of `tone.play` to a terminal.
type Play struct {
	ToneID  string `json:"toneId"`
	Name    string `json:"name"`
	FileURL string `json:"fileUrl"` // with ?token= (a file token for this terminal)
	IconURL string `json:"iconUrl"`
	Mime    string `json:"mime"`
	Size    int64  `json:"size"`
	GID     string `json:"gid,omitempty"`
	By      string `json:"by"`
	ByName  string `json:"byName"`
	Time    int64  `json:"time"`
}

// maxTargets bounds the terminals one tone.send names.
const maxTargets = 1000

func (s *Service) sockSend(ctx context.Context, c *realtime.Conn, req SendRequest) (any, error) {
	return s.Send(ctx, c.Principal(), req)
}

// Send plays a tone on terminals now: every connected target is asked (`tone.play`) and the answer counts
// the acknowledgements within one ack timeout. A tone is not kept for terminals that are offline. A single
// terminal that did not acknowledge answers its error ('not online' "4", "408", refused "16"). Log 129.
func (s *Service) Send(ctx context.Context, p identity.Principal, req SendRequest) (SendResult, error) {
	tid, err := httpx.RowID[int64]("toneId", string(req.ToneID))
	if err != nil {
		return SendResult{}, err
	}
	ids := slices.DeleteFunc(slices.Clone(req.MsIDs), func(id string) bool { return id == "" })
	if len(ids) > maxTargets {
		return SendResult{}, httpx.BadParam("msIds", "a list of terminal ids")
	}
	gidRef := string(req.GID)
	if len(ids) == 0 && gidRef == "" {
		return SendResult{}, httpx.BadParam("msIds", "msIds or gid required")
	}
	t, err := s.Store.Get(ctx, p.CustomerID, tid)
	if err != nil {
		return SendResult{}, err
	}
	targets := []string{}
	for _, id := range ids {
		if len(id) > 32 {
			return SendResult{}, httpx.ErrNotFound
		}
		if _, err := s.dir.CheckTerminal(ctx, directory.CustomerID(p.CustomerID), directory.TerminalID(id)); err != nil {
			return SendResult{}, err
		}
		targets = append(targets, id)
	}
	var gid int64
	if gidRef != "" {
		if gid, err = strconv.ParseInt(gidRef, 10, 64); err != nil || gid <= 0 {
			return SendResult{}, httpx.BadParam("gid", "a group id")
		}
		members, err := s.dir.GroupTerminals(ctx, directory.CustomerID(p.CustomerID), directory.GroupID(gid))
		if err != nil {
			return SendResult{}, err
		}
		targets = append(targets, directory.Strings(members)...)
	}
	slices.Sort(targets)
	targets = slices.Compact(targets)

	play := Play{ToneID: t.ID, Name: t.Name, Mime: t.FileMime, Size: t.FileSize, By: p.AccountID, ByName: p.Name,
		Time: s.now().UnixMilli()}
	if gid != 0 {
		play.GID = strconv.FormatInt(gid, 10)
	}
	res := SendResult{ToneID: t.ID, Recipients: len(targets), Failed: []string{}}
	errs := s.relay(ctx, p.CustomerID, t, play, targets, &res)
	for i, err := range errs {
		if err != nil {
			res.Failed = append(res.Failed, targets[i])
		}
	}
	res.State = "delivered"
	switch {
	case res.Delivered == 0 && res.Recipients > 0:
		res.State = "pending"
	case res.Delivered < res.Recipients:
		res.State = "partial"
	}
	where := fmt.Sprintf("group %d", gid)
	if len(ids) > 0 {
		where = strings.Join(ids, ", ")
		if gid != 0 {
			where += fmt.Sprintf(" and group %d", gid)
		}
	}
	s.log.By(ctx, p, oplog.ToneSent, fmt.Sprintf("tone %q to %s (%d of %d played)", t.Name, where, res.Delivered, res.Recipients),
		toneDetail(t.Name, ids, gid, res))
	if len(ids) == 1 && gid == 0 && res.Delivered == 0 {
		return res, errs[0]
	}
	return res, nil
}

// relay asks every connected target to play the tone (with file links of its own token) and records the
// acknowledgements; it returns one error per target (nil when played).
func (s *Service) relay(ctx context.Context, customerID int64, t Tone, play Play, targets []string, res *SendResult) []error {
	errs, online, acked := s.hub.AskEach(ctx, customerID, targets, func(ctx context.Context, c realtime.Peer) error {
		tok, _ := s.files.IssueToken(c.Principal())
		data := play
		data.FileURL = t.FileURL + "?token=" + tok
		data.IconURL = t.IconURL + "?token=" + tok
		_, err := c.Request(ctx, TermPlay, data)
		if err != nil && !errors.Is(err, realtime.ErrNotOnline) && !errors.Is(err, realtime.ErrTimeout) {
			if _, coded := httpx.AsError(err); coded {
				err = ErrRefused
			}
		}
		return err
	})
	res.Online, res.Delivered = online, acked
	return errs
}

// ErrRefused is a terminal's refusal to play (spec client message "failure").
var ErrRefused = httpx.E(http.StatusConflict, "16", "errors.tone.failed", "the terminal refused the tone")

// toneDetail is the log detail of a tone sent to terminals, a group or both.
func toneDetail(name string, ids []string, gid int64, res SendResult) oplog.Detail {
	delivered, recipients := strconv.Itoa(res.Delivered), strconv.Itoa(res.Recipients)
	group, terminals := strconv.FormatInt(gid, 10), strings.Join(ids, ",")
	switch {
	case len(ids) == 0:
		return oplog.D("toneToGroup", "name", name, "group", group, "delivered", delivered, "recipients", recipients)
	case gid == 0:
		return oplog.D("toneToTerminals", "name", name, "terminals", terminals, "delivered", delivered, "recipients", recipients)
	}
	return oplog.D("toneToTerminalsAndGroup", "name", name, "terminals", terminals, "group", group,
		"delivered", delivered, "recipients", recipients)
}
