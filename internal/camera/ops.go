package camera

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/rtp/codecs"

	"tenfour/internal/media/ffchild"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/realtime"
)

// Input is what add and update take.
type Input struct {
	StreamID  string
	StreamURL string
	Protocol  string
	Name      string
	App       string
}

func (in Input) camera(base Camera) (Camera, error) {
	c := base
	var err error
	if c.StreamID, err = checkStream("streamId", in.StreamID); err != nil {
		return c, err
	}
	if c.StreamURL, err = checkURL("streamUrl", in.StreamURL); err != nil {
		return c, err
	}
	if c.Protocol, err = checkProtocol("protocol", in.Protocol, base.Protocol); err != nil {
		return c, err
	}
	if c.Name, err = checkName("name", in.Name, maxNameLen); err != nil {
		return c, err
	}
	if c.Name == "" {
		c.Name = c.StreamID
	}
	if strings.TrimSpace(in.App) != "" {
		if c.App, err = checkStream("app", in.App); err != nil {
			return c, err
		}
	}
	if c.App == "" {
		c.App = DefaultApp
	}
	return c, nil
}

// Add registers a camera (107 past the customer's maximum concurrent connections).
func (s *Service) Add(ctx context.Context, p identity.Principal, in Input) (Camera, error) {
	c, err := in.camera(Camera{customerID: p.CustomerID, CreatedAt: s.now().UnixMilli()})
	if err != nil {
		return c, err
	}
	c, err = s.store.Add(ctx, c, s.opts.MaxPerCustomer)
	if err != nil {
		return c, err
	}
	s.publishChanged(p.CustomerID, "add", c)
	return c, nil
}

// Update changes a camera; a running pull restarts with the new address.
func (s *Service) Update(ctx context.Context, p identity.Principal, id ID, in Input) (Camera, error) {
	old, err := s.store.Get(ctx, p.CustomerID, id)
	if err != nil {
		return old, err
	}
	if in.StreamID == "" {
		in.StreamID = old.StreamID
	}
	if in.StreamURL == "" {
		in.StreamURL = old.StreamURL
	}
	if in.App == "" {
		in.App = old.App
	}
	c, err := in.camera(old)
	if err != nil {
		return c, err
	}
	if st := s.running(p.CustomerID, old.StreamID); st != nil && st.recording() {
		if c.StreamID != old.StreamID || c.StreamURL != old.StreamURL || c.Protocol != old.Protocol {
			return c, ErrRecording // spec §4: a stream is not switchable while recording
		}
	}
	if err := s.store.Update(ctx, c); err != nil {
		return c, err
	}
	if c.StreamID != old.StreamID || c.StreamURL != old.StreamURL || c.Protocol != old.Protocol {
		s.stopStream(p.CustomerID, old.StreamID)
	}
	s.publishChanged(p.CustomerID, "update", c)
	return c, nil
}

// Delete removes a camera: its pull, viewers and recording stop first (the recording is kept).
func (s *Service) Delete(ctx context.Context, p identity.Principal, id ID) error {
	c, err := s.store.Get(ctx, p.CustomerID, id)
	if err != nil {
		return err
	}
	if err := s.store.Delete(ctx, p.CustomerID, id); err != nil {
		return err
	}
	s.stopStream(p.CustomerID, c.StreamID)
	s.publishChanged(p.CustomerID, "delete", c)
	return nil
}

// List is the customer's cameras, each with its stream's state.
func (s *Service) List(ctx context.Context, p identity.Principal) ([]CameraState, error) {
	list, err := s.store.List(ctx, p.CustomerID)
	if err != nil {
		return nil, err
	}
	out := make([]CameraState, len(list))
	for i, c := range list {
		out[i] = s.stateOf(c)
	}
	return out, nil
}

// CameraState is a camera with its stream's state.
type CameraState struct {
	Camera
	State     State  `json:"state"`
	Online    bool   `json:"online"`
	Recording bool   `json:"recording"`
	Code      string `json:"code,omitempty"`
	Key       string `json:"key,omitempty"`
}

func (s *Service) stateOf(c Camera) CameraState {
	cs := CameraState{Camera: c, State: StateIdle}
	if st := s.running(c.customerID, c.StreamID); st != nil {
		state, reason, _ := st.status()
		cs.State, cs.Online, cs.Recording = state, st.online(), st.recording()
		if reason != nil && state == StateFailed {
			cs.Code, cs.Key = reason.Code, reason.Key
		}
	}
	return cs
}

func (s *Service) publishChanged(customer int64, op string, c Camera) {
	if s.hub != nil {
		s.hub.Publish(customer, EventChanged, map[string]any{"op": op, "camera": c}, realtime.Consoles)
	}
}

// camera reads the camera of a stream id of the caller's customer (ErrStreamNotFound).
func (s *Service) camera(ctx context.Context, p identity.Principal, stream string) (Camera, error) {
	stream, err := checkStream("stream", stream)
	if err != nil {
		return Camera{}, err
	}
	c, err := s.store.ByStream(ctx, p.CustomerID, stream)
	if errors.Is(err, db.ErrNotFound) {
		return c, ErrStreamNotFound
	}
	return c, err
}

// Proxy starts pulling a camera into its stream and waits for its first keyframe (spec §7 apiZlmk/proxy).
// url and typ, when given, change the camera's address and transport first. A camera that cannot be pulled
// is answered with its coded reason and its pull is stopped: nothing stays half-started.
func (s *Service) Proxy(ctx context.Context, p identity.Principal, stream, url, typ string) (CameraState, error) {
	c, err := s.camera(ctx, p, stream)
	if err != nil {
		return CameraState{}, err
	}
	if url != "" || typ != "" {
		in := Input{StreamID: c.StreamID, StreamURL: url, Protocol: typ, Name: c.Name, App: c.App}
		if in.StreamURL == "" {
			in.StreamURL = c.StreamURL
		}
		nc, err := in.camera(c)
		if err != nil {
			return CameraState{}, err
		}
		if nc.StreamURL != c.StreamURL || nc.Protocol != c.Protocol {
			if c, err = s.Update(ctx, p, c.ID, in); err != nil {
				return CameraState{}, err
			}
		}
	}
	_, err = s.pullNow(ctx, c)
	if err != nil {
		return CameraState{}, err
	}
	return s.stateOf(c), nil
}

// pullNow makes sure the camera is pulled and plays; a stream that fails before its first keyframe is stopped
// unless someone else uses it.
func (s *Service) pullNow(ctx context.Context, c Camera) (*stream, error) {
	fresh := s.running(c.customerID, c.StreamID) == nil
	st, err := s.ensure(c)
	if err != nil {
		return nil, err
	}
	if err := s.waitMedia(ctx, st, s.opts.FirstMedia); err != nil {
		if fresh && !st.used() {
			s.stopStream(c.customerID, c.StreamID)
		}
		return nil, err
	}
	st.touch()
	return st, nil
}

// IsOnline tells whether a stream has media now (spec §7 apiZlmk/isOnline); it starts nothing.
func (s *Service) IsOnline(ctx context.Context, p identity.Principal, stream string) (CameraState, error) {
	c, err := s.camera(ctx, p, stream)
	if err != nil {
		return CameraState{}, err
	}
	return s.stateOf(c), nil
}

// Snap returns a current JPEG of a stream (spec §7 apiZlmk/snap): the kept group of pictures decoded by an
// ffmpeg child, its last frame.
func (s *Service) Snap(ctx context.Context, p identity.Principal, stream string) ([]byte, error) {
	c, err := s.camera(ctx, p, stream)
	if err != nil {
		return nil, err
	}
	st, err := s.pullNow(ctx, c)
	if err != nil {
		return nil, err
	}
	var gop [][]byte
	for deadline := time.Now().Add(s.opts.FirstMedia); ; {
		if gop, _ = st.snapshotGOP(); len(gop) > 0 && gopComplete(gop) {
			break
		}
		if time.Now().After(deadline) {
			return nil, ErrNoMedia
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	annexB, err := depacketize(gop)
	if err != nil {
		return nil, err
	}
	return s.decodeLast(ctx, annexB)
}

// gopComplete tells whether the kept GOP holds at least one whole frame (a packet with the marker bit).
func gopComplete(gop [][]byte) bool {
	var h rtp.Header
	for _, raw := range gop {
		if _, err := h.Unmarshal(raw); err == nil && h.Marker {
			return true
		}
	}
	return false
}

// depacketize turns RTP H.264 packets into an Annex-B byte stream (pion's depacketizer).
func depacketize(pkts [][]byte) ([]byte, error) {
	var out bytes.Buffer
	var d codecs.H264Packet
	var pkt rtp.Packet
	for _, raw := range pkts {
		if err := pkt.Unmarshal(raw); err != nil {
			continue
		}
		b, err := d.Unmarshal(pkt.Payload)
		if err != nil {
			continue
		}
		out.Write(b)
	}
	if out.Len() == 0 {
		return nil, ErrNoMedia
	}
	return out.Bytes(), nil
}

// decodeLast decodes an H.264 elementary stream and returns its last frame as JPEG.
func (s *Service) decodeLast(ctx context.Context, annexB []byte) ([]byte, error) {
	dir, err := os.MkdirTemp("", "tenfour-snap-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "snap.jpg")
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.ffmpeg, "-nostdin", "-hide_banner", "-loglevel", "error",
		"-f", "h264", "-i", "pipe:0", "-update", "1", "-q:v", "3", "-f", "image2", "-y", out)
	ffchild.Attrs(cmd)
	cmd.Stdin = bytes.NewReader(annexB)
	s.children.Add(1)
	msg, err := cmd.CombinedOutput()
	s.children.Add(-1)
	if err != nil {
		return nil, fmt.Errorf("cameras: snapshot: %v: %s", err, msg)
	}
	jpg, err := os.ReadFile(out)
	if err != nil || len(jpg) == 0 {
		return nil, ErrNoMedia
	}
	return jpg, nil
}

// recording tells whether the stream is being recorded.
func (st *stream) recording() bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.rec != nil
}

// used tells whether viewers or a recording use the stream.
func (st *stream) used() bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.rec != nil || len(st.viewers) > 0
}

// StartRecord starts recording a stream (spec §7 apiZlmk/record type 0): the row is stored and the file
// begins with the last keyframe. Recording an already recorded stream is ErrRecording.
func (s *Service) StartRecord(ctx context.Context, p identity.Principal, stream, app, remark string) (Record, error) {
	c, err := s.camera(ctx, p, stream)
	if err != nil {
		return Record{}, err
	}
	st, err := s.pullNow(ctx, c)
	if err != nil {
		return Record{}, err
	}
	st.recMu.Lock() // one start or stop at a time per stream: two racing starts must not both record
	defer st.recMu.Unlock()
	if st.recording() {
		return Record{}, ErrRecording
	}
	now := s.now()
	rec := Record{CameraID: c.ID, StreamID: c.StreamID, Name: c.Name, App: app, Remark: remark,
		StartTime: now.UnixMilli(), StartedBy: p.AccountID}
	rec.path = filepath.Join(recordDir, fmt.Sprint(p.CustomerID), now.UTC().Format("2006/01/02"),
		fmt.Sprintf("%s-%d.mp4", c.StreamID, rec.StartTime))
	rec, err = s.store.StartRecord(ctx, p.CustomerID, rec, s.opts.NodeID)
	if err != nil {
		return Record{}, err
	}
	if _, err := s.startRecorder(st, rec); err != nil {
		_ = s.store.DeleteRecord(context.Background(), rec.ID)
		os.Remove(filepath.Join(s.opts.DataDir, rec.path))
		return Record{}, err
	}
	rec.URL = recordURL(rec.ID)
	s.publishRecord(p.CustomerID, rec)
	return rec, nil
}

func (s *Service) publishRecord(customer int64, rec Record) {
	if s.hub != nil {
		s.hub.Publish(customer, EventRecord, map[string]any{"record": rec}, realtime.Consoles)
	}
}

// StopRecord stops recording a stream (spec §7 apiZlmk/record type 1) and returns the finished recording.
func (s *Service) StopRecord(ctx context.Context, p identity.Principal, stream string) (Record, error) {
	c, err := s.camera(ctx, p, stream)
	if err != nil {
		return Record{}, err
	}
	st := s.running(p.CustomerID, c.StreamID)
	if st == nil {
		return Record{}, ErrNotRecording
	}
	st.recMu.Lock()
	defer st.recMu.Unlock()
	st.mu.Lock()
	r := st.rec
	st.lastUse = s.now()
	st.mu.Unlock()
	if r == nil {
		return Record{}, ErrNotRecording
	}
	// the recorder keeps getting the live packets until it has finished its file, then is detached
	rec := s.finishRecord(r)
	st.mu.Lock()
	if st.rec == r {
		st.rec = nil
	}
	st.mu.Unlock()
	rec.URL = recordURL(rec.ID)
	s.publishRecord(p.CustomerID, rec)
	return rec, nil
}

func recordURL(id RecordID) string { return fmt.Sprintf("/ds/camera/recordFile?id=%d", id) }
