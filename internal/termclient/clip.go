package termclient

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/pion/webrtc/v4/pkg/media/h264reader"
	"github.com/pion/webrtc/v4/pkg/media/ivfreader"
)

// The camera of simulated terminals: short moving test-pattern clips (ffmpeg testsrc2 with a clock, made by
// scripts/video-clips.sh) in VP8 (IVF) and H.264 (Annex-B, constrained baseline), at three sizes, 15 frames a
// second with a keyframe every second. They are looped; a request for a resolution picks the largest clip
// not above it.
//
//go:embed clips/*.ivf clips/*.h264
var clipFS embed.FS

// ClipFPS is the clips' frame rate.
const ClipFPS = 15

// ClipSize is one size the clips come in.
type ClipSize struct {
	Name          string
	Width, Height int
}

// ClipSizes are the clip sizes, largest first.
var ClipSizes = []ClipSize{{"360p", 640, 360}, {"CIF", 352, 288}, {"QCIF", 176, 144}}

// Frame is one encoded video frame.
type Frame struct {
	Data []byte
	Key  bool
}

// Clip is a decoded-to-frames clip in one codec and size.
type Clip struct {
	Codec  string // "VP8" or "H264"
	Size   ClipSize
	Frames []Frame
}

var (
	clipMu    sync.Mutex
	clipCache = map[string]*Clip{}
)

// ClipFor returns the clip of codec ("VP8" or "H264") whose size is the largest not above width×height (the
// smallest when none fits).
func ClipFor(codec string, width, height int) (*Clip, error) {
	size := ClipSizes[len(ClipSizes)-1]
	for _, s := range ClipSizes {
		if s.Width <= width && s.Height <= height {
			size = s
			break
		}
	}
	return LoadClip(codec, size)
}

// LoadClip reads one embedded clip into frames (cached).
func LoadClip(codec string, size ClipSize) (*Clip, error) {
	key := codec + "-" + size.Name
	clipMu.Lock()
	defer clipMu.Unlock()
	if c := clipCache[key]; c != nil {
		return c, nil
	}
	var c *Clip
	var err error
	switch codec {
	case "VP8":
		c, err = readIVF("clips/vp8-" + size.Name + ".ivf")
	case "H264":
		c, err = readAnnexB("clips/h264-" + size.Name + ".h264")
	default:
		return nil, fmt.Errorf("termclient: no %s clips", codec)
	}
	if err != nil {
		return nil, err
	}
	if len(c.Frames) == 0 || !c.Frames[0].Key {
		return nil, fmt.Errorf("termclient: clip %s does not start with a keyframe", key)
	}
	c.Codec, c.Size = codec, size
	clipCache[key] = c
	return c, nil
}

func readIVF(name string) (*Clip, error) {
	b, err := clipFS.ReadFile(name)
	if err != nil {
		return nil, err
	}
	r, _, err := ivfreader.NewWith(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("termclient: %s: %w", name, err)
	}
	c := &Clip{}
	for {
		f, _, err := r.ParseNextFrame()
		if errors.Is(err, io.EOF) {
			return c, nil
		}
		if err != nil {
			return nil, fmt.Errorf("termclient: %s: %w", name, err)
		}
		// VP8 payload header (RFC 6386 §9.1): bit 0 of the first byte is 0 on a keyframe.
		c.Frames = append(c.Frames, Frame{Data: f, Key: len(f) > 0 && f[0]&1 == 0})
	}
}

// readAnnexB groups an H.264 Annex-B stream into access units: parameter sets and SEI go with the slice that
// follows them (the clips have one slice per picture).
func readAnnexB(name string) (*Clip, error) {
	b, err := clipFS.ReadFile(name)
	if err != nil {
		return nil, err
	}
	r, err := h264reader.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("termclient: %s: %w", name, err)
	}
	c := &Clip{}
	var au []byte
	key := false
	for {
		nal, err := r.NextNAL()
		if errors.Is(err, io.EOF) || (err == nil && nal == nil) {
			return c, nil
		}
		if err != nil {
			return nil, fmt.Errorf("termclient: %s: %w", name, err)
		}
		au = append(au, 0, 0, 0, 1)
		au = append(au, nal.Data...)
		switch nal.UnitType {
		case h264reader.NalUnitTypeCodedSliceIdr:
			key = true
			fallthrough
		case h264reader.NalUnitTypeCodedSliceNonIdr:
			c.Frames = append(c.Frames, Frame{Data: au, Key: key})
			au, key = nil, false
		}
	}
}
