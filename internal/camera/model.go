// Package camera is video surveillance (spec §3 "Camera", §7 "/ds/camera" and "/ds/apiZlmk"): the customer's
// cameras, the server pulling each camera's RTSP stream with ffmpeg (one supervised child process per pulled
// stream, H.264 copied, never transcoded; docs/adr/0016-camera-media-with-ffmpeg.md), consoles watching a stream
// over WebRTC (a pion track per viewer on the media server's port), snapshots, and recordings to MP4 files the
// browser plays, with retention.
package camera

import (
	"net/http"
	"net/url"
	"strings"

	"tenfour/internal/media/ffchild"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/text"
)

// ID is a camera's row id.
type ID int64

// RecordID is a camera recording's row id.
type RecordID int64

// Camera is one registered camera (spec §3: stream id, stream url, protocol).
type Camera struct {
	ID         ID     `json:"id"`
	StreamID   string `json:"streamId"`
	StreamURL  string `json:"streamUrl"`
	Protocol   int    `json:"protocol"` // RTSP transport: 0 TCP, 1 UDP
	Name       string `json:"name"`
	App        string `json:"app"`
	CreatedAt  int64  `json:"createdAt"`
	customerID int64
}

// Record is one camera recording (a fragmented MP4 file while it is written, a seekable MP4 once stopped).
type Record struct {
	ID        RecordID `json:"id"`
	CameraID  ID       `json:"cameraId"`
	StreamID  string   `json:"streamId"`
	Name      string   `json:"name"`
	App       string   `json:"app"`
	Remark    string   `json:"remark"`
	StartTime int64    `json:"startTime"`
	EndTime   int64    `json:"endTime"` // 0 while recording
	Duration  int64    `json:"duration"`
	Bytes     int64    `json:"bytes"`
	StartedBy string   `json:"startedBy"`
	URL       string   `json:"url"` // the ranged download / playback address
	path      string
}

// Transport values of Camera.Protocol and of proxy's type.
const (
	TransportTCP = 0
	TransportUDP = 1
)

// DefaultApp is the spec's default application name of record (and of every camera).
const DefaultApp = "monitor"

// Limits of what people type.
const (
	maxStreamLen = 64
	maxURLLen    = 1024
	maxNameLen   = 40
	maxRemarkLen = 200
)

// Coded errors (spec §8: "Camera add 107: exceeded maximum concurrent connections", stream not found, camera
// busy, device not supported; the call status codes of §4 where one fits: noStream 502, cameraBusy 201,
// notAcceptable 606, repeat 403).
var (
	ErrMaxConnections = httpx.E(http.StatusForbidden, "107", "surveillance.errors.maxConnections", "exceeded maximum concurrent connections")
	ErrStreamNotFound = httpx.E(http.StatusNotFound, "404", "surveillance.errors.streamNotFound", "stream not found")
	ErrStreamExists   = httpx.E(http.StatusConflict, "409", "surveillance.errors.streamExists", "a camera with this stream id exists")
	ErrOffline        = httpx.E(http.StatusBadGateway, "502", "surveillance.errors.offline", "the camera cannot be reached")
	ErrNoStream       = httpx.E(http.StatusBadGateway, "502", "surveillance.errors.noStream", "the camera has no such stream")
	ErrUnauthorized   = httpx.E(http.StatusBadGateway, "502", "surveillance.errors.unauthorized", "the camera refused the user name or password")
	ErrNoMedia        = httpx.E(http.StatusBadGateway, "502", "surveillance.errors.noMedia", "the camera sends no video")
	ErrBusy           = httpx.E(http.StatusConflict, "201", "surveillance.errors.busy", "camera busy")
	ErrNotSupported   = httpx.E(http.StatusUnprocessableEntity, "606", "surveillance.errors.notSupported", "device not supported: the camera's video is not H.264")
	ErrRecording      = httpx.E(http.StatusConflict, "403", "surveillance.errors.alreadyRecording", "the stream is being recorded already")
	ErrNotRecording   = httpx.E(http.StatusConflict, "404", "surveillance.errors.notRecording", "the stream is not being recorded")
	ErrNoTool         = httpx.E(http.StatusServiceUnavailable, "503", "surveillance.errors.noTool", "ffmpeg is not installed on the server (make test-deps installs it)")
	// ErrServerBusy: the server's snapshot work is full (ffchild.Limiter); spec §9 "101 system busy".
	ErrServerBusy = httpx.E(http.StatusServiceUnavailable, "101", "surveillance.errors.serverBusy", "the server is busy, try again")
	// ErrNetworkNotAllowed: the camera's address is outside --camera-allow-nets (at add/update for an IP
	// address, at every pull for the addresses a name resolves to).
	ErrNetworkNotAllowed = httpx.E(http.StatusForbidden, "107", "surveillance.errors.networkNotAllowed", "the camera's address is outside the networks this server may pull from")
)

// checkStream validates a stream id: 1-64 of letters, digits, '-', '_' and '.'.
func checkStream(name, v string) (string, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return "", httpx.BadParam(name, "required")
	}
	if len(v) > maxStreamLen {
		return "", httpx.BadParam(name, "at most 64 characters")
	}
	for _, r := range v {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return "", httpx.BadParam(name, "letters, digits, '-', '_' and '.' only")
		}
	}
	return v, nil
}

// checkURL validates a camera address: rtsp:// or rtsps:// with a host, no spaces or control characters, raw or
// percent-encoded (ffchild.CheckCameraURL).
func checkURL(name, v string) (string, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return "", httpx.BadParam(name, "required")
	}
	if len(v) > maxURLLen {
		return "", httpx.BadParam(name, "not a valid RTSP address")
	}
	// the one rule ffmpeg is held to (the boundary, docs/adr/0030): percent-encoded CR/LF in the user info
	// would become RTSP headers
	if ffchild.CheckCameraURL(v) != nil {
		return "", httpx.BadParam(name, "an rtsp:// or rtsps:// address with a host, without spaces or control characters")
	}
	u, _ := url.Parse(v) // CheckCameraURL parsed it
	if p := u.Port(); p != "" {
		n := 0
		for _, c := range p {
			n = n*10 + int(c-'0')
		}
		if n < 1 || n > 65535 {
			return "", httpx.BadParam(name, "port out of range")
		}
	}
	return v, nil
}

// checkProtocol reads the RTSP transport: 0/"tcp" or 1/"udp" (empty: def).
func checkProtocol(name, v string, def int) (int, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "":
		return def, nil
	case "0", "tcp":
		return TransportTCP, nil
	case "1", "udp":
		return TransportUDP, nil
	}
	return 0, httpx.BadParam(name, "0 (TCP) or 1 (UDP)")
}

// nameField is a camera's display name: optional (blank shows the stream id).
var nameField = text.Field{Name: "name", Max: maxNameLen}

// redact hides a URL's password for logs.
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxx")
	}
	return u.String()
}
