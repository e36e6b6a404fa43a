package sim

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/hajimehoshi/go-mp3"
	"github.com/pion/opus"

	"tenfour/internal/config"
	"tenfour/internal/platform/ticker"
)

// Speaker is a simulated IP public-address speaker (docs/speaker-protocol.md): it registers with its
// organisation's password, fetches and decodes (MP3) what the server tells it to play, plays it by the clock,
// measures the level of the decoded audio at its position, and reports state, position and level. A live page's
// Opus frames are decoded too (pure-Go github.com/pion/opus: SILK, hybrid and CELT) and their level reported.
type Speaker struct {
	URL      string // the server, http(s)://host:port
	OrgID    int64
	Code     string
	Password string // md5 hex of the organisation's password
	HTTP     *http.Client
	// CountOnly makes a live page's frames counted, not decoded (level 0): for `make bench`, whose 100 speakers
	// run in the measuring process, where decoding (~0.27 ms a frame here, 1.4 % of a core per speaker) would
	// measure the decoder instead of the server's fan-out.
	CountOnly bool

	mu     sync.Mutex
	cmd    speakerCmd
	recvAt time.Time
	audio  map[string][]int16 // decoded mono PCM (44.1 kHz) by URL
	live   int64              // live paging: audio frames received since the page's command
	liveAt time.Time          // when the first of them came
	online bool

	dec      *opus.Decoder           // live paging: this page's decoder (nil until its first frame)
	pcm      []float32               // its output buffer
	decoded  int64                   // frames decoded in this page
	badLive  int64                   // frames the decoder refused
	energy   [liveWindow]frameEnergy // the last frames' energy, for the level over the last 100 ms
	energyAt int
	lastLive time.Time // when the last frame was decoded
}

// liveWindow is how many 20 ms frames the live level is measured over (100 ms, as a file's).
const liveWindow = 5

type frameEnergy struct {
	sum     float64 // sum of squared samples
	samples int
}

type speakerCmd struct {
	Type       string `json:"type"`
	TaskID     int64  `json:"task_id"`
	FileID     int64  `json:"file_id"`
	URL        string `json:"url"`
	PositionMs int64  `json:"position_ms"`
	Volume     int    `json:"volume"`
	Paused     bool   `json:"paused"`
	Gap        bool   `json:"gap"`
	Code       int    `json:"code"`
	Msg        string `json:"msg"`
}

// SpeakerStatus is what the speaker plays now.
type SpeakerStatus struct {
	Type       string  `json:"type"`
	State      string  `json:"state"` // playing, paused, idle
	TaskID     int64   `json:"task_id"`
	FileID     int64   `json:"file_id"`
	PositionMs int64   `json:"position_ms"`
	Level      float64 `json:"level"`
	Volume     int     `json:"volume"`
	Packets    int64   `json:"packets,omitempty"` // live paging: audio frames received
	Decoded    int64   `json:"decoded,omitempty"` // live paging: audio frames decoded
}

const speakerRate = 44100

// Status is the speaker's state now.
func (sp *Speaker) Status() SpeakerStatus {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	return sp.statusLocked(time.Now())
}

// LiveFirst is when the first audio frame of the current live page came (zero: none yet, or no page).
func (sp *Speaker) LiveFirst() time.Time {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sp.cmd.Type != "live" || sp.live == 0 {
		return time.Time{}
	}
	return sp.liveAt
}

// Online tells whether the speaker is registered.
func (sp *Speaker) Online() bool { sp.mu.Lock(); defer sp.mu.Unlock(); return sp.online }

func (sp *Speaker) statusLocked(now time.Time) SpeakerStatus {
	st := SpeakerStatus{Type: "status", State: "idle", TaskID: sp.cmd.TaskID, FileID: sp.cmd.FileID, Volume: sp.cmd.Volume}
	if sp.cmd.Type == "live" {
		st.State, st.Packets, st.Decoded = "live", sp.live, sp.decoded
		if now.Sub(sp.lastLive) <= 200*time.Millisecond { // silent when the frames stop
			var sum float64
			var n int
			for _, e := range sp.energy {
				sum, n = sum+e.sum, n+e.samples
			}
			if n > 0 {
				st.Level = math.Sqrt(sum / float64(n))
			}
		}
		return st
	}
	pcm := sp.audio[sp.cmd.URL]
	if sp.cmd.Type != "play" || sp.cmd.Gap || pcm == nil {
		return st
	}
	pos := sp.cmd.PositionMs
	if !sp.cmd.Paused {
		pos += now.Sub(sp.recvAt).Milliseconds()
	}
	length := int64(len(pcm)) * 1000 / speakerRate
	if pos >= length {
		return st // played to its end: silent until told again
	}
	st.PositionMs = pos
	if sp.cmd.Paused {
		st.State = "paused"
		return st
	}
	st.State = "playing"
	end := int(pos * speakerRate / 1000)
	start := max(0, end-speakerRate/10)
	var sum float64
	for _, v := range pcm[start:end] {
		f := float64(v) / 32768
		sum += f * f
	}
	if end > start {
		st.Level = math.Sqrt(sum / float64(end-start))
	}
	return st
}

// Run keeps the speaker connected until ctx ends, reconnecting after a second or two when the connection drops
// or the server is busy (101: its sign-in throttle); a refused registration (wrong password, unknown speaker)
// ends it with the error.
func (sp *Speaker) Run(ctx context.Context) error {
	for {
		err := sp.session(ctx)
		var refused *RefusedError
		if (errors.As(err, &refused) && refused.Code != 101) || ctx.Err() != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second + time.Duration(rand.Int64N(int64(time.Second)))):
		}
	}
}

// RefusedError is a registration the server refused.
type RefusedError struct {
	Code int
	Msg  string
}

func (e *RefusedError) Error() string { return fmt.Sprintf("speaker refused: %d %s", e.Code, e.Msg) }

func (sp *Speaker) client() *http.Client {
	if sp.HTTP != nil {
		return sp.HTTP
	}
	return http.DefaultClient
}

func (sp *Speaker) session(ctx context.Context) error {
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(sp.URL, "http")+"/broadcast/v1/speaker",
		&websocket.DialOptions{HTTPClient: sp.client()})
	if err != nil {
		return err
	}
	defer ws.CloseNow()
	defer func() { sp.mu.Lock(); sp.online = false; sp.mu.Unlock() }()
	reg, _ := json.Marshal(map[string]any{"type": "register", "org_id": sp.OrgID, "code": sp.Code, "password": sp.Password})
	if err := ws.Write(ctx, websocket.MessageText, reg); err != nil {
		return err
	}
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wmu sync.Mutex
	report := func() error {
		sp.mu.Lock()
		st := sp.statusLocked(time.Now())
		sp.mu.Unlock()
		b, _ := json.Marshal(st)
		wmu.Lock()
		defer wmu.Unlock()
		wctx, c := context.WithTimeout(cctx, 5*time.Second)
		defer c()
		return ws.Write(wctx, websocket.MessageText, b)
	}
	// A failed report ends the connection (cancel stops the read loop and this ticker alike).
	go ticker.Every(cctx, 200*time.Millisecond, func() {
		if sp.Online() && report() != nil {
			cancel()
		}
	})
	for {
		typ, msg, err := ws.Read(cctx)
		if err != nil {
			return err
		}
		if typ == websocket.MessageBinary { // live audio: sequence, timestamp, Opus payload
			if len(msg) > 6 {
				sp.mu.Lock()
				if sp.cmd.Type == "live" {
					if sp.live == 0 {
						sp.liveAt = time.Now()
					}
					sp.live++
					if !sp.CountOnly {
						sp.decodeLocked(msg[6:])
					}
				}
				sp.mu.Unlock()
			}
			continue
		}
		var c speakerCmd
		if json.Unmarshal(msg, &c) != nil {
			continue
		}
		switch c.Type {
		case "error":
			return &RefusedError{Code: c.Code, Msg: c.Msg}
		case "registered":
			sp.mu.Lock()
			sp.online = true
			sp.mu.Unlock()
		case "play", "stop", "live":
			if c.Type == "play" && c.URL != "" {
				if err := sp.fetch(cctx, c.URL); err != nil {
					return err
				}
			}
			sp.mu.Lock()
			sp.cmd, sp.recvAt, sp.live = c, time.Now(), 0
			sp.dec, sp.decoded, sp.badLive, sp.energy, sp.lastLive = nil, 0, 0, [liveWindow]frameEnergy{}, time.Time{}
			sp.mu.Unlock()
			if err := report(); err != nil {
				return err
			}
		}
	}
}

// decodeLocked decodes one Opus frame of a live page (mono, 48 kHz) and keeps its energy for the level. A frame
// the decoder refuses is counted and leaves the level alone. The caller holds mu.
func (sp *Speaker) decodeLocked(payload []byte) {
	if sp.dec == nil {
		d, err := opus.NewDecoderWithOutput(48000, 1)
		if err != nil {
			sp.badLive++
			return
		}
		sp.dec, sp.pcm = &d, make([]float32, 5760) // up to 120 ms at 48 kHz
	}
	n, err := sp.dec.DecodeToFloat32(payload, sp.pcm)
	if err != nil {
		sp.badLive++
		if sp.badLive == 1 {
			slog.Warn("speaker: live frame not decoded", "code", sp.Code, "toc", payload[0], "len", len(payload), "err", err)
		}
		return
	}
	var sum float64
	for _, v := range sp.pcm[:n] {
		sum += float64(v) * float64(v)
	}
	sp.energy[sp.energyAt%liveWindow] = frameEnergy{sum: sum, samples: n}
	sp.energyAt++
	sp.decoded++
	sp.lastLive = time.Now()
}

// fetch downloads and decodes a file once.
func (sp *Speaker) fetch(ctx context.Context, u string) error {
	sp.mu.Lock()
	_, have := sp.audio[u]
	sp.mu.Unlock()
	if have {
		return nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, sp.URL+u, nil)
	if err != nil {
		return err
	}
	res, err := sp.client().Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("speaker: GET %s: %s", u, res.Status)
	}
	raw, err := io.ReadAll(io.LimitReader(res.Body, 200<<20))
	if err != nil {
		return err
	}
	pcm, err := DecodeMP3(raw)
	if err != nil {
		return err
	}
	sp.mu.Lock()
	if sp.audio == nil {
		sp.audio = map[string][]int16{}
	}
	sp.audio[u] = pcm
	sp.mu.Unlock()
	return nil
}

// DecodeMP3 decodes an MP3 to mono 16-bit PCM at its own rate (the library's is 44.1 kHz).
func DecodeMP3(b []byte) ([]int16, error) {
	d, err := mp3.NewDecoder(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("speaker: mp3: %w", err)
	}
	raw, err := io.ReadAll(d) // 16-bit little-endian stereo
	if err != nil {
		return nil, fmt.Errorf("speaker: mp3: %w", err)
	}
	out := make([]int16, len(raw)/4)
	for i := range out {
		l := int16(binary.LittleEndian.Uint16(raw[4*i:]))
		r := int16(binary.LittleEndian.Uint16(raw[4*i+2:]))
		out[i] = int16((int32(l) + int32(r)) / 2)
	}
	return out, nil
}

// RunDemoSpeakers runs simulated speakers against this server (serve --demo with a demo fleet) until ctx ends,
// through hc, the client of its in-process listener: like the fleet (RunDemo), their registrations spend none
// of the loopback address's sign-in budget.
func RunDemoSpeakers(ctx context.Context, cfg config.Config, hc *http.Client, list func(ctx context.Context) ([]SpeakerLogin, error)) {
	if !cfg.Demo || cfg.DemoFleet <= 0 {
		return
	}
	self := demoURL(cfg)
	logins, err := list(ctx)
	if err != nil {
		slog.Error("demo speakers", "err", err)
		return
	}
	slog.Info("demo speakers starting", "speakers", len(logins), "url", self)
	var wg sync.WaitGroup
	for _, l := range logins {
		sp := &Speaker{URL: self, HTTP: hc, OrgID: l.OrgID, Code: l.Code, Password: l.Password}
		wg.Go(func() {
			if err := sp.Run(ctx); err != nil && ctx.Err() == nil {
				slog.Warn("demo speaker stopped", "code", l.Code, "err", err)
			}
		})
	}
	wg.Wait()
}

// SpeakerLogin is what a simulated speaker registers with (broadcast.SpeakerLogin).
type SpeakerLogin struct {
	OrgID    int64
	Code     string
	Password string
}
