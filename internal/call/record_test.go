package call_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"tenfour/internal/media/oggopus"
	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

type recordRow struct {
	ID       string `json:"id"`
	CallID   string `json:"callid"`
	BTime    int64  `json:"btime"`
	Type     string `json:"type"`
	GID      string `json:"gid"`
	MsID     string `json:"msId"`
	Duration int64  `json:"duration"`
	Quality  string `json:"quality"`
	Size     int64  `json:"size"`
	Playable bool   `json:"playable"`
	URL      string `json:"url"`
	AccessUs int64  `json:"accessUs"`
}

func (w *world) records(tok string, params map[string]any) ([]recordRow, testkit.Reply) {
	var res struct {
		Total int         `json:"total"`
		List  []recordRow `json:"list"`
	}
	r := w.Do(http.MethodPost, "/ds/data/callByUTCPost", tok, params)
	if r.Code == "0" {
		r.Into(w.t, &res)
	}
	return res.List, r
}

func (w *world) get(path, tok string, header map[string]string) (*http.Response, []byte) {
	req, err := http.NewRequest(http.MethodGet, w.URL+path, nil)
	if err != nil {
		w.t.Fatal(err)
	}
	req.Header.Set("token", tok)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, b
}

func TestRecordingDecodesToSpokenDuration(t *testing.T) {
	g := newGroupWorld(t)
	ctx := g.Ctx()
	tok := g.token("10009001")
	fixture, err := oggopus.ReadFile("../../testdata/audio/reply.ogg")
	if err != nil {
		t.Fatal(err)
	}
	spoken := oggopus.SamplesDuration(fixture.Samples() - fixture.Head.PreSkip)
	from := time.Now().UnixMilli()
	r := speak(t, ctx, g.t1, "../../testdata/audio/reply.ogg", 4)
	// The row is stored before the burst is reported: once the event is here, the list has it.
	ev := event(t, ctx, g.d, "voice.recorded", nil)
	if ev["callid"] != r.CallID {
		t.Fatalf("recorded %v", ev)
	}
	list, res := g.records(tok, map[string]any{"stime": from, "etime": time.Now().UnixMilli()})
	if res.Code != "0" || len(list) != 1 {
		t.Fatalf("records %+v %+v", res, list)
	}
	rec := list[0]
	within5 := func(got time.Duration) bool { d := got - spoken; return d > -spoken/20 && d < spoken/20 }
	if rec.CallID != r.CallID || rec.Type != "group" || rec.GID != g.gid || rec.MsID != "10001001" ||
		rec.Quality != "HD" || !rec.Playable || rec.Size == 0 || !within5(time.Duration(rec.Duration)*time.Millisecond) {
		t.Fatalf("record %+v (spoken %v)", rec, spoken)
	}

	// The file served decodes to the spoken duration.
	resp, body := g.get(rec.URL, tok, nil)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "audio/ogg" || int64(len(body)) != rec.Size {
		t.Fatalf("voice: %d %s %d bytes", resp.StatusCode, resp.Header.Get("Content-Type"), len(body))
	}
	got, err := oggopus.Read(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if d := oggopus.SamplesDuration(got.Samples() - got.Head.PreSkip); !within5(d) {
		t.Fatalf("recording decodes to %v, spoken %v", d, spoken)
	}
	if len(got.Packets) != len(fixture.Packets) {
		t.Fatalf("recorded %d packets of %d", len(got.Packets), len(fixture.Packets))
	}
	// And so says a real Opus decoder, where one is installed.
	if opusdec, err := exec.LookPath("opusdec"); err == nil {
		f := filepath.Join(t.TempDir(), "rec.ogg")
		wav := filepath.Join(t.TempDir(), "rec.wav")
		if err := os.WriteFile(f, body, 0o600); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(opusdec, "--quiet", "--rate", "48000", f, wav).CombinedOutput(); err != nil {
			t.Fatalf("opusdec: %v %s", err, out)
		}
		if d := wavDuration(t, wav); !within5(d) {
			t.Fatalf("opusdec decodes %v, spoken %v", d, spoken)
		}
	} else {
		t.Log("opusdec not installed: checked the packet durations only")
	}

	// Range requests (the console's <audio> seeks), downloads, the per-call query.
	resp, body = g.get(rec.URL, tok, map[string]string{"Range": "bytes=0-99"})
	if resp.StatusCode != http.StatusPartialContent || len(body) != 100 || string(body[:4]) != "OggS" {
		t.Fatalf("range: %d, %d bytes", resp.StatusCode, len(body))
	}
	resp, _ = g.get(rec.URL+"&download=1", tok, nil)
	if cd := resp.Header.Get("Content-Disposition"); resp.StatusCode != 200 || cd == "" {
		t.Fatalf("download: %d %q", resp.StatusCode, cd)
	}
	var vp struct {
		List []recordRow `json:"list"`
	}
	g.Do(http.MethodPost, "/ds/data/voicePost", tok, map[string]any{"callid": r.CallID, "btime": rec.BTime}).Into(t, &vp)
	if len(vp.List) != 1 || vp.List[0].ID != rec.ID {
		t.Fatalf("voicePost %+v", vp)
	}
	if resp, _ := g.get(rec.URL, "", nil); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("voice without a token: %d", resp.StatusCode)
	}
	g.waitLog(123, 124, 125, 126)

	// Filters.
	for _, tc := range []struct {
		params map[string]any
		n      int
	}{
		{map[string]any{"msId": "10001001"}, 1},
		{map[string]any{"msId": "10001002"}, 0},
		{map[string]any{"gid": g.gid, "type": "group"}, 1},
		{map[string]any{"type": "single"}, 0},
	} {
		tc.params["stime"], tc.params["etime"] = from, time.Now().UnixMilli()
		if list, res := g.records(tok, tc.params); res.Code != "0" || len(list) != tc.n {
			t.Fatalf("filter %v: %d records (%s)", tc.params, len(list), res.Code)
		}
	}

	// Retention removes the file and the row together.
	path := filepath.Join(g.Cfg.DataDir, "recordings")
	n, err := g.voice().PruneRecordings(ctx, time.Now().Add(time.Hour))
	if err != nil || n != 1 {
		t.Fatalf("pruned %d: %v", n, err)
	}
	if list, _ := g.records(tok, map[string]any{"stime": from, "etime": time.Now().UnixMilli()}); len(list) != 0 {
		t.Fatalf("rows left: %+v", list)
	}
	files := 0
	_ = filepath.Walk(path, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			files++
		}
		return nil
	})
	if files != 0 {
		t.Fatalf("%d recording files left", files)
	}
}

// wavDuration reads a 16-bit PCM WAV header's data length.
func wavDuration(t *testing.T, path string) time.Duration {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	channels := int(binary.LittleEndian.Uint16(b[22:24]))
	rate := int(binary.LittleEndian.Uint32(b[24:28]))
	for i := 12; i+8 <= len(b); {
		id, size := string(b[i:i+4]), int(binary.LittleEndian.Uint32(b[i+4:i+8]))
		if id == "data" {
			if size == 0 || size > len(b)-i-8 {
				size = len(b) - i - 8
			}
			return time.Duration(size/(2*channels)) * time.Second / time.Duration(rate)
		}
		i += 8 + size
	}
	t.Fatal("no data chunk")
	return 0
}

func TestSDRecordNotPlayable(t *testing.T) {
	g := newGroupWorld(t)
	ctx := g.Ctx()
	tok := g.token("10009001")
	from := time.Now().UnixMilli()
	r := speak(t, ctx, g.t2, "../../testdata/audio/reply-nb.ogg", 8)
	event(t, ctx, g.d, "voice.recorded", nil)
	list, _ := g.records(tok, map[string]any{"stime": from, "etime": time.Now().UnixMilli()})
	if len(list) != 1 || list[0].Quality != "SD" || list[0].Playable || list[0].URL != "" {
		t.Fatalf("SD record %+v", list)
	}
	path := "/ds/data/voice?callid=" + r.CallID + "&btime=" + strconv.FormatInt(list[0].BTime, 10)
	for _, p := range []string{path, path + "&download=1"} {
		resp, body := g.get(p, tok, nil)
		if resp.StatusCode != http.StatusForbidden || !bytes.Contains(body, []byte(`"code":"606"`)) {
			t.Fatalf("SD %s: %d %s", p, resp.StatusCode, body)
		}
	}
}

func TestCallRecordQueryValidation(t *testing.T) {
	w := newWorld(t)
	w.account("10009001", "20", "")
	tok := w.token("10009001")
	jan31 := time.Date(2026, 1, 31, 20, 0, 0, 0, time.UTC).UnixMilli()
	feb1 := time.Date(2026, 2, 1, 1, 0, 0, 0, time.UTC).UnixMilli()
	for _, tc := range []struct {
		params map[string]any
		code   string
	}{
		{map[string]any{"etime": jan31}, "400"},
		{map[string]any{"stime": jan31}, "400"},
		{map[string]any{"stime": feb1, "etime": jan31}, "400"},
		{map[string]any{"stime": jan31, "etime": feb1}, "31"}, // crosses a month in UTC
		{map[string]any{"stime": jan31 - 40*24*3600*1000, "etime": jan31}, "32"},
		{map[string]any{"stime": jan31 - 3600*1000, "etime": jan31, "type": "video"}, "400"},
		{map[string]any{"stime": jan31 - 3600*1000, "etime": jan31}, "0"},
	} {
		if _, r := w.records(tok, tc.params); r.Code != tc.code {
			t.Errorf("%v: code %s, want %s", tc.params, r.Code, tc.code)
		}
	}
	// The month is the customer's: at UTC+8, Jan 31 20:00 UTC is already February 1.
	w.Exec(`UPDATE customers SET time_zone = '8' WHERE id = ?`, w.Customer)
	if _, r := w.records(tok, map[string]any{"stime": jan31, "etime": feb1}); r.Code != "0" {
		t.Fatalf("same month at UTC+8: %s", r.Code)
	}
}

// TestTalkAndRecordOnEveryEngine runs a burst through the whole server on each store engine: grant (directory
// reads), recording row, listing, mute list.
func TestTalkAndRecordOnEveryEngine(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		w := newWorldOn(t, engine)
		ctx := w.Ctx()
		gid := w.group("Patrol")
		w.account("10001001", "10", gid)
		w.account("10009001", "20", gid)
		t1, d := w.term("10001001"), w.console("10009001")
		tok := w.token("10009001")
		from := time.Now().UnixMilli()
		if _, err := t1.Talk(ctx, "", "", termclient.Silence(25), time.Millisecond); err != nil {
			t.Fatal(err)
		}
		if _, err := d.WaitPackets(ctx, 25); err != nil {
			t.Fatal(err)
		}
		event(t, ctx, d, "voice.recorded", nil)
		list, r := w.records(tok, map[string]any{"stime": from, "etime": time.Now().UnixMilli(), "gid": gid})
		if r.Code != "0" || len(list) != 1 || list[0].Duration != 500 || list[0].Quality != "HD" {
			t.Fatalf("records %+v %+v", r, list)
		}
		if r := w.Do(http.MethodPost, "/ds/mute/add", tok, map[string]any{"muteId": "10001001"}); r.Code != "0" {
			t.Fatalf("mute: %+v", r)
		}
		if _, err := t1.Talk(ctx, "", "", termclient.Silence(5), time.Millisecond); err != nil {
			t.Fatal(err)
		}
		event(t, ctx, d, "voice.recorded", nil) // recorded, not heard
		if n := count(d); n != 25 {
			t.Fatalf("muted talker heard: %d packets", n)
		}
	})
}

func TestPendingRecordingRowsIndexedAtStart(t *testing.T) {
	w := newWorld(t)
	w.account("10009001", "20", "")
	dir := filepath.Join(w.Cfg.DataDir, "recordings", "pending")
	if err := os.MkdirAll(dir, 0o750); err != nil {
		t.Fatal(err)
	}
	btime := time.Now().UnixMilli()
	row := `{"Customer":` + strconv.FormatInt(w.Customer, 10) + `,"CallID":"late","Kind":"group","TalkerID":"10009001",` +
		`"Started":` + strconv.FormatInt(btime, 10) + `,"DurationMs":900,"Quality":"HD","Size":10,"Path":"recordings/x.ogg"}`
	if err := os.WriteFile(filepath.Join(dir, "late.json"), []byte(row), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := w.voice().Restore(w.Ctx()); err != nil {
		t.Fatal(err)
	}
	list, _ := w.records(w.token("10009001"), map[string]any{"stime": btime, "etime": btime})
	if len(list) != 1 || list[0].CallID != "late" || list[0].Duration != 900 {
		t.Fatalf("records %+v", list)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Fatalf("pending rows left: %v", left)
	}
}

// A burst's row the store refused (PostgreSQL restarting: the chaos lab's finding 7, docs/reliability.md) is
// indexed as soon as the store takes rows again, not only at the node's next start.
func TestRefusedRecordingRowIndexedOnceTheStoreIsBack(t *testing.T) {
	g := newGroupWorld(t)
	ctx := g.Ctx()
	g.Exec(`ALTER TABLE voice_records RENAME TO voice_records_away`)
	r, err := g.t1.Talk(ctx, "", "", termclient.Silence(10), time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(g.Cfg.DataDir, "recordings", "pending")
	testkit.Eventually(t, 10*time.Second, "the refused row kept in recordings/pending", func() bool {
		left, _ := os.ReadDir(dir)
		return len(left) == 1
	})
	g.Exec(`ALTER TABLE voice_records_away RENAME TO voice_records`)
	testkit.Eventually(t, 10*time.Second, "the row indexed", func() bool {
		rows, err := g.voice().Store().CallRecords(ctx, g.Customer, r.CallID, 0)
		return err == nil && len(rows) == 1 && rows[0].TalkerID == "10001001"
	})
	// the pending file goes right after its row is stored (a CI run looked in between)
	testkit.Eventually(t, 5*time.Second, "the pending row's file removed once indexed", func() bool {
		left, _ := os.ReadDir(dir)
		return len(left) == 0
	})
	rows, err := g.voice().Store().CallRecords(ctx, g.Customer, r.CallID, 0)
	if err != nil || len(rows) != 1 {
		t.Fatalf("after the retries: %d rows, %v; want the one", len(rows), err)
	}
}

// recordedPath waits for the console's voice.recorded event of talker's burst and returns its file (absolute).
func (g *groupWorld) recordedPath(ctx context.Context, talker string) string {
	g.t.Helper()
	ev := event(g.t, ctx, g.d, "voice.recorded", func(m map[string]any) bool { return m["msId"] == talker })
	rows, err := g.voice().Store().CallRecords(ctx, g.Customer, ev["callid"].(string), int64(ev["btime"].(float64)))
	if err != nil || len(rows) != 1 {
		g.t.Fatalf("record of %v: %v %v", ev, rows, err)
	}
	return filepath.Join(g.Cfg.DataDir, rows[0].Path)
}

// Recording files without a record row (a crash in the middle of a burst) are deleted; files of recorded
// bursts, of the burst in progress, of rows waiting in recordings/pending and files that are not a burst's
// stay (issue 14 M3).
func TestOrphanRecordingsRemoved(t *testing.T) {
	g := newGroupWorld(t)
	ctx := g.Ctx()
	if _, err := g.t1.Talk(ctx, "", "", termclient.Silence(20), 2*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	recorded := g.recordedPath(ctx, "10001001")
	cust := filepath.Join(g.Cfg.DataDir, "recordings", strconv.FormatInt(g.Customer, 10))
	today := filepath.Join(cust, time.Now().UTC().Format("2006/01/02"))
	write := func(path string) string {
		if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("OggS partial"), 0o640); err != nil {
			t.Fatal(err)
		}
		return path
	}
	now := strconv.FormatInt(time.Now().UnixMilli(), 10)
	orphans := []string{write(filepath.Join(today, "crashed1-"+now+".ogg")),
		write(filepath.Join(cust, "2020/01/02", "crashed2-1577923200000.ogg"))}
	foreign := write(filepath.Join(cust, "2020/01/02", "notes.ogg"))
	waiting := write(filepath.Join(today, "waiting-"+now+".ogg"))
	write(filepath.Join(g.Cfg.DataDir, "recordings", "pending", strconv.FormatInt(g.Customer, 10)+"-waiting-"+now+".json"))
	// T2 is talking: its file is being written and has no row yet.
	r, err := g.t2.RequestFloor(ctx, "", "", false)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.t2.Send(ctx, termclient.Silence(10), 2*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	var live string
	testkit.Eventually(t, 10*time.Second, "the live burst's file", func() bool {
		files, _ := filepath.Glob(filepath.Join(today, r.CallID+"-*.ogg"))
		for _, f := range files {
			if f != recorded {
				live = f
			}
		}
		return live != ""
	})
	if _, err := g.voice().RemoveOrphans(ctx, time.Time{}); err != nil {
		t.Fatal(err)
	}
	for _, f := range orphans {
		if _, err := os.Stat(f); !os.IsNotExist(err) {
			t.Errorf("orphan %s kept (%v)", f, err)
		}
	}
	for _, f := range []string{recorded, live, waiting, foreign} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("%s removed: %v", f, err)
		}
	}
	// The burst in progress goes on and is recorded whole.
	if err := g.t2.Send(ctx, termclient.Silence(10), 2*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if err := g.t2.ReleaseFloor(ctx, r.CallID); err != nil {
		t.Fatal(err)
	}
	if p := g.recordedPath(ctx, "10001002"); p != live {
		t.Fatalf("recorded %s, the live file was %s", p, live)
	}
	if f, err := oggopus.ReadFile(live); err != nil || len(f.Packets) != 20 {
		t.Fatalf("live burst recorded: %v packets, %v", f, err)
	}
}
