package app

import (
	"tenfour/internal/geo"
	"tenfour/internal/platform/realtime"
)

// What the voice and geo services send, declared here until internal/call and internal/geo list it in their
// own Verbs (issue 13: those two are converted while they are split); then these lists move there.
var (
	voicePushes = []realtime.Verb{
		realtime.Event("rtc.state", realtime.Anyone),
		realtime.Event("floor.state", realtime.Anyone), // consoles and the call's parties
		realtime.Event("floor.granted", realtime.Anyone),
		realtime.Event("floor.revoked", realtime.Anyone),
		realtime.Event("floor.stats", realtime.Anyone),
		realtime.Event("call.invite", realtime.Anyone),
		realtime.Event("call.state", realtime.Anyone),
		realtime.Event("call.missed", realtime.Anyone),
		realtime.Event("voice.playing", realtime.Anyone),
		realtime.Event("voice.recorded", realtime.ConsoleOnly),
		realtime.Ask("monitor.start", realtime.TerminalOnly),
		realtime.Event("monitor.stop", realtime.TerminalOnly),
		realtime.Event("monitor.ended", realtime.ConsoleOnly),
	}
	geoPushes = []realtime.Verb{
		realtime.Event(geo.EventGPS, realtime.ConsoleOnly),
		realtime.Event(geo.EventMarkChanged, realtime.ConsoleOnly),
		realtime.Event(geo.EventFenceChanged, realtime.ConsoleOnly),
		realtime.Event(geo.EventFenceAlarm, realtime.ConsoleOnly),
		realtime.Event(geo.EventAlarmUpdated, realtime.ConsoleOnly),
	}
)
