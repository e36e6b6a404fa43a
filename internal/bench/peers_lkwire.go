package bench

// LiveKit's signalling messages (livekit_rtc.proto of github.com/livekit/protocol, the version livekit-server
// v1.13.11 pins), the few fields the audio bench uses, written and read with protowire: the server sends its join
// response in protobuf before it has seen a client message, so the client speaks protobuf throughout (binary
// WebSocket messages) rather than taking a dependency on LiveKit's generated code.

import (
	"errors"

	"google.golang.org/protobuf/encoding/protowire"
)

// Field numbers.
const (
	lkReqOffer    = 1  // SignalRequest.offer (SessionDescription)
	lkReqAnswer   = 2  // SignalRequest.answer
	lkReqTrickle  = 3  // SignalRequest.trickle (TrickleRequest)
	lkReqAddTrack = 4  // SignalRequest.add_track (AddTrackRequest)
	lkReqLeave    = 8  // SignalRequest.leave (LeaveRequest)
	lkReqPing     = 16 // SignalRequest.ping_req (Ping)

	lkResJoin           = 1 // SignalResponse.join (JoinResponse)
	lkResAnswer         = 2
	lkResOffer          = 3
	lkResTrickle        = 4
	lkResTrackPublished = 6
	lkResLeave          = 8

	lkJoinPingInterval = 11 // JoinResponse.ping_interval (seconds)

	lkTargetPublisher  = 0 // SignalTarget
	lkTargetSubscriber = 1
	lkSourceCamera     = 1 // TrackSource.CAMERA
	lkSourceMicrophone = 2 // TrackSource.MICROPHONE; TrackType.AUDIO is 0
	lkTypeVideo        = 1 // TrackType.VIDEO
)

type lkDesc struct {
	Type, SDP string
	ID        uint32
}

type lkTrickle struct {
	CandidateInit string
	Target        uint64
}

// lkMsg is a decoded SignalResponse: one of its fields is set.
type lkMsg struct {
	Join           bool
	PingInterval   int64
	Offer, Answer  *lkDesc
	Trickle        *lkTrickle
	TrackPublished bool
	Leave          bool
}

func lkRequest(field protowire.Number, body []byte) []byte {
	b := protowire.AppendTag(nil, field, protowire.BytesType)
	return protowire.AppendBytes(b, body)
}

func appendString(b []byte, f protowire.Number, s string) []byte {
	b = protowire.AppendTag(b, f, protowire.BytesType)
	return protowire.AppendString(b, s)
}

func appendVarint(b []byte, f protowire.Number, v uint64) []byte {
	b = protowire.AppendTag(b, f, protowire.VarintType)
	return protowire.AppendVarint(b, v)
}

func (d lkDesc) encode() []byte {
	b := appendString(nil, 1, d.Type)
	b = appendString(b, 2, d.SDP)
	if d.ID != 0 {
		b = appendVarint(b, 3, uint64(d.ID))
	}
	return b
}

func (t lkTrickle) encode() []byte {
	b := appendString(nil, 1, t.CandidateInit)
	if t.Target != 0 {
		b = appendVarint(b, 2, t.Target)
	}
	return b
}

func lkAddAudioTrack(cid, name string) []byte {
	b := appendString(nil, 1, cid)
	b = appendString(b, 2, name)
	b = appendVarint(b, 8, lkSourceMicrophone)
	return lkRequest(lkReqAddTrack, b)
}

// lkAddVideoTrack announces a camera track of one layer, width × height (AddTrackRequest: type 3, width 4,
// height 5, source 8).
func lkAddVideoTrack(cid, name string, width, height int) []byte {
	b := appendString(nil, 1, cid)
	b = appendString(b, 2, name)
	b = appendVarint(b, 3, lkTypeVideo)
	b = appendVarint(b, 4, uint64(width))
	b = appendVarint(b, 5, uint64(height))
	b = appendVarint(b, 8, lkSourceCamera)
	return lkRequest(lkReqAddTrack, b)
}

func lkPing(unixMilli int64) []byte {
	return lkRequest(lkReqPing, appendVarint(nil, 1, uint64(unixMilli)))
}

// eachField calls fn for every field of a message; a malformed message is an error.
func eachField(b []byte, fn func(n protowire.Number, t protowire.Type, v []byte, x uint64)) error {
	for len(b) > 0 {
		n, t, l := protowire.ConsumeTag(b)
		if l < 0 {
			return protowire.ParseError(l)
		}
		b = b[l:]
		switch t {
		case protowire.VarintType:
			x, l := protowire.ConsumeVarint(b)
			if l < 0 {
				return protowire.ParseError(l)
			}
			fn(n, t, nil, x)
			b = b[l:]
		case protowire.BytesType:
			v, l := protowire.ConsumeBytes(b)
			if l < 0 {
				return protowire.ParseError(l)
			}
			fn(n, t, v, 0)
			b = b[l:]
		default:
			l := protowire.ConsumeFieldValue(n, t, b)
			if l < 0 {
				return protowire.ParseError(l)
			}
			b = b[l:]
		}
	}
	return nil
}

func decodeDesc(b []byte) (*lkDesc, error) {
	d := &lkDesc{}
	err := eachField(b, func(n protowire.Number, _ protowire.Type, v []byte, x uint64) {
		switch n {
		case 1:
			d.Type = string(v)
		case 2:
			d.SDP = string(v)
		case 3:
			d.ID = uint32(x)
		}
	})
	return d, err
}

// decodeLK reads a SignalResponse.
func decodeLK(b []byte) (lkMsg, error) {
	var m lkMsg
	var errs []error
	err := eachField(b, func(n protowire.Number, t protowire.Type, v []byte, _ uint64) {
		if t != protowire.BytesType {
			return
		}
		switch n {
		case lkResJoin:
			m.Join = true
			errs = append(errs, eachField(v, func(n protowire.Number, _ protowire.Type, _ []byte, x uint64) {
				if n == lkJoinPingInterval {
					m.PingInterval = int64(x)
				}
			}))
		case lkResOffer, lkResAnswer:
			d, err := decodeDesc(v)
			errs = append(errs, err)
			if n == lkResOffer {
				m.Offer = d
			} else {
				m.Answer = d
			}
		case lkResTrickle:
			t := &lkTrickle{}
			errs = append(errs, eachField(v, func(n protowire.Number, _ protowire.Type, v []byte, x uint64) {
				switch n {
				case 1:
					t.CandidateInit = string(v)
				case 2:
					t.Target = x
				}
			}))
			m.Trickle = t
		case lkResTrackPublished:
			m.TrackPublished = true
		case lkResLeave:
			m.Leave = true
		}
	})
	return m, errors.Join(append(errs, err)...)
}
