package sim

import (
	"bytes"
	"embed"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"tenfour/internal/media/oggopus"
)

// The shipped speech fixtures (copies of testdata/audio, which explains how they were made): one 20 ms Opus
// packet per Ogg page, so a talk burst is these packets sent one every 20 ms.
//
//go:embed audio/*.ogg
var audioFS embed.FS

// Clip is a speech recording as Opus packets.
type Clip struct {
	Name    string
	Packets [][]byte
}

// Duration is the clip's length.
func (c Clip) Duration() time.Duration { return time.Duration(len(c.Packets)) * packetTime }

const packetTime = 20 * time.Millisecond

// Clips are what terminals say: the long dispatch-style message and the short replies.
type Clips struct {
	Long  Clip   // "Unit one, this is dispatch. Proceed to the north gate…"
	Short []Clip // "Copy that, on my way." (HD and narrowband)
}

// LoadClips reads the embedded fixtures, or every *.ogg of dir when dir is set (the longest is Long).
func LoadClips(dir string) (Clips, error) {
	var names []string
	read := func(name string) ([]byte, error) { return audioFS.ReadFile(name) }
	if dir == "" {
		ents, err := audioFS.ReadDir("audio")
		if err != nil {
			return Clips{}, err
		}
		for _, e := range ents {
			names = append(names, "audio/"+e.Name())
		}
	} else {
		m, err := filepath.Glob(filepath.Join(dir, "*.ogg"))
		if err != nil {
			return Clips{}, err
		}
		names = m
		read = os.ReadFile
	}
	var clips []Clip
	for _, n := range names {
		b, err := read(n)
		if err != nil {
			return Clips{}, err
		}
		f, err := oggopus.Read(bytes.NewReader(b))
		if err != nil {
			return Clips{}, fmt.Errorf("%s: %w", n, err)
		}
		if len(f.Packets) > 0 {
			clips = append(clips, Clip{Name: filepath.Base(n), Packets: f.Packets})
		}
	}
	if len(clips) == 0 {
		return Clips{}, fmt.Errorf("no Ogg Opus clips in %q", dir)
	}
	sort.Slice(clips, func(i, j int) bool {
		if len(clips[i].Packets) != len(clips[j].Packets) {
			return len(clips[i].Packets) > len(clips[j].Packets)
		}
		return clips[i].Name < clips[j].Name
	})
	out := Clips{Long: clips[0], Short: clips[1:]}
	if len(out.Short) == 0 {
		out.Short = []Clip{clips[0]}
	}
	return out, nil
}
