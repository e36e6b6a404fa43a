package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"mime/multipart"
	"net/http"
	"time"
)

// Media uploads (docs/terminal-protocol.md "Media uploads"): cameras send a snapshot now and then, workers with
// the phone app a photo. The terminal asks a file token on the socket, uploads over HTTP, then registers the
// file in the media cloud with where and when it was taken.

func (t *Terminal) uploadMean(r Rates) time.Duration {
	if t.prof.Uploads <= 0 || r.UploadEvery <= 0 {
		return 0
	}
	return time.Duration(float64(r.UploadEvery) / t.prof.Uploads)
}

func (t *Terminal) uploadStep(at time.Time) (next time.Time) {
	next = at.Add(expDur(t.rUpload, t.uploadMean(t.fl.opts.Rates)))
	if t.state != stOnline {
		return next
	}
	fix := t.route.At(at.Sub(t.fl.start))
	gen := t.conn
	t.req("file.token", struct{}{}, func(f frame) {
		var tok struct {
			Token     string `json:"token"`
			UploadURL string `json:"uploadUrl"`
		}
		if !f.OK() || json.Unmarshal(f.Data, &tok) != nil || tok.Token == "" {
			return
		}
		go t.upload(gen, tok.Token, tok.UploadURL, fix, at)
	})
	return next
}

// upload posts the snapshot and registers it (on its own goroutine: HTTP blocks).
func (t *Terminal) upload(gen uint64, token, path string, fix Fix, at time.Time) {
	if path == "" {
		path = "/filews/upload/media"
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	_ = mw.WriteField("kind", "image")
	fw, _ := mw.CreateFormFile("file", fmt.Sprintf("%s-%d.jpg", t.acct.ID, at.Unix()))
	_, _ = fw.Write(t.fl.snapshot)
	_ = mw.Close()
	ctx, cancel := context.WithTimeout(t.fl.ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.server()+path, &body)
	if err != nil {
		return
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("token", token)
	res, err := t.fl.hc.Do(req)
	if err != nil {
		t.fl.stats.refused("upload", "?")
		return
	}
	defer res.Body.Close()
	var env struct {
		Code   string `json:"code"`
		Result struct {
			ID string `json:"id"`
		} `json:"result"`
	}
	if json.NewDecoder(res.Body).Decode(&env) != nil || env.Code != "0" {
		t.fl.stats.refused("upload", env.Code)
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.conn != gen || t.state != stOnline {
		return
	}
	t.req("media.uploaded", map[string]any{"fileId": env.Result.ID, "kind": "image", "lat": round6(fix.Lat),
		"lng": round6(fix.Lng), "time": at.UnixMilli()}, func(f frame) {
		if f.OK() {
			t.fl.stats.Uploads.Add(1)
		}
	})
}

// snapshotJPEG is the picture cameras and apps upload: a small street-grey gradient (about 3 KB).
func snapshotJPEG() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 160, 120))
	for y := range 120 {
		for x := range 160 {
			v := uint8(60 + x/2 + y/3)
			img.Set(x, y, color.RGBA{v, v, uint8(int(v) * 9 / 10), 255})
		}
	}
	var b bytes.Buffer
	_ = jpeg.Encode(&b, img, &jpeg.Options{Quality: 60})
	return b.Bytes()
}
