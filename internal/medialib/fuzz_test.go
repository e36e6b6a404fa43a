package medialib

import (
	"encoding/json"
	"testing"

	"tenfour/internal/files"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/realtime"
)

// FuzzUploaded decodes any media.uploaded payload as the socket does and checks what is read from it before a
// store is touched: the file reference (an id or nothing) and the position (both or neither, in range, a
// coded 400 otherwise).
func FuzzUploaded(f *testing.F) {
	for _, s := range []string{
		`{"fileId":"0123456789abcdef0123456789abcdef","kind":"image","lat":41.0082,"lng":28.9784,"time":1764072000000}`,
		`{"fileUrl":"/filews/files/0123456789abcdef0123456789abcdef?x","lat":41008200,"lng":28978400}`,
		`{"fileId":"../../x","lat":95}`, `{"lat":1e400}`, `{"time":"x"}`, `[]`, `null`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var req Uploaded
		if err := realtime.Decode(json.RawMessage(data), &req); err != nil {
			if httpx.Code(err) != "400" {
				t.Fatalf("%s: decode %v", data, err)
			}
			return
		}
		if id := files.Ref(req.FileID + req.FileURL); id != "" && !files.ValidID(id) {
			t.Fatalf("%s: file reference %q", data, id)
		}
		lat, lng, err := position(req.Lat, req.Lng)
		if err != nil {
			if httpx.Code(err) != "400" {
				t.Fatalf("%s: position %v", data, err)
			}
			return
		}
		if (lat == nil) != (lng == nil) || (lat != nil && !(*lat >= -90 && *lat <= 90 && *lng >= -180 && *lng <= 180)) {
			t.Fatalf("%s: position %v, %v", data, lat, lng)
		}
	})
}
