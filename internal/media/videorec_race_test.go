package media

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/rtp/codecs"

	"tenfour/internal/termclient"
	"tenfour/internal/testkit/probe"
)

// feedClip sends a recorder seconds of a terminal's real camera clip (640×360, 15 fps) and microphone (20 ms Opus
// packets, from micAfter on) at the pace a call sends them, packetized as a browser does; it returns the video
// frames sent.
func feedClip(t *testing.T, r *VideoRecorder, codec VideoCodec, seconds int, micAfter time.Duration) int {
	t.Helper()
	clip, err := termclient.LoadClip(string(codec), termclient.ClipSizes[0])
	if err != nil {
		t.Error(err)
		return 0
	}
	var pay rtp.Payloader = &codecs.VP8Payloader{}
	if codec == H264 {
		pay = &codecs.H264Payloader{}
	}
	var vseq, aseq uint16 = 1000, 7000
	var ats uint32 = 480_000
	start := time.Now()
	frames := seconds * termclient.ClipFPS
	audioSent := int(micAfter / (20 * time.Millisecond))
	for i := range frames {
		due := start.Add(time.Duration(i) * time.Second / termclient.ClipFPS)
		// the microphone's packets up to this frame's time
		for ; start.Add(time.Duration(audioSent) * 20 * time.Millisecond).Before(due); audioSent++ {
			r.push(false, 2, &rtp.Header{Version: 2, SequenceNumber: aseq, Timestamp: ats}, termclient.SilentPacket, int64(time.Since(epoch)))
			aseq++
			ats += 960
		}
		time.Sleep(time.Until(due))
		pkts := pay.Payload(1200, clip.Frames[i%len(clip.Frames)].Data)
		for j, pl := range pkts {
			h := rtp.Header{Version: 2, SequenceNumber: vseq, Timestamp: uint32(90_000 + i*6000), Marker: j == len(pkts)-1}
			r.push(true, 1, &h, pl, int64(time.Since(epoch)))
			vseq++
		}
	}
	return frames
}

// probeFile is what ffprobe decodes of a recording: each stream's codec, size and frames.
type probeFile struct {
	Streams []struct {
		CodecType    string `json:"codec_type"`
		StartTime    string `json:"start_time"`
		CodecName    string `json:"codec_name"`
		Width        int    `json:"width"`
		Height       int    `json:"height"`
		NbReadFrames string `json:"nb_read_frames"`
	} `json:"streams"`
}

func probeRecording(t *testing.T, path string) probeFile {
	t.Helper()
	out, err := exec.Command("ffprobe", "-v", "error", "-count_frames", "-show_streams", "-of", "json", path).Output()
	if err != nil {
		t.Fatalf("ffprobe %s: %v (make test-deps installs ffmpeg)", path, err)
	}
	var p probeFile
	if err := json.Unmarshal(out, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

// Recordings that start together while other sockets keep taking loopback ports all finish, each with every
// frame: a recorder's ffmpeg reads from a pipe it inherits, never from a port found free and handed over (that
// failed with "[udp] bind failed: Address already in use", docs/adr/0031).
func TestVideoRecordersStartTogetherWhilePortsAreTaken(t *testing.T) {
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Skip("no ffmpeg (make test-deps installs it)")
	}
	probe.HoldPorts(t, 4000) // until the test ends

	dir := t.TempDir()
	const n = 8
	var wg sync.WaitGroup
	type result struct {
		rec  VideoRecording
		err  error
		sent int
	}
	res := make([]result, n)
	codecOf := func(i int) VideoCodec { return []VideoCodec{VP8, H264}[i%2] }
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := codecOf(i)
			r := StartVideoRecorder(VideoRecordOptions{FFmpeg: "ffmpeg", Codec: c,
				Path: filepath.Join(dir, strconv.Itoa(i)+ContainerExt(c))}, &Feed{video: true, id: 1}, &Feed{id: 2})
			res[i].sent = feedClip(t, r, c, 2, 0)
			res[i].rec, res[i].err = r.Finish()
		}()
	}
	wg.Wait()
	for i, r := range res {
		if r.err != nil {
			t.Errorf("recording %d (%s): %v", i, codecOf(i), r.err)
			continue
		}
		p := probeRecording(t, r.rec.Path)
		var video, audio bool
		for _, s := range p.Streams {
			switch s.CodecType {
			case "video":
				frames, _ := strconv.Atoi(s.NbReadFrames)
				video = s.Width == 640 && s.Height == 360 && frames == r.sent && int(r.rec.Frames) == r.sent
				if !video {
					t.Errorf("recording %d (%s): %+v, %d frames decoded, %d written, %d sent", i, codecOf(i), s,
						frames, r.rec.Frames, r.sent)
				}
			case "audio":
				audio = s.CodecName == "opus"
			}
		}
		if !video || !audio || !r.rec.Audio {
			t.Errorf("recording %d (%s): video %v, audio %v: %+v", i, codecOf(i), video, audio, p)
		}
	}
}

// A microphone that starts after the camera (opened later, or a party that speaks up) is placed in the file where
// it started, not at the camera's first frame: the tracks are stamped on one clock (their arrival).
func TestVideoRecorderKeepsAudioInSync(t *testing.T) {
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Skip("no ffmpeg (make test-deps installs it)")
	}
	for _, c := range []VideoCodec{VP8, H264} {
		t.Run(string(c), func(t *testing.T) {
			r := StartVideoRecorder(VideoRecordOptions{FFmpeg: "ffmpeg", Codec: c,
				Path: filepath.Join(t.TempDir(), "a"+ContainerExt(c))}, &Feed{video: true, id: 1}, &Feed{id: 2})
			feedClip(t, r, c, 2, 600*time.Millisecond)
			res, err := r.Finish()
			if err != nil {
				t.Fatal(err)
			}
			start := map[string]float64{}
			for _, s := range probeRecording(t, res.Path).Streams {
				start[s.CodecType], _ = strconv.ParseFloat(s.StartTime, 64)
			}
			if d := start["audio"] - start["video"]; !res.Audio || d < 0.55 || d > 0.75 {
				t.Fatalf("audio starts %.3f s after the video (%v), want 0.6", d, start)
			}
		})
	}
}
