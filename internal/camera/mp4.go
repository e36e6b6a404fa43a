package camera

import (
	"encoding/binary"
	"errors"
	"io"
	"os"
	"time"
)

// mediaDuration is the playing time of a finished recording as its MP4 index states it (the movie header,
// mvhd): what a player shows, which differs from the wall time between start and stop by the kept group of
// pictures the file begins with and by ffmpeg's start and finish. A fragmented file (a remux that failed, a
// recording the server never finished) has no duration in its header: errNoDuration.
func mediaDuration(path string) (time.Duration, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	moov, err := findBox(f, 0, fi.Size(), "moov")
	if err != nil {
		return 0, err
	}
	mvhd, err := findBox(f, moov.body, moov.end, "mvhd")
	if err != nil {
		return 0, err
	}
	var head [32]byte
	n, _ := f.ReadAt(head[:], mvhd.body)
	var scale, units uint64
	switch {
	case n >= 20 && head[0] == 0: // version 0: 32-bit creation and modification times and duration
		scale, units = uint64(binary.BigEndian.Uint32(head[12:])), uint64(binary.BigEndian.Uint32(head[16:]))
	case n >= 32 && head[0] == 1: // version 1: 64-bit times and duration
		scale, units = uint64(binary.BigEndian.Uint32(head[20:])), binary.BigEndian.Uint64(head[24:])
	default:
		return 0, errNoDuration
	}
	if scale == 0 || units == 0 || units == 0xffffffff || units == 1<<64-1 { // all ones: "unknown"
		return 0, errNoDuration
	}
	return time.Duration(units * uint64(time.Second) / scale), nil
}

var errNoDuration = errors.New("camera: the MP4 states no duration")

// box is an MP4 box's body: [body, end) in the file.
type box struct{ body, end int64 }

// findBox finds the first box of a type among the boxes in [from, to).
func findBox(r io.ReaderAt, from, to int64, typ string) (box, error) {
	var h [16]byte
	for at := from; at+8 <= to; {
		if _, err := r.ReadAt(h[:8], at); err != nil {
			return box{}, err
		}
		size, head := int64(binary.BigEndian.Uint32(h[:4])), int64(8)
		switch size {
		case 0: // to the end of the file
			size = to - at
		case 1: // a 64-bit size follows the type
			if _, err := r.ReadAt(h[8:16], at+8); err != nil {
				return box{}, err
			}
			size, head = int64(binary.BigEndian.Uint64(h[8:16])), 16
		}
		if size < head || at+size > to {
			return box{}, errNoDuration
		}
		if string(h[4:8]) == typ {
			return box{body: at + head, end: at + size}, nil
		}
		at += size
	}
	return box{}, errNoDuration
}
