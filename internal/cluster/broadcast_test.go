package cluster_test

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tenfour/internal/app"
	"tenfour/internal/broadcast"
	clusterpkg "tenfour/internal/cluster"
	"tenfour/internal/config"
	"tenfour/internal/platform/realtime"
	"tenfour/internal/platform/timerange"
	"tenfour/internal/testkit"
)

// rawSpeaker is a speaker's connection (docs/speaker-protocol.md) that records the tasks it is told to play.
type rawSpeaker struct {
	mu    sync.Mutex
	plays map[int64]int // task → play commands received
}

func connectSpeaker(t *testing.T, baseURL string, orgID int64, code, password string) *rawSpeaker {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(baseURL, "http")+broadcast.SpeakerPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.CloseNow() })
	reg, _ := json.Marshal(map[string]any{"type": broadcast.SpkRegister, "org_id": orgID, "code": code, "password": password})
	if err := ws.Write(ctx, websocket.MessageText, reg); err != nil {
		t.Fatal(err)
	}
	sp := &rawSpeaker{plays: map[int64]int{}}
	registered := make(chan string, 1)
	go func() {
		for {
			_, msg, err := ws.Read(ctx)
			if err != nil {
				return
			}
			var c struct {
				Type   string
				TaskID int64 `json:"task_id"`
			}
			if json.Unmarshal(msg, &c) != nil {
				continue
			}
			switch c.Type {
			case broadcast.SpkRegistered, broadcast.SpkError:
				registered <- c.Type
			case broadcast.SpkPlay:
				sp.mu.Lock()
				sp.plays[c.TaskID]++
				sp.mu.Unlock()
			}
		}
	}()
	select {
	case typ := <-registered:
		if typ != broadcast.SpkRegistered {
			t.Fatalf("speaker registration: %s", typ)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("speaker not registered")
	}
	return sp
}

func (sp *rawSpeaker) played(task int64) int {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	return sp.plays[task]
}

// taskEvents collects the broadcast.task events a console receives for d: per task, how many say it started
// playing and how many that it finished.
func taskEvents(con *testkit.Socket, d time.Duration) (started, finished map[int64]int) {
	started, finished = map[int64]int{}, map[int64]int{}
	deadline := time.Now().Add(d)
	for {
		f, ok := con.TryWait(time.Until(deadline), func(f testkit.Frame) bool { return f.Type == broadcast.EventTask })
		if !ok {
			return
		}
		var tk broadcast.Task
		_ = json.Unmarshal(f.Data, &tk)
		switch {
		case tk.State == broadcast.StatePlaying:
			started[tk.ID]++
		case tk.EndReason == "finished":
			finished[tk.ID]++
		}
	}
}

// With three nodes a timed task fires once: one run on its row, one "playing" and one "finished" event on a
// console, and the speaker — connected to another node than the one firing — is told to play it by its own
// node. Ten tasks are due at the same second, so that passes of several nodes would overlap if they all fired.
// When the node holding the scheduler's lease is SIGKILLed another takes it over and the next occurrences still
// fire once.
func TestBroadcastTimedTaskFiresOnceAndTheSchedulerMoves(t *testing.T) {
	c := newCluster(t)
	holder := leaseHolder(t, c, "broadcast-scheduler")
	p3 := c.child("n3")
	testkit.Eventually(t, 5*time.Second, "node 3 holds the scheduler's lease", func() bool { return holder() == "n3" })
	n1, n2 := c.node("n1"), c.node("n2")
	f := testkit.NewFleet(t, n1.DB, "1", 1, 1)
	con := n1.Console(f.Dispatcher, f.Customer)

	ctx := context.Background()
	r := testkit.Do(t, n1.URL, "POST", "/broadcast/v1/login", n1.Token(f.Dispatcher, f.Customer),
		map[string]any{"username": f.Dispatcher, "password": "{secret}"})
	if r.Code != "200" {
		t.Fatalf("broadcast login: %s %s", r.Code, r.Msg)
	}
	var login struct{ Token string }
	r.Into(t, &login)
	ok := func(method, path string, params map[string]any, v any) {
		t.Helper()
		r := testkit.Do(t, n1.URL, method, path, login.Token, params)
		if r.Code != "200" {
			t.Fatalf("%s %s: %s %s", method, path, r.Code, r.Msg)
		}
		if v != nil {
			r.Into(t, v)
		}
	}
	sum := md5.Sum([]byte("Org-Secret-1"))
	orgPass := hex.EncodeToString(sum[:])
	var org broadcast.Org
	ok("POST", "/broadcast/api/v1/org", map[string]any{"name": "Yard", "code": "yard", "call_number": "300", "password": orgPass}, &org)
	var dev broadcast.Device
	ok("POST", "/broadcast/v1/device", map[string]any{"org_id": org.ID, "name": "Gate", "code": "gate"}, &dev)
	var file int64
	if err := n1.DB.WriteRow(ctx, `INSERT INTO bc_files (customer_id, group_id, original_name, name, length_ms, size, created_at)
		VALUES (?, 0, 'bell.mp3', ?, 2000, 32000, 1) RETURNING id`, f.Customer, fmt.Sprintf("%032x.mp3", time.Now().UnixNano())).Scan(&file); err != nil {
		t.Fatal(err)
	}
	spk := connectSpeaker(t, n2.URL, org.ID, "gate", orgPass) // the speaker's connection is on node 2
	loc, err := timerange.Zone(ctx, n1.DB, f.Customer)
	if err != nil {
		t.Fatal(err)
	}

	// round creates ten timed tasks due in 4 s and checks each fired once
	round := func(name string) {
		t.Helper()
		due := time.Now().Add(4 * time.Second).Truncate(time.Second)
		var ids []int64
		for i := range 10 {
			var tk broadcast.Task
			ok("POST", "/broadcast/v1/task", map[string]any{"name": fmt.Sprintf("%s %d", name, i), "type": 1,
				"start_time": due.In(loc).Format(time.TimeOnly), "file_ids": []int64{file}, "device_ids": []int64{dev.ID}, "offline": 1}, &tk)
			ids = append(ids, tk.ID)
		}
		started, finished := taskEvents(con, time.Until(due)+5*time.Second) // the 2 s run, and time for duplicates
		for _, id := range ids {
			if started[id] != 1 || finished[id] != 1 {
				t.Fatalf("%s: task %d: %d playing and %d finished events, want one each (all: %v %v)", name, id, started[id], finished[id], started, finished)
			}
			var startedAt, endedAt int64
			var missed int
			if err := n1.DB.QueryRow(ctx, `SELECT started_at, ended_at, missed_count FROM bc_tasks WHERE id = ?`, id).Scan(&startedAt, &endedAt, &missed); err != nil {
				t.Fatal(err)
			}
			if startedAt != due.UnixMilli() || endedAt != due.UnixMilli()+2000 || missed != 0 {
				t.Fatalf("%s: task %d's run: started %d ended %d missed %d, want %d..%d", name, id, startedAt, endedAt, missed, due.UnixMilli(), due.UnixMilli()+2000)
			}
		}
		// the ten runs share the speaker; the newest task wins it (docs/adr/0017), and node 2 tells it
		if spk.played(ids[len(ids)-1]) == 0 {
			t.Fatalf("%s: the speaker on node 2 was never told to play task %d (%v)", name, ids[len(ids)-1], spk.plays)
		}
	}
	round("before")
	if h := holder(); h != "n3" {
		t.Fatalf("the scheduler's lease moved to %q while node 3 lived", h)
	}

	p3.Kill(t)
	testkit.Eventually(t, nodeTimeout+5*time.Second, "another node takes the scheduler over", func() bool {
		h := holder()
		return h == "n1" || h == "n2"
	})
	t.Logf("the scheduler moved to %s", holder())
	con.Drain()
	round("after")
}

// The recordings a node left open when it died for good are closed by the camera-orphans sweep of a live node
// within a node timeout or so; a live node's open recording stays open.
func TestDeadNodesOpenRecordingsAreClosed(t *testing.T) {
	c := newCluster(t)
	n1 := c.node("n1")
	f := testkit.NewFleet(t, n1.DB, "1", 1, 1)
	start := time.Now().Add(-time.Minute).UnixMilli()
	for _, r := range []struct{ path, node string }{{"camera-records/dead.mp4", "gone"}, {"camera-records/live.mp4", "n1"}} {
		if _, err := n1.DB.Exec(context.Background(), `INSERT INTO camera_records (customer_id, camera_id, stream, path, start_at, node_id)
			VALUES (?, 1, 'gate', ?, ?, ?)`, f.Customer, r.path, start, r.node); err != nil {
			t.Fatal(err)
		}
	}
	end := func(path string) int64 {
		var e int64
		if err := n1.DB.QueryRow(context.Background(), `SELECT end_at FROM camera_records WHERE path = ?`, path).Scan(&e); err != nil {
			t.Fatal(err)
		}
		return e
	}
	testkit.Eventually(t, 2*nodeTimeout+3*time.Second, "the dead node's recording closed", func() bool { return end("camera-records/dead.mp4") > 0 })
	// The sweep that closed it ran after n1's first presence sweep: before that the live set is unknown, not empty
	// (a CI run saw n1 close its own live recording — every node looked dead until the first sweep).
	if e := end("camera-records/live.mp4"); e != 0 {
		t.Fatalf("node 1's own open recording was closed (end %d) while node 1 lives", e)
	}
}

// Before a node's first presence sweep its set of live nodes is unknown: LiveNodes says so instead of an empty set,
// which would make the camera-orphans sweep close every open recording of the cluster, the live nodes' too.
func TestLiveNodesUnknownBeforeTheFirstSweep(t *testing.T) {
	c := newCluster(t)
	store, err := app.Open(context.Background(), config.Config{DB: c.dsn})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	n, err := clusterpkg.Join(context.Background(), store, realtime.NewHub(store, nil), clusterpkg.Options{URL: c.nats.URL(), NodeID: "n1", Timeout: nodeTimeout})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(n.Close)
	if live, err := n.LiveNodes(context.Background()); err == nil {
		t.Fatalf("a node that has not swept yet lists the live nodes: %v", live)
	}
}
