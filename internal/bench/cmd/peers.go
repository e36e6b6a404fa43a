package main

// The `peers` step (issue 21): tenfour against LiveKit (audio forwarding) and Centrifugo (WebSocket fan-out and
// memory), measured here, in this run, with the same client harness (internal/bench/peers*.go). The peers'
// binaries come from scripts/build-peers.sh (scripts/bench.sh runs it first; cached in bin/bench/).

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"tenfour/internal/bench"
)

var (
	peerSubscribers = flag.Int("peer-subscribers", 200, "peers step: audio subscribers")
	peerClients     = flag.Int("peer-clients", 10000, "peers step: WebSocket clients of the fan-out run")
	peerViewers     = flag.Int("peer-viewers", 100, "peers step: video subscribers (1 Mbit/s each)")
	peerParts       = flag.String("peer-parts", "audio,video,fanout", "peers step: which comparisons to run (a comma list of audio, video, fanout); a row whose part did not run says not measured")
	peerPerf        = flag.Bool("peer-perf", false, "peers step: perf-record each audio and video server's silent 3 s and measured window, and each fan-out server's idle window and events, into prof/peers-<server>.<phase>.perf (perf adds its own CPU to the figures: a profiling run, not a measurement)")
)

// phasePerf returns, with -peer-perf, a run's OnPhase that records the server process with `perf record -g`
// through each phase into prof/peers-<name>.<phase>.perf (read with `perf report -i … --children --sort symbol`),
// and a stop for the end of the run; without, no hook and a stop that does nothing.
func (r *runner) phasePerf(name string) (bench.PhaseHook, func()) {
	if !*peerPerf {
		return nil, func() {}
	}
	var cur *bench.Perf
	stop := func() {
		cur.Stop(0)
		cur = nil
	}
	return func(phase string, pid int) {
		stop()
		if phase == "done" {
			return
		}
		var then []string
		if phase == "idle" {
			then = []string{"sleep", "2.9"} // the silent phase is 3 s; the sender starts after it
		}
		var err error
		if cur, err = bench.PerfRecord(r.log, pid, 997, r.prof("peers-"+name+"."+phase+".perf"), then...); err != nil {
			fmt.Fprintf(r.log, "peers: perf: %v\n", err)
		}
	}, stop
}

// peerPart says whether -peer-parts asks for the comparison name (audio, video or fanout).
func peerPart(name string) bool { return slices.Contains(strings.Split(*peerParts, ","), name) }

// peerResults are the peers step's results (nil: not measured; the error says why).
var peerResults struct {
	audio, lkAudio                 *bench.AudioResult
	fan, cfFan                     *bench.FanoutResult
	audioErr, lkErr, fanErr, cfErr error
	video                          []videoPair // VP8, H.264
	// The kernel's floor of the same sends (internal/bench/floor.go): the sending thread's cores for the audio
	// comparison, its CPU per event for the fan-out; zero with its error when not measured.
	audioFloor                 float64
	fanFloor                   time.Duration
	audioFloorErr, fanFloorErr error
}

// videoPair is one codec's video run on both servers.
type videoPair struct {
	codec             string
	tenfour, lk       *bench.VideoResult
	tenfourErr, lkErr error
}

func (r *runner) peers(ctx context.Context) error {
	lk, cf := bench.PeerBins(r.out)
	tenfour := filepath.Join(r.out, "tenfour")
	built := func(b string) error {
		if _, err := os.Stat(b); err != nil {
			return fmt.Errorf("%s is not built (scripts/build-peers.sh)", filepath.Base(b))
		}
		return nil
	}
	pr := &peerResults
	// Audio: 200 subscribers, 500 packets (10 s) measured, each server alone on the machine.
	ao := bench.AudioOptions{Subscribers: *peerSubscribers, Packets: 500, Log: r.log}
	audio := func(bin, server string, run func(context.Context, bench.AudioOptions) (bench.AudioResult, error)) (*bench.AudioResult, error) {
		o := ao
		o.Bin, o.Dir = bin, filepath.Join(r.out, "peers", "audio-"+server)
		var stopPerf func()
		o.OnPhase, stopPerf = r.phasePerf(server)
		defer stopPerf()
		return peerStep(ctx, r, 2*time.Minute, "audio", audioText, func(c context.Context) (bench.AudioResult, error) { return run(c, o) })
	}
	if peerPart("audio") {
		pr.audio, pr.audioErr = audio(tenfour, "tenfour", bench.RunAudioTenfour)
		if pr.lkErr = built(lk); pr.lkErr == nil {
			pr.lkAudio, pr.lkErr = audio(lk, "livekit", bench.RunAudioLiveKit)
		}
		pr.audioFloor, pr.audioFloorErr = bench.AudioFloor(ctx, *peerSubscribers, 10*time.Second)
		fmt.Fprintf(r.log, "peers: audio floor: the sends alone to %d receivers cost %.3f cores (err %v)\n", *peerSubscribers, pr.audioFloor, pr.audioFloorErr)
	}

	// Video: N subscribers of one 1 Mbit/s camera, a 10 s window, each codec, each server alone on the machine.
	pr.video = nil
	for _, codec := range []string{"VP8", "H264"} {
		vp := videoPair{codec: codec}
		if !peerPart("video") {
			pr.video = append(pr.video, vp) // its rows say the part was left out
			continue
		}
		vo := bench.VideoOptions{Codec: codec, Subscribers: *peerViewers, Window: 10 * time.Second, Log: r.log}
		video := func(bin, server string, run func(context.Context, bench.VideoOptions) (bench.VideoResult, error)) (*bench.VideoResult, error) {
			o := vo
			o.Bin, o.Dir = bin, filepath.Join(r.out, "peers", "video-"+server)
			var stopPerf func()
			o.OnPhase, stopPerf = r.phasePerf("video-" + strings.ToLower(codec) + "-" + server)
			defer stopPerf()
			return peerStep(ctx, r, 2*time.Minute, "video", videoText, func(c context.Context) (bench.VideoResult, error) { return run(c, o) })
		}
		vp.tenfour, vp.tenfourErr = video(tenfour, "tenfour", bench.RunVideoTenfour)
		if vp.lkErr = built(lk); vp.lkErr == nil {
			vp.lk, vp.lkErr = video(lk, "livekit", bench.RunVideoLiveKit)
		}
		pr.video = append(pr.video, vp)
	}

	// Fan-out: N clients, one request every 10 s each, a 10 s window, 20 events to all (a p99 over 5 was one event's).
	fo := bench.FanoutOptions{Clients: *peerClients, Every: 10 * time.Second, Window: 10 * time.Second, Events: 20, Log: r.log}
	fanout := func(bin, server string, d time.Duration, run func(context.Context, bench.FanoutOptions) (bench.FanoutResult, error)) (*bench.FanoutResult, error) {
		o := fo
		o.Bin, o.Dir = bin, filepath.Join(r.out, "peers", "fanout-"+server)
		var stopPerf func()
		o.OnPhase, stopPerf = r.phasePerf("fanout-" + server)
		defer stopPerf()
		return peerStep(ctx, r, d, "fan-out", fanSummary, func(c context.Context) (bench.FanoutResult, error) { return run(c, o) })
	}
	if peerPart("fanout") {
		pr.fan, pr.fanErr = fanout(tenfour, "tenfour", 3*time.Minute, bench.RunFanoutTenfour)
		if pr.cfErr = built(cf); pr.cfErr == nil {
			pr.cfFan, pr.cfErr = fanout(cf, "centrifugo", 2*time.Minute, bench.RunFanoutCentrifugo)
		}
		pr.fanFloor, pr.fanFloorErr = bench.FanoutFloor(ctx, *peerClients, fo.Events)
		fmt.Fprintf(r.log, "peers: fan-out floor: the writes alone to %d connections cost %s of CPU per event (err %v)\n", *peerClients, bench.Ms(pr.fanFloor), pr.fanFloorErr)
	}
	for _, x := range []struct {
		what string
		err  error
	}{{"audio tenfour", pr.audioErr}, {"audio LiveKit", pr.lkErr}, {"fan-out tenfour", pr.fanErr}, {"fan-out Centrifugo", pr.cfErr}} {
		if x.err != nil {
			fmt.Fprintf(r.log, "peers: %s: %v\n", x.what, x.err)
		}
	}
	errs := []error{pr.audioErr, pr.lkErr, pr.fanErr, pr.cfErr}
	for _, v := range pr.video {
		for _, e := range []error{v.tenfourErr, v.lkErr} {
			if e != nil {
				fmt.Fprintf(r.log, "peers: video %s: %v\n", v.codec, e)
			}
			errs = append(errs, e)
		}
	}
	return errors.Join(errs...)
}

// peerStep runs one server's side of a comparison within d and logs its result.
func peerStep[R any](ctx context.Context, r *runner, d time.Duration, what string, text func(*R) string, run func(context.Context) (R, error)) (*R, error) {
	c, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	res, err := run(c)
	fmt.Fprintf(r.log, "peers: %s %s (err %v)\n", what, text(&res), err)
	return &res, err
}

func audioText(a *bench.AudioResult) string {
	return fmt.Sprintf("%s %s streams/core (server %.2f cores for %d subscribers over %.0f s, %.2f of them connected but silent; %d of %s packets lost; publisher write → subscriber read p50 %s, p99 %s; RSS +%.1f MB)",
		a.Server, bench.Thousands(a.StreamsPerCore()), a.CPU, a.Subscribers, a.Window.Seconds(), a.IdleCPU, a.Lost,
		bench.Thousands(float64(a.Expected)), bench.Ms(bench.Pct(a.Delays, .5)), bench.Ms(bench.Pct(a.Delays, .99)),
		mb(a.RSS-a.RSSBase))
}

func videoText(v *bench.VideoResult) string {
	return fmt.Sprintf("%s %s streams/core (server %.2f cores for %d subscribers over %.0f s, %.2f of them connected before any video; %.2f Mbit/s published; %d of %s packets and %d of %d frames lost; RSS +%.1f MB)",
		v.Server, bench.Thousands(v.StreamsPerCore()), v.CPU, v.Subscribers, v.Window.Seconds(), v.IdleCPU, v.Bitrate/1e6,
		v.Lost, bench.Thousands(float64(v.Expected)), v.FramesLost, v.Frames*v.Subscribers, mb(v.RSS-v.RSSBase))
}

// audioFloorText says what the kernel's floor of the audio sends leaves of the ratio: no server can forward to the
// subscribers on less CPU than the floor, so LiveKit's CPU over the floor's is the most any server reaches here.
func audioFloorText(l *bench.AudioResult) string {
	pr := &peerResults
	if pr.audioFloorErr != nil || pr.audioFloor <= 0 {
		return fmt.Sprintf("the kernel's floor not measured: %v", pr.audioFloorErr)
	}
	return fmt.Sprintf("the kernel's floor, the sends alone (one sendmmsg a packet to %d receivers, nothing else), %.3f cores: no server exceeds %.1f× LiveKit on this host",
		l.Subscribers, pr.audioFloor, l.CPU/pr.audioFloor)
}

// fanFloorText says what the kernel's floor of the fan-out's writes leaves of the p99 ratio. The server and the
// clients share the two cores, so an event is read by all once both have done their work: the least it can cost is
// the floor plus the clients' own CPU for tenfour's frames, against Centrifugo's server and clients.
func fanFloorText(f, c *bench.FanoutResult) string {
	pr := &peerResults
	if pr.fanFloorErr != nil || pr.fanFloor <= 0 {
		return fmt.Sprintf("the kernel's floor not measured: %v", pr.fanFloorErr)
	}
	least := pr.fanFloor + bench.Pct(f.HarnessCPU, .5)
	theirs := bench.Pct(c.EventCPU, .5) + bench.Pct(c.HarnessCPU, .5)
	return fmt.Sprintf("the kernel's floor, the writes alone (one write(2) of a 120-byte frame to each connection, nothing else), %s per event; the clients' CPU per event %s (tenfour's frames) and %s (Centrifugo's): server and clients together at least %s against Centrifugo's %s, a CPU ratio of %.2f that no server goes below on these two cores",
		bench.Ms(pr.fanFloor), bench.Ms(bench.Pct(f.HarnessCPU, .5)), bench.Ms(bench.Pct(c.HarnessCPU, .5)),
		bench.Ms(least), bench.Ms(theirs), float64(least)/float64(theirs))
}

// fanSummary is a fan-out result for the log.
func fanSummary(f *bench.FanoutResult) string {
	slowest := make([]string, len(f.EventMax))
	for i, d := range f.EventMax {
		slowest[i] = bench.Ms(d)
	}
	return fmt.Sprintf("%s: %s; %.1f KB per connection (RSS %.0f → %.0f MB); CPU %.3f cores; %d requests, %d replies; delivery p50 %s p99 %s max %s, %d missed; each event's last delivery: %s; publish call p50 %s max %s; server CPU per event p50 %s, the clients' (this process's) p50 %s; connect error: %s",
		f.Server, fanText(f), f.PerConn()/1024, mb(f.RSSBase), mb(f.RSS), f.CPU, f.Requests, f.Replies,
		bench.Ms(bench.Pct(f.Deliveries, .5)), bench.Ms(bench.Pct(f.Deliveries, .99)), bench.Ms(bench.Pct(f.Deliveries, 1)),
		f.Missed, strings.Join(slowest, " "), bench.Ms(bench.Pct(f.PublishCall, .5)), bench.Ms(bench.Pct(f.PublishCall, 1)),
		bench.Ms(bench.Pct(f.EventCPU, .5)), bench.Ms(bench.Pct(f.HarnessCPU, .5)), f.ConnectErr)
}

func fanText(f *bench.FanoutResult) string {
	s := fmt.Sprintf("%s: %s of %s connected in %.0f s", f.Server, bench.Thousands(float64(f.Connected)),
		bench.Thousands(float64(f.Clients)), f.ConnectTime.Seconds())
	if f.ClientsClosedEarly > 0 {
		s += fmt.Sprintf(", %d closed by the server", f.ClientsClosedEarly)
	}
	return s
}

// peerRows are the peers step's rows of the main table.
func (r *runner) peerRows() []bench.Row {
	pr := &peerResults
	var rows []bench.Row
	const ref = "measured in this run, same machine, same harness (issue 21)"
	missing := func(name, target, part string, errs ...error) bench.Row {
		if !peerPart(part) {
			return bench.Row{Name: name, Figure: "not measured (-peer-parts left " + part + " out)", Target: target, Reference: ref, Status: bench.Failed}
		}
		if err := errors.Join(errs...); err != nil {
			return bench.Row{Name: name, Figure: "not measured: " + err.Error(), Target: target, Reference: ref, Status: bench.Failed}
		}
		return row(name, target, ref, r.missing("peers"))
	}

	audioName := fmt.Sprintf("forwarded Opus streams per core, tenfour ÷ LiveKit (1 publisher at 50 packets/s, %d subscribers, server CPU from /proc)",
		*peerSubscribers)
	if a, l := pr.audio, pr.lkAudio; a != nil && l != nil && pr.audioErr == nil && pr.lkErr == nil && a.CPU > 0 && l.CPU > 0 {
		ratio := a.StreamsPerCore() / l.StreamsPerCore()
		rows = append(rows, bench.Row{Name: audioName,
			Figure: fmt.Sprintf("%.2f× — %s; %s; %s", ratio, audioText(a), audioText(l), audioFloorText(l)),
			Target: "≥ 4× (and no loss)", Reference: ref, Status: bench.Verdict(ratio >= 4 && a.Lost == 0)})
	} else {
		rows = append(rows, missing(audioName, "≥ 4×", "audio", pr.audioErr, pr.lkErr))
	}

	for _, v := range pr.video {
		name := fmt.Sprintf("forwarded 1 Mbit/s %s video streams per core, tenfour ÷ LiveKit (1 camera-like publisher, %d subscribers, server CPU from /proc)",
			strings.Replace(v.codec, "H264", "H.264", 1), *peerViewers)
		t, l := v.tenfour, v.lk
		if t == nil || l == nil || v.tenfourErr != nil || v.lkErr != nil || t.CPU <= 0 || l.CPU <= 0 {
			rows = append(rows, missing(name, "≥ 2× (and no loss)", "video", v.tenfourErr, v.lkErr))
			continue
		}
		ratio := t.StreamsPerCore() / l.StreamsPerCore()
		rows = append(rows, bench.Row{Name: name, Figure: fmt.Sprintf("%.2f× — %s; %s", ratio, videoText(t), videoText(l)),
			Target: "≥ 2× (and no loss)", Reference: ref, Status: bench.Verdict(ratio >= 2 && t.Lost == 0 && t.FramesLost == 0)})
	}

	f, c := pr.fan, pr.cfFan
	ok := f != nil && c != nil && pr.fanErr == nil && pr.cfErr == nil && f.Connected > 0 && c.Connected > 0
	memName := fmt.Sprintf("WebSocket clients on one channel per customer, %s idle clients (one request every 10 s each): server memory per connection (RSS delta ÷ connections) and CPU, tenfour vs Centrifugo",
		bench.Thousands(float64(*peerClients)))
	if ok {
		fk, ck := f.PerConn()/1024, c.PerConn()/1024
		rows = append(rows, bench.Row{Name: memName,
			Figure: fmt.Sprintf("tenfour %.1f KB, Centrifugo %.1f KB per connection: ratio %.2f (RSS +%.0f MB vs +%.0f MB); CPU %.3f vs %.3f cores over %.0f s (%s vs %s requests answered); %s; %s",
				fk, ck, fk/ck, mb(f.RSS-f.RSSBase), mb(c.RSS-c.RSSBase), f.CPU, c.CPU, f.Window.Seconds(),
				bench.Thousands(float64(f.Replies)), bench.Thousands(float64(c.Replies)), fanText(f), fanText(c)),
			Target: "tenfour ≤ Centrifugo (ratio ≤ 1)", Reference: ref, Status: bench.Verdict(fk <= ck)})
	} else {
		rows = append(rows, missing(memName, "tenfour ≤ Centrifugo", "fanout", pr.fanErr, pr.cfErr))
	}
	delName := fmt.Sprintf("one event to all %s WebSocket clients: publish call sent → event read, p99, tenfour vs Centrifugo",
		bench.Thousands(float64(*peerClients)))
	if ok && len(f.Deliveries) > 0 && len(c.Deliveries) > 0 {
		fp, cp := bench.Pct(f.Deliveries, .99), bench.Pct(c.Deliveries, .99)
		rows = append(rows, bench.Row{Name: delName,
			Figure: fmt.Sprintf("tenfour p99 %s (p50 %s, %d missed), Centrifugo p99 %s (p50 %s, %d missed): ratio %.2f; %d events each (tenfour's is a key rotation, stored before it is sent; its HTTP call took p50 %s, Centrifugo's publish p50 %s); server CPU per event until all read it, p50 %s vs %s",
				bench.Ms(fp), bench.Ms(bench.Pct(f.Deliveries, .5)), f.Missed, bench.Ms(cp), bench.Ms(bench.Pct(c.Deliveries, .5)),
				c.Missed, float64(fp)/float64(cp), len(f.PublishCall), bench.Ms(bench.Pct(f.PublishCall, .5)),
				bench.Ms(bench.Pct(c.PublishCall, .5)), bench.Ms(bench.Pct(f.EventCPU, .5)), bench.Ms(bench.Pct(c.EventCPU, .5))) + "; " + fanFloorText(f, c),
			Target: "p99 ≤ 0.7 × Centrifugo's, CPU per event ≤ Centrifugo's", Reference: ref,
			Status: bench.Verdict(float64(fp) <= 0.7*float64(cp) && bench.Pct(f.EventCPU, .5) <= bench.Pct(c.EventCPU, .5) && f.Missed == 0)})
	} else {
		rows = append(rows, missing(delName, "p99 ≤ 0.7 × Centrifugo's", "fanout", pr.fanErr, pr.cfErr))
	}
	return rows
}
