package camera

import (
	"context"
	"encoding/base64"
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"

	"tenfour/internal/medialib"
	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/timerange"
)

// Routes mounts the camera endpoints (spec §7 "Camera" and "Video stream"; docs/api.md "Cameras").
func (s *Service) Routes(r httpx.Router) {
	r.Console("POST /ds/camera/add", httpx.Bind(s.httpAdd))
	r.Console("PUT /ds/camera/update", httpx.Bind(s.httpUpdate))
	r.Console("GET /ds/camera/list", httpx.Bind(s.httpList))
	r.Console("DELETE /ds/camera/delete", httpx.Bind(s.httpDelete))
	r.Console("POST /ds/camera/play", httpx.Bind(s.httpPlay))
	r.Console("GET /ds/camera/records", httpx.Bind(s.httpRecords))
	r.Raw("GET /ds/camera/recordFile", httpx.Recording(s.recordFile, ErrNoFile), true)
	r.Console("GET /ds/apiZlmk/proxy", httpx.Bind(s.httpProxy))
	r.Console("GET /ds/apiZlmk/isOnline", httpx.Bind(s.httpIsOnline))
	r.Console("GET /ds/apiZlmk/snap", httpx.Bind(s.httpSnap))
	r.Console("GET /ds/apiZlmk/record", httpx.Bind(s.httpRecord))
}

type cameraReq struct {
	ID        flex.String `json:"id"`
	StreamID  flex.String `json:"streamId"`
	StreamURL string      `json:"streamUrl"`
	Protocol  flex.String `json:"protocol"`
	Name      string      `json:"name"`
	App       string      `json:"app"`
}

func (r cameraReq) input() Input {
	return Input{StreamID: string(r.StreamID), StreamURL: r.StreamURL, Protocol: string(r.Protocol), Name: r.Name, App: r.App}
}

// POST /ds/camera/add {streamId, streamUrl, protocol?, name?, app?}
func (s *Service) httpAdd(ctx context.Context, p identity.Principal, req cameraReq) (any, error) {
	return s.Add(ctx, p, req.input())
}

// PUT /ds/camera/update {id, streamId?, streamUrl?, protocol?, name?, app?}
func (s *Service) httpUpdate(ctx context.Context, p identity.Principal, req cameraReq) (any, error) {
	id, err := httpx.RowID[ID]("id", string(req.ID))
	if err != nil {
		return nil, err
	}
	return s.Update(ctx, p, id, req.input())
}

// GET /ds/camera/list
func (s *Service) httpList(ctx context.Context, p identity.Principal, _ struct{}) (any, error) {
	list, err := s.List(ctx, p)
	if err != nil {
		return nil, err
	}
	return map[string]any{"total": len(list), "list": list, "tool": s.HasTool()}, nil
}

// DELETE /ds/camera/delete {id}
func (s *Service) httpDelete(ctx context.Context, p identity.Principal, req struct {
	ID flex.String `json:"id"`
}) (any, error) {
	id, err := httpx.RowID[ID]("id", string(req.ID))
	if err != nil {
		return nil, err
	}
	if err := s.Delete(ctx, p, id); err != nil {
		return nil, err
	}
	return map[string]any{"id": id}, nil
}

// POST /ds/camera/play {stream, sdp}: a WebRTC offer (receive-only video) answered with the stream's track.
func (s *Service) httpPlay(ctx context.Context, p identity.Principal, req struct {
	Stream flex.String `json:"stream"`
	SDP    string      `json:"sdp"`
}) (any, error) {
	c, err := s.camera(ctx, p, string(req.Stream))
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.SDP) == "" || len(req.SDP) > 64<<10 {
		return nil, httpx.BadParam("sdp", "a WebRTC offer")
	}
	answer, st, err := s.watch(c, req.SDP)
	if err != nil {
		return nil, err
	}
	state, reason, _ := st.status()
	out := map[string]any{"sdp": answer, "state": state}
	if reason != nil && state == StateFailed {
		out["code"], out["key"] = reason.Code, reason.Key
	}
	return out, nil
}

// GET /ds/apiZlmk/proxy {type?, url?, stream}
func (s *Service) httpProxy(ctx context.Context, p identity.Principal, req struct {
	Type   flex.String `json:"type"`
	URL    string      `json:"url"`
	Stream flex.String `json:"stream"`
}) (any, error) {
	return s.Proxy(ctx, p, string(req.Stream), req.URL, string(req.Type))
}

// GET /ds/apiZlmk/isOnline {stream}
func (s *Service) httpIsOnline(ctx context.Context, p identity.Principal, req struct {
	Stream flex.String `json:"stream"`
}) (any, error) {
	return s.IsOnline(ctx, p, string(req.Stream))
}

// GET /ds/apiZlmk/snap {stream, path?}: a current JPEG, base64 in the envelope (path: the file name offered
// for saving; default <stream>-<time>.jpg). The picture is kept in the media cloud too (SetCloud), under that
// name with its camera and time; item is the media cloud's item, absent when it could not be kept (the storage
// quota is full: the dispatcher still gets the picture).
func (s *Service) httpSnap(ctx context.Context, p identity.Principal, req struct {
	Stream flex.String `json:"stream"`
	Path   string      `json:"path"`
}) (any, error) {
	c, err := s.camera(ctx, p, string(req.Stream))
	if err != nil {
		return nil, err
	}
	jpg, err := s.Snap(ctx, p, c)
	if err != nil {
		return nil, err
	}
	now := s.now().UnixMilli()
	name := filepath.Base(strings.TrimSpace(req.Path))
	if name == "" || name == "." || name == "/" {
		name = fmt.Sprintf("%s-%d.jpg", c.StreamID, now)
	}
	out := map[string]any{"stream": c.StreamID, "at": now, "name": name,
		"type": "image/jpeg", "data": base64.StdEncoding.EncodeToString(jpg)}
	if s.cloud != nil {
		it, err := s.cloud.KeepShot(ctx, p, medialib.Shot{Camera: c.StreamID, CameraName: c.Name, Name: name, JPEG: jpg, Time: now})
		if err != nil {
			slog.WarnContext(ctx, "cameras: a snapshot not kept in the media cloud", "stream", c.StreamID, "err", err)
		} else {
			out["item"] = it
		}
	}
	return out, nil
}

// GET /ds/apiZlmk/record {type: 0 start | 1 stop, stream, app?, remark?}
func (s *Service) httpRecord(ctx context.Context, p identity.Principal, req struct {
	Type   flex.String `json:"type"`
	Stream flex.String `json:"stream"`
	App    string      `json:"app"`
	Remark string      `json:"remark"`
}) (any, error) {
	app := strings.TrimSpace(req.App)
	if app == "" {
		app = DefaultApp
	} else if _, err := checkStream("app", app); err != nil {
		return nil, err
	}
	remark, err := httpx.Text("remark", req.Remark, maxRemarkLen)
	if err != nil {
		return nil, err
	}
	switch strings.TrimSpace(string(req.Type)) {
	case "0":
		return s.StartRecord(ctx, p, string(req.Stream), app, remark)
	case "1":
		return s.StopRecord(ctx, p, string(req.Stream))
	}
	return nil, httpx.BadParam("type", "0 (start) or 1 (stop)")
}

// GET /ds/camera/records {stream? | streams?, sTime, eTime, pageNo?, pageSize?}: spec §5 time-range rules.
func (s *Service) httpRecords(ctx context.Context, p identity.Principal, req struct {
	Stream  flex.List `json:"stream"`
	Streams flex.List `json:"streams"`
	timerange.Params
	httpx.PageReq
}) (any, error) {
	rg, _, err := req.ForCustomer(ctx, s.db, p.CustomerID, timerange.Month)
	if err != nil {
		return nil, err
	}
	q := RecordQuery{From: rg.From, To: rg.To}
	for _, v := range append(req.Stream, req.Streams...) {
		st, err := checkStream("stream", v)
		if err != nil {
			return nil, err
		}
		q.Streams = append(q.Streams, st)
	}
	if len(q.Streams) > 100 {
		return nil, httpx.BadParam("streams", "at most 100")
	}
	if q.Offset, q.Limit, err = req.PagingFrom(100, 1000); err != nil {
		return nil, err
	}
	list, total, err := s.store.Records(ctx, p.CustomerID, q)
	if err != nil {
		return nil, err
	}
	for i := range list {
		list[i].URL = recordURL(list[i].ID)
	}
	return httpx.PageOf(list, total), nil
}

// recordFile is a recording's file as GET /ds/camera/recordFile {id, download?} serves it (httpx.Recording).
func (s *Service) recordFile(ctx context.Context, customerID int64, id RecordID) (httpx.StoredFile, error) {
	rec, err := s.store.GetRecord(ctx, customerID, id)
	return httpx.StoredFile{Path: filepath.Join(s.opts.DataDir, rec.path), Name: filepath.Base(rec.path), Type: "video/mp4",
		Cache: "private, no-cache"}, err
}

// ErrNoFile is a recording whose file is gone.
var ErrNoFile = httpx.E(http.StatusNotFound, "404", "surveillance.errors.noFile", "the recording's file is missing")
