package call

import (
	"net/http"

	"tenfour/internal/platform/httpx"
)

// Routes mounts the call records, voice files, mute list and missed calls (spec §7 "Call records", "Mute").
func (s *Service) Routes(r httpx.Router) {
	r.Private("POST /ds/data/callByUTCPost", httpx.Bind(s.callByUTC)) // records.go
	r.Private("GET /ds/data/callByUTC", httpx.Bind(s.callByUTC))
	r.Private("POST /ds/data/voicePost", httpx.Bind(s.voicePost))
	r.Raw("GET /ds/data/voice", http.HandlerFunc(s.voice), true)
	r.Private("POST /ds/mute/add", httpx.Bind(s.muteAdd)) // mute.go
	r.Private("DELETE /ds/mute/delete", httpx.Bind(s.muteDelete))
	r.Private("GET /ds/mute/list", httpx.Bind(s.muteList))
	r.Private("GET /ds/call/missed", httpx.Bind(s.missedList)) // missed.go
	r.Private("DELETE /ds/call/missed", httpx.Bind(s.missedClear))
	r.Console("POST /ds/report/findCallDurationPost", httpx.Bind(s.findCallDuration)) // talktime.go
	r.Console("GET /ds/voice/rights", httpx.Bind(s.rightsList))                       // rights.go
	r.Console("PUT /ds/voice/rights", httpx.Bind(s.rightsSet))
	r.Private("GET /ds/voice/recordingTime", httpx.Bind(s.recordingTimeGet))
	r.Console("PUT /ds/voice/recordingTime", httpx.Bind(s.recordingTimeSet))
}
