package ffchild

import (
	"bytes"
	"io"
)

// Audio formats an upload may be (the demuxer ffmpeg is told to use: -f mp3|wav|ogg|flac).
const (
	FormatMP3  = "mp3"
	FormatWAV  = "wav"
	FormatOgg  = "ogg"
	FormatFLAC = "flac"
)

// maxID3Tags is how many ID3v2 tags in a row are skipped before an MP3's first frame (a re-tagged file has two).
const maxID3Tags = 3

// maxZeroPad is how much zero padding may follow an ID3v2 tag before the first frame (some taggers leave it
// outside the tag's size).
const maxZeroPad = 4096

// SniffAudio names the container of an uploaded file from its bytes — MP3, WAV, Ogg or FLAC — or "" when it is
// none of them. An MP3 is recognised by its frames, not by a tag: ID3v2 tags are skipped by their sizes (syncsafe,
// footer flag), then an MPEG audio frame header must follow, and a second one where the first frame ends. Anything else after a tag ("ID3" and a playlist) is not audio.
func SniffAudio(r io.ReaderAt) string {
	var head [12]byte
	n, _ := r.ReadAt(head[:], 0)
	h := head[:n]
	switch {
	case len(h) >= 12 && string(h[:4]) == "RIFF" && string(h[8:12]) == "WAVE":
		return FormatWAV
	case len(h) >= 5 && string(h[:4]) == "OggS" && h[4] == 0: // stream structure version 0
		return FormatOgg
	case bytes.HasPrefix(h, []byte("fLaC")):
		return FormatFLAC
	}
	if mp3At(r, 0) {
		return FormatMP3
	}
	return ""
}

// mp3At tells whether MPEG audio frames start at off, after any ID3v2 tags.
func mp3At(r io.ReaderAt, off int64) bool {
	for range maxID3Tags {
		size, ok := id3Size(r, off)
		if !ok {
			break
		}
		off += size
	}
	// zero padding after the tag, up to maxZeroPad
	pad := make([]byte, maxZeroPad+4)
	n, _ := r.ReadAt(pad, off)
	pad = pad[:n]
	i := 0
	for i < len(pad) && i < maxZeroPad && pad[i] == 0 {
		i++
	}
	off += int64(i)
	first, ok := frameAt(r, off)
	if !ok {
		return false
	}
	_, ok = frameAt(r, off+first) // a second frame where the first ends (26 ms of sound is no library file)
	return ok
}

// id3Size is the whole length of an ID3v2 tag at off (header, body, footer), if one is there.
func id3Size(r io.ReaderAt, off int64) (int64, bool) {
	var b [10]byte
	if n, _ := r.ReadAt(b[:], off); n < 10 || string(b[:3]) != "ID3" {
		return 0, false
	}
	// version 2.2–2.4 (bytes 3–4 never 0xFF); the size is 4 syncsafe bytes (7 bits each)
	if b[3] == 0xFF || b[4] == 0xFF || b[3] < 2 || b[3] > 4 {
		return 0, false
	}
	var size int64
	for _, c := range b[6:10] {
		if c&0x80 != 0 {
			return 0, false
		}
		size = size<<7 | int64(c)
	}
	size += 10
	if b[5]&0x10 != 0 && b[3] == 4 { // footer present (v2.4): another 10 bytes
		size += 10
	}
	return size, true
}

// MPEG audio bitrates (kbit/s) by version group and layer, and sample rates by version.
var (
	bitratesV1 = [3][16]int{
		{0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, -1}, // layer I
		{0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384, -1},    // layer II
		{0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, -1},     // layer III
	}
	bitratesV2 = [3][16]int{
		{0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256, -1}, // layer I
		{0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160, -1},      // layers II and III
		{0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160, -1},
	}
	sampleRates = map[byte][3]int{3: {44100, 48000, 32000}, 2: {22050, 24000, 16000}, 0: {11025, 12000, 8000}}
)

// frameAt reads an MPEG audio frame header at off and returns the frame's length.
func frameAt(r io.ReaderAt, off int64) (int64, bool) {
	var b [4]byte
	if n, _ := r.ReadAt(b[:], off); n < 4 {
		return 0, false
	}
	if b[0] != 0xFF || b[1]&0xE0 != 0xE0 {
		return 0, false
	}
	version := (b[1] >> 3) & 3 // 0 MPEG 2.5, 1 reserved, 2 MPEG 2, 3 MPEG 1
	layer := (b[1] >> 1) & 3   // 1 III, 2 II, 3 I, 0 reserved
	bi := b[2] >> 4
	si := (b[2] >> 2) & 3
	if version == 1 || layer == 0 || bi == 0 || bi == 15 || si == 3 {
		return 0, false // reserved, free-format or invalid
	}
	li := 3 - int(layer) // 0 I, 1 II, 2 III
	var kbps int
	if version == 3 {
		kbps = bitratesV1[li][bi]
	} else {
		kbps = bitratesV2[li][bi]
	}
	rate := sampleRates[version][si]
	pad := int64((b[2] >> 1) & 1)
	var length int64
	switch {
	case li == 0:
		length = (12*int64(kbps)*1000/int64(rate) + pad) * 4
	case li == 2 && version != 3: // layer III, MPEG 2/2.5: 576 samples per frame
		length = 72*int64(kbps)*1000/int64(rate) + pad
	default:
		length = 144*int64(kbps)*1000/int64(rate) + pad
	}
	if length < 4 {
		return 0, false
	}
	return length, true
}
