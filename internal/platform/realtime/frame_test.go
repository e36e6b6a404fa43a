package realtime

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"tenfour/internal/platform/httpx"
)

func TestDecodeFrame(t *testing.T) {
	for _, tc := range []struct {
		in       string
		ok       bool
		wantData string
		wantID   int64
	}{
		{`{"id":1,"type":"ping"}`, true, `{}`, 1},
		{`{"type":"sms.send","data":{"content":"hi"}}`, true, `{"content":"hi"}`, 0},
		{` {"id":2,"type":"a.b","data":null} `, true, `{}`, 2},
		{`{"re":9,"type":"sms.deliver","code":"0"}`, true, ``, 0},
		{`{"re":9,"type":"any thing","data":[1]}`, true, `[1]`, 0},
		{`{"id":3,"type":"a.b","data":[]}`, false, ``, 3},
		{`{"id":4,"type":"a b"}`, false, ``, 4},
		{`{"id":5}`, false, ``, 5},
		{`{"id":-5,"type":"a"}`, false, ``, 0},
		{`null`, false, ``, 0},
		{`{"id":6,"type":"x"`, false, ``, 0},
		{`{"id":7,"type":"a.b","data":{"x":1}}`, true, `{"x":1}`, 7},
		{`{"id":7,"type":"` + strings.Repeat("a", MaxType) + `"}`, true, `{}`, 7},
		{`{"id":7,"type":"` + strings.Repeat("a", MaxType+1) + `"}`, false, ``, 7},
	} {
		f, err := DecodeFrame([]byte(tc.in))
		if (err == nil) != tc.ok {
			t.Errorf("%s: err %v", tc.in, err)
			continue
		}
		if f.ID != tc.wantID {
			t.Errorf("%s: id %d, want %d", tc.in, f.ID, tc.wantID)
		}
		if tc.ok && string(f.Data) != tc.wantData {
			t.Errorf("%s: data %s, want %s", tc.in, f.Data, tc.wantData)
		}
	}
	big := []byte(`{"type":"a","data":{"p":"` + strings.Repeat("x", MaxMessage) + `"}}`)
	if _, err := DecodeFrame(big); err != httpx.ErrBodyTooBig {
		t.Fatalf("oversized: %v", err)
	}
}

// FuzzDecodeFrame checks the decoder's invariants on arbitrary input: it never panics; every error is a coded
// client error that keeps at most the request id; an accepted request has a well-formed type, a non-negative
// id and object data; and an accepted frame survives a re-encode unchanged.
func FuzzDecodeFrame(f *testing.F) {
	for _, s := range []string{
		`{"id":1,"type":"session.login","data":{"token":"abc","client":"console"}}`,
		`{"id":2,"type":"sms.send","data":{"msId":"10000101","content":"hello\nworld"}}`,
		`{"re":5,"type":"sms.deliver","code":"0","data":{}}`,
		`{"id":3,"type":"call.set","data":{"msId":"1","status":8}}`,
		`{"type":"ping"}`,
		`{"id":4,"type":"a..b"}`,
		`{"id":-1,"type":"x"}`,
		`{"id":1e3,"type":"x"}`,
		`{"ID":7,"TYPE":"Sync","Data":{"after":0}}`,
		`{"id":8,"type":"x","data":null}`,
		`{"id":9,"type":"x","data":"str"}`,
		`{"type":"x","type":"y.z"}`,
		"{\"type\":\"\xff\"}",
		`[]`, `null`, `0`, ``, `{`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		fr, err := DecodeFrame(msg)
		if err != nil {
			e, known := httpx.AsError(err)
			if !known || (e.Code != "400" && e.Code != "413") {
				t.Fatalf("uncoded error %v", err)
			}
			if len(msg) > MaxMessage && e.Code != "413" {
				t.Fatalf("oversized frame answered %s", e.Code)
			}
			if fr.ID < 0 || fr.Re != 0 || fr.Type != "" || fr.Data != nil || fr.Code != "" || fr.Seq != 0 {
				t.Fatalf("error frame carries more than an id: %+v", fr)
			}
			return
		}
		if len(msg) > MaxMessage {
			t.Fatalf("accepted %d bytes", len(msg))
		}
		if fr.Re == 0 {
			if fr.ID < 0 || len(fr.Type) == 0 || len(fr.Type) > MaxType || !typeRe.MatchString(fr.Type) {
				t.Fatalf("type rule broken: %+v", fr)
			}
			if !json.Valid(fr.Data) || bytes.TrimSpace(fr.Data)[0] != '{' {
				t.Fatalf("data not an object: %s", fr.Data)
			}
		}
		out, err := json.Marshal(fr)
		if err != nil {
			t.Fatalf("accepted frame does not encode: %v", err)
		}
		again, err := DecodeFrame(out)
		if err != nil {
			t.Fatalf("re-encoded frame %s refused: %v", out, err)
		}
		if again.ID != fr.ID || again.Re != fr.Re || again.Type != fr.Type || again.Code != fr.Code ||
			again.Msg != fr.Msg || again.Key != fr.Key || again.Seq != fr.Seq || !sameJSON(again.Data, fr.Data) {
			t.Fatalf("re-encode changed the frame:\n%+v\n%+v", fr, again)
		}
	})
}

func sameJSON(a, b json.RawMessage) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	var x, y any
	da, db := json.NewDecoder(bytes.NewReader(a)), json.NewDecoder(bytes.NewReader(b))
	da.UseNumber()
	db.UseNumber()
	if da.Decode(&x) != nil || db.Decode(&y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
