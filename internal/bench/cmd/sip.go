package main

import (
	"context"
	"fmt"
	"path/filepath"

	"tenfour/internal/bench"
)

// sip runs the SIP side's measurements (internal/bench TestSIPCalls: the simulator's SIP phone on loopback); the
// concurrent calls run on the build's server in a process of its own, whose CPU profile of the window it keeps.
func (r *runner) sip(ctx context.Context) error {
	env := []string{"TENFOUR_BENCH=1", "TENFOUR_TEST_BIN=" + filepath.Join(r.out, "tenfour"), "TENFOUR_BENCH_SIP_PROFILE=" + r.prof("sip.cpu")}
	return r.benchLines(r.testBin(ctx, "internal/bench", env, "-test.run", "^TestSIPCalls$", "-test.v"))
}

// sipRows are the SIP side's rows (issue 34, docs/sip.md).
func (r *runner) sipRows() []bench.Row {
	p95Row := func(name, target, key string, limit float64, how string) bench.Row {
		return r.measured(name, target, "", "sip."+key+"_p95_ms", "sip", func(p95 float64) (bench.Status, string) {
			return bench.Verdict(p95 < limit), fmt.Sprintf("p95 %s (p50 %s), %s; load average %s",
				bench.MsF(p95), bench.MsF(r.figs["sip."+key+"_p50_ms"]), how, fmt.Sprint(r.figs["sip.load1"]))
		})
	}
	return []bench.Row{
		p95Row("SIP: INVITE → 200 OK", "< 50 ms", "invite", 50,
			"20 calls one after the other into a group, digest challenge included; the answer waits for the call's terminal session (login, its media in process) and its codec states (libopus in process)"),
		p95Row("SIP: DTMF * → floor granted (the grant's beep at the phone)", "< 50 ms", "grant", 50,
			"20 presses, RFC 4733, the group silent"),
		p95Row("SIP: audio delay the bridge adds (group talker → phone)", "< 40 ms", "delay", 40,
			"10 talk spurts of a native terminal, first packet sent → first loud G.711 frame at the phone: the SFU's forwarding, libopus's Opus → G.711 in process and the RTP to the phone"),
		r.measured("SIP: concurrent bridged G.711 ↔ Opus calls per core, no loss", "≥ 100 × host factor", "", "sip.calls_per_core", "sip",
			func(v float64) (bench.Status, string) {
				missed := r.figs["sip.concurrent_missed_frames"]
				st, cal := r.calibrated(v, 100)
				return both(st, missed == 0), cal + "; " + fmt.Sprintf("%.1f calls per core (%.0f calls, half talking a tone into their group, half hearing it, took %.2f cores of the server's own process over 10 s, from /proc; RSS %.0f MB; frames missed by the listeners: %.0f; load average %v). The codec is libopus in process (ADR 0041), most of the CPU; the bridge's audio joins the forwarding in process (ADR 0043); the rest is the phones' RTP (profile: bin/bench/prof/sip.cpu)",
					v, r.figs["sip.concurrent_calls"], r.figs["sip.concurrent_cores"], r.figs["sip.concurrent_rss_mb"], missed, r.figs["sip.load1"])
			}),
		r.measured("SIP: a REGISTER flood from one address raises another user's PTT access p95 by", "< 10 ms", "",
			"sip.flood_p95_ms", "sip", func(flooded float64) (bench.Status, string) {
				quiet := r.figs["sip.flood_quiet_p95_ms"]
				return bench.Verdict(flooded-quiet < 10), fmt.Sprintf("%s (p95 %s quiet, %s during %.0f REGISTERs without credentials from one UDP socket as fast as they are answered; a native terminal's 50 floor requests each)",
					bench.MsF(flooded-quiet), bench.MsF(quiet), bench.MsF(flooded), r.figs["sip.flood_registers"])
			}),
	}
}
