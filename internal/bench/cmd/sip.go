package main

import (
	"context"
	"fmt"

	"tenfour/internal/bench"
)

// sip runs the SIP side's measurements (internal/bench TestSIPCalls: the simulator's SIP phone on loopback).
func (r *runner) sip(ctx context.Context) error { return r.ownTest(ctx, "TestSIPCalls") }

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
			"20 calls one after the other into a group, digest challenge included; the answer waits for the call's terminal session (login, WebRTC on loopback) and its two ffmpeg children"),
		p95Row("SIP: DTMF * → floor granted (the grant's beep at the phone)", "< 50 ms", "grant", 50,
			"20 presses, RFC 4733, the group silent"),
		p95Row("SIP: audio delay the bridge adds (group talker → phone)", "< 40 ms", "delay", 40,
			"10 talk spurts of a native terminal, first packet sent → first loud G.711 frame at the phone: the SFU's forwarding, ffmpeg's Opus → G.711 and the RTP to the phone; the call's first spurt includes the decoder child's start"),
		r.measured("SIP: concurrent bridged G.711 ↔ Opus calls per core, no loss", "≥ 100", "", "sip.calls_per_core", "sip",
			func(v float64) (bench.Status, string) {
				missed := r.figs["sip.concurrent_missed_frames"]
				return bench.Verdict(v >= 100 && missed == 0), fmt.Sprintf("%.1f calls per core (%.0f calls, half talking a tone into their group, half hearing it, took %.2f cores over 10 s; frames missed by the listeners: %.0f; load average %v). Each call has two ffmpeg children (one per direction): their CPU bounds it",
					v, r.figs["sip.concurrent_calls"], r.figs["sip.concurrent_cores"], missed, r.figs["sip.load1"])
			}),
		r.measured("SIP: a REGISTER flood from one address raises another user's PTT access p95 by", "< 10 ms", "",
			"sip.flood_p95_ms", "sip", func(flooded float64) (bench.Status, string) {
				quiet := r.figs["sip.flood_quiet_p95_ms"]
				return bench.Verdict(flooded-quiet < 10), fmt.Sprintf("%s (p95 %s quiet, %s during %.0f REGISTERs without credentials from one UDP socket as fast as they are answered; a native terminal's 50 floor requests each)",
					bench.MsF(flooded-quiet), bench.MsF(quiet), bench.MsF(flooded), r.figs["sip.flood_registers"])
			}),
	}
}
