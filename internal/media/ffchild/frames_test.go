package ffchild

import (
	"bytes"
	"encoding/binary"
	"io"
	"os/exec"
	"strings"
	"testing"

	"github.com/at-wat/ebml-go"
	"github.com/pion/rtp"
	"github.com/pion/rtp/codecs"

	"tenfour/internal/termclient"
)

// vp8Packets splits one VP8 frame (its first byte's bit 0 clear: a keyframe) into RTP packets of n payload bytes
// (descriptor S=1 on the first).
func vp8Packets(seq uint16, ts uint32, frame []byte, n int) []*rtp.Packet {
	var out []*rtp.Packet
	for i := 0; i < len(frame); i += n {
		d := byte(0)
		if i == 0 {
			d = 0x10
		}
		end := min(i+n, len(frame))
		out = append(out, &rtp.Packet{Header: rtp.Header{Version: 2, SequenceNumber: seq, Timestamp: ts, Marker: end == len(frame)},
			Payload: append([]byte{d}, frame[i:end]...)})
		seq++
	}
	return out
}

func collect(k kind) (*framer, *[]frame) {
	var got []frame
	f := newFramer(k, func(fr frame) {
		fr.data = bytes.Clone(fr.data) // a video frame's data is the framer's buffer, valid during emit
		got = append(got, fr)
	})
	return f, &got
}

// Packets out of order within and across frames come out as whole frames in order, each with its unwrapped
// timestamp (across the 32-bit wrap) and the arrival of its first packet.
func TestFramerReorders(t *testing.T) {
	f, got := collect(kindVP8)
	ts0, seq0 := uint32(0xFFFFFFFF-3000), uint16(65534)
	a := vp8Packets(seq0, ts0, []byte("\x00first frame"), 4)   // sequence numbers 65534, 65535, 0
	b := vp8Packets(seq0+3, ts0+6000, []byte("\x01second"), 4) // after the timestamp's wrap
	order := []*rtp.Packet{a[0], a[2], b[0], a[1], b[1]}
	for i, p := range order {
		f.push(p, int64(i))
	}
	if len(*got) != 2 {
		t.Fatalf("%d frames: %+v", len(*got), *got)
	}
	first, second := (*got)[0], (*got)[1]
	if string(first.data) != "\x00first frame" || !first.key || first.ts != 0 || first.at != 0 {
		t.Fatalf("first %+v", first)
	}
	if string(second.data) != "\x01second" || second.key || second.ts != 6000 || second.at != 2 {
		t.Fatalf("second %+v", second)
	}
	if f.Lost != 0 || f.Dropped != 0 {
		t.Fatalf("lost %d dropped %d", f.Lost, f.Dropped)
	}
}

// A frame missing a packet is dropped whole once the gap is given up on (reorderWait later); the frames before
// and after it are written; padding takes a sequence number and breaks nothing.
func TestFramerDropsBrokenFrames(t *testing.T) {
	f, got := collect(kindVP8)
	a := vp8Packets(100, 0, []byte("\x00aaaaaaaa"), 4)
	b := vp8Packets(103, 6000, []byte("\x01bbbbbbbb"), 4) // its middle packet (104) never comes
	pad := &rtp.Packet{Header: rtp.Header{Version: 2, SequenceNumber: 106, Timestamp: 6000}}
	c := vp8Packets(107, 12000, []byte("\x01cccc"), 4)
	at := int64(0)
	for _, p := range append(append(a, b[0], b[2], pad), c...) {
		f.push(p, at)
		at += 1_000_000
	}
	if len(*got) != 1 {
		t.Fatalf("before the gap is given up on: %d frames", len(*got))
	}
	d := vp8Packets(109, 18000, []byte("\x01dd"), 4)
	f.push(d[0], reorderWait+10_000_000)
	var data []string
	for _, fr := range *got {
		data = append(data, string(fr.data))
	}
	if strings.Join(data, "|") != "\x00aaaaaaaa|\x01cccc|\x01dd" || f.Lost != 1 || f.Dropped != 1 {
		t.Fatalf("frames %q, lost %d, dropped %d", data, f.Lost, f.Dropped)
	}
}

// A frame whose sender set no marker ends at the next timestamp when no packet is missing between; the end of
// the input flushes what is held.
func TestFramerWithoutMarkers(t *testing.T) {
	f, got := collect(kindVP8)
	a := vp8Packets(1, 0, []byte("\x00one"), 8)
	b := vp8Packets(2, 3000, []byte("\x01two"), 8)
	a[0].Marker, b[0].Marker = false, false
	f.push(a[0], 0)
	f.push(b[0], 1)
	if len(*got) != 1 || string((*got)[0].data) != "\x00one" {
		t.Fatalf("%+v", *got)
	}
	f.flush()
	if len(*got) != 2 || string((*got)[1].data) != "\x01two" {
		t.Fatalf("%+v", *got)
	}
}

// Opus: every packet is a frame; a lost one costs only itself.
func TestFramerOpus(t *testing.T) {
	f, got := collect(kindOpus)
	for i, seq := range []uint16{10, 11, 13, 14} {
		f.push(&rtp.Packet{Header: rtp.Header{SequenceNumber: seq, Timestamp: uint32(seq) * 960}, Payload: []byte{byte(seq)}}, int64(i))
	}
	f.flush()
	if len(*got) != 4 || (*got)[2].ts != 3*960 || f.Lost != 1 || f.Dropped != 0 {
		t.Fatalf("%+v lost %d dropped %d", *got, f.Lost, f.Dropped)
	}
}

// A terminal's H.264 camera (single NAL units, STAP-A, FU-A as pion packetizes them) becomes access units with
// 4-byte lengths; the stream starts at the first IDR picture, its parameter sets in the track's header, and
// ffmpeg reads the frames with their times.
func TestMatroskaH264(t *testing.T) {
	clip, err := termclient.LoadClip("H264", termclient.ClipSizes[2])
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	m := NewMatroska(&out, H264, false)
	var pay codecs.H264Payloader
	seq := uint16(1)
	// a P picture before the keyframe (dropped), the keyframe, two P pictures
	for i, fr := range []termclient.Frame{clip.Frames[1], clip.Frames[0], clip.Frames[1], clip.Frames[2]} {
		pls := pay.Payload(1200, fr.Data)
		for j, pl := range pls {
			p := &rtp.Packet{Header: rtp.Header{Version: 2, SequenceNumber: seq, Timestamp: uint32(i * 6000),
				Marker: j == len(pls)-1}, Payload: pl}
			if err := m.WriteRTP(true, int64(i), p); err != nil {
				t.Fatal(err)
			}
			seq++
		}
	}
	if err := m.Flush(); err != nil {
		t.Fatal(err)
	}
	if m.Frames != 3 {
		t.Fatalf("%d frames written", m.Frames)
	}
	var sps, pps, au []byte
	for _, nal := range bytes.Split(clip.Frames[0].Data, []byte{0, 0, 0, 1})[1:] {
		switch nal[0] & 0x1f {
		case 7:
			sps = nal
		case 8:
			pps = nal
		}
		au = binary.BigEndian.AppendUint32(au, uint32(len(nal)))
		au = append(au, nal...)
	}
	if !bytes.Contains(out.Bytes(), au) || !bytes.Contains(out.Bytes(), avcC(nil, sps, pps)) {
		t.Fatal("the keyframe's access unit or the decoder configuration is not in the stream")
	}
	if _, err := exec.LookPath("ffprobe"); err != nil {
		t.Skip("no ffprobe (make test-deps installs ffmpeg)")
	}
	cmd := exec.Command("ffprobe", "-v", "error", "-f", "matroska", "-show_entries",
		"stream=codec_name,width,height:packet=pts_time,flags", "-of", "csv=p=0", "pipe:0")
	cmd.Stdin = bytes.NewReader(out.Bytes())
	got, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("ffprobe: %v: %s", err, got)
	}
	// packets (time, flags: K a keyframe), then the stream
	lines := strings.Split(string(got), "\n")
	if len(lines) < 4 || !strings.HasPrefix(lines[0], "0.000000,K") || !strings.HasPrefix(lines[1], "0.066000,_") ||
		!strings.HasPrefix(lines[2], "0.133000,_") || !strings.HasPrefix(lines[3], "h264,176,144") {
		t.Fatalf("ffprobe read %q", got)
	}
}

// A SimpleBlock as the recorder writes it is what ebml-go reads: its track, its time, its keyframe flag, its frame.
func TestSimpleBlock(t *testing.T) {
	for _, c := range []struct {
		track int
		rel   int16
		key   bool
		data  []byte
	}{{1, 0, true, bytes.Repeat([]byte{7}, 70000)}, {2, -1200, false, []byte{1}}, {1, 32767, false, []byte("frame")}} {
		var got struct {
			Block ebml.Block `ebml:"SimpleBlock"`
		}
		if err := ebml.Unmarshal(bytes.NewReader(appendSimpleBlock(nil, c.track, c.rel, c.key, c.data)), &got); err != nil {
			t.Fatal(err)
		}
		b := got.Block
		if b.TrackNumber != uint64(c.track) || b.Timecode != c.rel || b.Keyframe != c.key || len(b.Data) != 1 ||
			!bytes.Equal(b.Data[0], c.data) {
			t.Fatalf("wrote track %d at %d key %v (%d bytes), read %d at %d key %v (%d frames)", c.track, c.rel, c.key,
				len(c.data), b.TrackNumber, b.Timecode, b.Keyframe, len(b.Data))
		}
	}
}

// A recording's steady state: a VP8 frame of three packets and two Opus packets every 40 ms.
func BenchmarkMatroskaVP8Opus(b *testing.B) {
	m := NewMatroska(io.Discard, VP8, true)
	frame := make([]byte, 3000)
	seq, aseq := uint16(0), uint16(0)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		frame[0] = 1
		if i%30 == 0 {
			frame[0] = 0 // a keyframe
		}
		pkts := vp8Packets(seq, uint32(i*3600), frame, 1100)
		seq += uint16(len(pkts))
		at := int64(i) * 40_000_000
		for _, p := range pkts {
			if err := m.WriteRTP(true, at, p); err != nil {
				b.Fatal(err)
			}
		}
		for j := range 2 {
			p := &rtp.Packet{Header: rtp.Header{Version: 2, SequenceNumber: aseq, Timestamp: uint32(aseq) * 960}, Payload: frame[:80]}
			aseq++
			if err := m.WriteRTP(false, at+int64(j)*20_000_000, p); err != nil {
				b.Fatal(err)
			}
		}
	}
}
