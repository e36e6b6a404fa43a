package text

import (
	"net/http"
	"strings"
	"testing"

	"tenfour/internal/platform/httpx"
)

func TestField(t *testing.T) {
	own := httpx.E(http.StatusBadRequest, "1027", "x.errors.1027", "invalid characters")
	name := Field{Name: "name", Max: 5, Required: true, Invalid: own}
	opt := Field{Name: "alias", Max: 5}
	for _, c := range []struct {
		f        Field
		in, want string
		code     string // "" ok; else the error's code
		msg      string
	}{
		{name, "  Cafe\u0301 ", "Caf\u00e9", "", ""},
		{name, "abcde", "abcde", "", ""},
		{name, "abcdef", "", "400", "name: at most 5 characters"},
		{name, "五个字符五", "五个字符五", "", ""}, // characters, not bytes
		{name, "  ", "", "400", "name: required"},
		{name, "a\u200bb", "", "1027", "invalid characters"},
		{name.As("classes.name"), "", "", "400", "classes.name: required"},
		{opt, "", "", "", ""},
		{opt, "a\u202eb", "", "400", "alias: invalid characters"},
		{Field{Name: "n", Required: true, Missing: own}, "", "", "1027", "invalid characters"},
		{Field{Name: "n"}, strings.Repeat("x", 1000), strings.Repeat("x", 1000), "", ""}, // Max 0: no bound
	} {
		got, err := c.f.Check(c.in)
		code, msg := "", ""
		if e, ok := httpx.AsError(err); ok {
			code, msg = e.Code, e.Msg
		} else if err != nil {
			t.Fatalf("%q: not a coded error: %v", c.in, err)
		}
		if got != c.want || code != c.code || msg != c.msg {
			t.Errorf("%s.Check(%q) = %q %s %q, want %q %s %q", c.f.Name, c.in, got, code, msg, c.want, c.code, c.msg)
		}
	}
}
