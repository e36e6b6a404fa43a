package camera

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
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
	if c.Name, err = nameField.Check(in.Name); err != nil {
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
	if err := s.opts.AllowNets.checkLiteral(c.StreamURL); err != nil {
		return c, err
	}
	c, err = s.store.Add(ctx, c, s.opts.MaxPerCustomer)
	if err != nil {
		return c, err
	}
	s.publishChanged(p.CustomerID, "add", c)
	go s.probe(s.ctx, c) // its dot shows whether it answers without anyone opening it
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
	if err := s.opts.AllowNets.checkLiteral(c.StreamURL); err != nil {
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
		s.forget(streamKey{p.CustomerID, old.StreamID})
		go s.probe(s.ctx, c)
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
	s.forget(streamKey{p.CustomerID, c.StreamID})
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
	// Reach: whether a camera not pulled (idle) answers (probe.go); "" for a pulled one or not asked yet.
	Reach Reach `json:"reach,omitempty"`
}

func (s *Service) stateOf(c Camera) CameraState {
	cs := CameraState{Camera: c, State: StateIdle}
	if st := s.running(c.customerID, c.StreamID); st == nil {
		cs.Reach = s.reachOf(streamKey{c.customerID, c.StreamID})
	} else {
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

// Snap returns a current JPEG of a stream (spec §7 apiZlmk/snap) from its pull (started if nobody pulls it):
// the keyframe the stream keeps (the start of its current group of pictures), decoded once by one ffmpeg child
// reading H.264 from stdin; every request for the same keyframe shares that decode and its picture. The decode
// takes a slot of the server's ffmpeg limiter (ErrServerBusy when none comes free in time; docs/adr/0030).
func (s *Service) Snap(ctx context.Context, p identity.Principal, c Camera) ([]byte, error) {
	st, err := s.pullNow(ctx, c)
	if err != nil {
		return nil, err
	}
	var key [][]byte
	for deadline := time.Now().Add(s.opts.FirstMedia); ; {
		if gop, _ := st.snapshotGOP(); len(gop) > 0 {
			if key = keyframe(gop); key != nil {
				break
			}
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
	var h rtp.Header
	if _, err := h.Unmarshal(key[0]); err != nil {
		return nil, ErrNoMedia
	}
	snap, first := st.snapshotOf(h.Timestamp)
	if first {
		snap.jpg, snap.err = s.decodeKeyframe(context.WithoutCancel(ctx), p.CustomerID, key)
		close(snap.done)
	}
	select {
	case <-snap.done:
		return snap.jpg, snap.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// snapshot is one keyframe's picture: decoded once, then shared.
type snapshot struct {
	ts   uint32
	done chan struct{} // closed when jpg or err is set
	jpg  []byte
	err  error
}

// snapshotOf is the snapshot of the keyframe at ts: the one decoded or being decoded, or a new one the caller
// decodes (first). A failed decode is not kept: the next request tries again.
func (st *stream) snapshotOf(ts uint32) (snap *snapshot, first bool) {
	st.snapMu.Lock()
	defer st.snapMu.Unlock()
	if sn := st.snap; sn != nil && sn.ts == ts {
		select {
		case <-sn.done:
			if sn.err == nil {
				return sn, false
			}
		default:
			return sn, false
		}
	}
	st.snap = &snapshot{ts: ts, done: make(chan struct{})}
	return st.snap, true
}

// keyframe is the kept GOP's first access unit (its packets up to the first marker bit), nil while incomplete.
func keyframe(gop [][]byte) [][]byte {
	var h rtp.Header
	for i, raw := range gop {
		if _, err := h.Unmarshal(raw); err == nil && h.Marker {
			return gop[:i+1]
		}
	}
	return nil
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

// maxSnapshot caps a snapshot's JPEG (-fs).
const maxSnapshot = 8 << 20

// snapDecodeTimeout bounds a snapshot's decode, the wait for an ffmpeg slot included.
const snapDecodeTimeout = 10 * time.Second

// decodeKeyframe decodes one H.264 keyframe (RTP packets) to a JPEG through the ffmpeg boundary: -f h264 from
// stdin, pipe only, one frame out on stdout, in a slot of the limiter. Out of time (ctx's deadline or
// snapDecodeTimeout, whichever is first) it answers ErrServerBusy.
func (s *Service) decodeKeyframe(ctx context.Context, customer int64, pkts [][]byte) ([]byte, error) {
	annexB, err := depacketize(pkts)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, snapDecodeTimeout)
	defer cancel()
	release, err := s.opts.Jobs.Acquire(ctx, customer)
	if errors.Is(err, ffchild.ErrBusy) || errors.Is(err, context.DeadlineExceeded) {
		return nil, ErrServerBusy
	} else if err != nil {
		return nil, err
	}
	defer release()
	in, err := ffchild.Pipe("h264", 10*time.Second)
	if err != nil {
		return nil, err
	}
	cmd, err := ffchild.Command(ctx, s.ffmpeg, in, ffchild.Output{
		Args: []string{"-frames:v", "1", "-q:v", "3", "-c:v", "mjpeg", "-f", "image2pipe"}, Target: "pipe:1", MaxBytes: maxSnapshot})
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	var stderr ffchild.Tail
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(annexB), &out, &stderr
	s.children.Add(1)
	err = cmd.Run()
	s.children.Add(-1)
	if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		// the decode did not get the CPU it needed in time (a fraction of a second on an idle core): a machine
		// this busy answers "busy, try again", as when no slot comes free, not an internal error
		slog.Warn("cameras: a snapshot's decode ran out of time", "after", snapDecodeTimeout, "err", err)
		return nil, ErrServerBusy
	}
	if err != nil {
		return nil, fmt.Errorf("cameras: snapshot: %v: %s", err, stderr.String())
	}
	if out.Len() == 0 {
		return nil, ErrNoMedia
	}
	return out.Bytes(), nil
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
