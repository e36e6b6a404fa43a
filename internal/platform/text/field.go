package text

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"tenfour/internal/platform/httpx"
)

// Field is the rule of one name parameter: Name (its text.Name form), at most Max characters (0: no bound),
// required or not. A domain declares its fields once and checks every request with them:
//
//	var areaName = text.Field{Name: "name", Max: MaxName, Required: true, Invalid: ErrBadChars}
//	a.Name, err = areaName.Check(req.Name)
//
// The errors are the "400" ones below unless the domain answers with its own codes.
type Field struct {
	Name     string // the parameter, as errors name it
	Max      int
	Required bool
	// A domain's own answers; nil is the default: "400" "name: invalid characters", "name: required",
	// "name: at most N characters".
	Invalid, Missing, TooLong *httpx.Error
}

// Check returns v as it is stored (Name: trimmed, NFC) or the field's error: invalid characters first, then
// blank, then too long.
func (f Field) Check(v string) (string, error) {
	n, ok := Name(v)
	switch {
	case !ok:
		return "", or(f.Invalid, f.Name, "invalid characters")
	case n == "" && f.Required:
		return "", or(f.Missing, f.Name, "required")
	case f.Max > 0 && utf8.RuneCountInString(n) > f.Max:
		return "", or(f.TooLong, f.Name, fmt.Sprintf("at most %d characters", f.Max))
	}
	return n, nil
}

// CheckPlain is Check for callers outside HTTP (the admin shell, seeding): the same rule, its refusal as a plain
// error ("account name: required") without the HTTP code a Field's error carries.
func (f Field) CheckPlain(v string) (string, error) {
	v, err := f.Check(v)
	var he *httpx.Error
	if errors.As(err, &he) {
		return "", errors.New(he.Msg)
	}
	return v, err
}

// As is the same rule for another parameter (a class name inside a plan: "classes.name").
func (f Field) As(name string) Field {
	f.Name = name
	return f
}

func or(e *httpx.Error, name, why string) error {
	if e != nil {
		return e
	}
	return httpx.BadParam(name, why)
}
