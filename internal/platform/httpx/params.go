package httpx

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
)

// MaxBody caps request bodies of ordinary API calls (uploads have their own limits).
const MaxBody = 1 << 20

// Decode fills dst (a pointer to a struct with json tags) from the query string, for requests with a body a
// JSON or form body, and the wildcards of the pattern the request matched ({id} fills the field tagged "id"). Every scalar arrives as a string — query values, form values and JSON numbers and
// booleans alike — so request structs use string, []string or Int fields and one rule serves every client.
// Unknown parameters are ignored; a malformed body is a coded 400.
func Decode(r *http.Request, dst any) error {
	m := map[string]any{}
	for k, v := range r.URL.Query() {
		put(m, k, v)
	}
	if r.Body != nil && r.Body != http.NoBody {
		ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		body, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, MaxBody))
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				return ErrBodyTooBig
			}
			if errors.Is(err, ErrBodyTimeout) {
				return ErrBodyTimeout
			}
			return BadParam("body", "unreadable")
		}
		switch {
		case len(bytes.TrimSpace(body)) == 0:
		case ct == "application/x-www-form-urlencoded":
			r.Body = io.NopCloser(bytes.NewReader(body))
			if err := r.ParseForm(); err != nil {
				return BadParam("body", "malformed form")
			}
			for k, v := range r.PostForm {
				put(m, k, v)
			}
		default:
			var obj map[string]json.RawMessage
			if err := json.Unmarshal(body, &obj); err != nil {
				return BadParam("body", "malformed JSON object")
			}
			for k, raw := range obj {
				m[k] = normalize(raw)
			}
		}
	}
	for _, name := range wildcards(r.Pattern) { // the path's own values win over parameters of the same name
		m[name] = r.PathValue(name)
	}
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, dst); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return BadParam(te.Field, "wrong type")
		}
		return BadParam("body", err.Error())
	}
	return nil
}

// wildcards are the names of a mux pattern's wildcards ("PATCH /v1/org/{id}" → id).
func wildcards(pattern string) []string {
	var out []string
	for rest := pattern; ; {
		i := strings.IndexByte(rest, '{')
		j := strings.IndexByte(rest[i+1:], '}')
		if i < 0 || j < 0 {
			return out
		}
		name := strings.TrimSuffix(rest[i+1:i+1+j], "...")
		if name != "$" {
			out = append(out, name)
		}
		rest = rest[i+1+j+1:]
	}
}

func put(m map[string]any, k string, v []string) {
	// "ids[]" and repeated keys become lists; a single value stays a string (a list field accepts both).
	k = strings.TrimSuffix(k, "[]")
	if len(v) == 1 {
		m[k] = v[0]
		return
	}
	m[k] = v
}

// normalize turns JSON scalars into strings, keeps arrays of scalars as []string and leaves objects as they are.
func normalize(raw json.RawMessage) any {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil
	}
	switch raw[0] {
	case '"':
		var s string
		_ = json.Unmarshal(raw, &s)
		return s
	case '[':
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return raw
		}
		out := make([]any, len(items))
		for i, it := range items {
			out[i] = normalize(it)
		}
		return out
	case '{':
		return raw
	case 'n':
		return nil
	default: // numbers, true, false
		return string(raw)
	}
}

// Int parses a decimal parameter; name is used in the error.
func Int(name, v string) (int64, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil {
		return 0, BadParam(name, "not a whole number")
	}
	return n, nil
}

// Required fails with a coded 400 when v is blank.
func Required(name, v string) error {
	if strings.TrimSpace(v) == "" {
		return BadParam(name, "required")
	}
	return nil
}

// Paging reads pageNo (from 1) and pageSize (1 to 1000, default 1000: spec §9 "lists default page size 1000")
// into an offset and a limit.
func Paging(pageNo, pageSize string) (offset, limit int, err error) {
	return PagingUpTo(pageNo, pageSize, 1000)
}
