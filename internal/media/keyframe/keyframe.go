// Package keyframe tells whether an RTP payload starts a video keyframe (VP8, RFC 7741; H.264, RFC 6184): what
// a receiver must wait for before it can decode, and where a recording may begin.
package keyframe

// Starts tells whether the first RTP packet of a frame starts a keyframe (h264 false: VP8).
func Starts(pl []byte, h264 bool) bool {
	if len(pl) == 0 {
		return false
	}
	if !h264 {
		// VP8 payload descriptor (RFC 7741 §4.2), then the payload header's key bit on a partition start.
		x, s := pl[0]&0x80 != 0, pl[0]&0x10 != 0
		i := 1
		if x {
			if len(pl) < 2 {
				return false
			}
			ext := pl[1]
			i = 2
			if ext&0x80 != 0 { // picture id
				if len(pl) > i && pl[i]&0x80 != 0 {
					i += 2
				} else {
					i++
				}
			}
			if ext&0x40 != 0 {
				i++
			}
			if ext&0x30 != 0 {
				i++
			}
		}
		return s && len(pl) > i && pl[i]&1 == 0
	}
	switch nal := pl[0] & 0x1f; nal {
	case 5, 7, 8:
		return true
	case 24: // STAP-A: the first aggregated NAL
		return len(pl) > 3 && (pl[3]&0x1f == 7 || pl[3]&0x1f == 5)
	case 28: // FU-A start
		return len(pl) > 1 && pl[1]&0x80 != 0 && pl[1]&0x1f == 5
	}
	return false
}
