// Package secretkey owns a customer's secret keys (spec §2 /secret-keys, §3 key, §5 format, §7 /ds/key/*): the
// key ring of the voice-encryption key its radio side shares. At most one key is current; that one is what
// terminals receive at login and on every rotation (`key.changed`) and what the console's userInfo.secretKey
// carries. docs/adr/0021-secret-keys-and-custom-themes.md says why and what tenfour itself does with it.
package secretkey

import (
	"encoding/json"
	"net/http"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/text"
)

// KeyLen is the length of a key (spec §5: "length 32"; the one text that says 320 is not followed, ADR 0021).
const KeyLen = 32

// MaxName is the longest key name, in characters.
const MaxName = 32

// MaxKeys bounds a customer's key ring: rotation keeps the old keys for a while, not forever.
const MaxKeys = 100

var keyRe = regexp.MustCompile(`^[0-9A-Z]{32}$`)

// ValidKey tells whether k is a well-formed key: exactly 32 digits and capital letters (spec §5).
func ValidKey(k string) bool { return keyRe.MatchString(k) }

// Errors (docs/api.md "Secret keys"); codes 140–149 are this package's and the custom theme's.
var (
	ErrFormat       = httpx.E(http.StatusBadRequest, "140", "errors.key.format", "a key is 32 digits and capital letters")
	ErrKeyExists    = httpx.E(http.StatusConflict, "141", "errors.key.exists", "the customer has this key already")
	ErrNameRequired = httpx.E(http.StatusBadRequest, "142", "errors.key.nameRequired", "key name required")
	ErrNameTooLong  = httpx.E(http.StatusBadRequest, "143", "errors.key.nameTooLong", "key name longer than 32 characters")
	ErrNameExists   = httpx.E(http.StatusConflict, "74", "errors.nameExists", "name exists")
	ErrIllegalName  = httpx.E(http.StatusBadRequest, "10", "errors.client.10", "invalid characters")
	ErrTooMany      = httpx.E(http.StatusConflict, "144", "errors.key.tooMany", "a customer keeps at most 100 keys")
)

// KeyID is a key's row id.
type KeyID int64

func (id KeyID) String() string { return strconv.FormatInt(int64(id), 10) }

// Key is one key of a customer's ring.
type Key struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	SecretKey  string `json:"secretKey"`
	Current    bool   `json:"current"`
	CreateBy   string `json:"createBy"`
	CreateTime int64  `json:"createTime"`
	UpdateTime int64  `json:"updateTime"`
	// RotateTime is when the key last became the current one (0: never).
	RotateTime int64 `json:"rotateTime"`
}

// Changed is the data of the `key.changed` event and of the login reminder: the customer's current key ("" and
// keyId "" when none: encryption off).
type Changed struct {
	KeyID     string `json:"keyId"`
	SecretKey string `json:"secretKey"`
}

// cleanKey normalises a key as people type it (blanks around it) and checks the format; lower-case letters are
// refused, not upper-cased: a radio compares keys byte for byte, and the dispatcher must see the key it stores.
func cleanKey(k string) (string, error) {
	k = strings.TrimSpace(k)
	if !ValidKey(k) {
		return "", ErrFormat
	}
	return k, nil
}

// nameField is a key name's rule, with the key codes of spec §5.
var nameField = text.Field{Name: "name", Max: MaxName, Required: true,
	Invalid: ErrIllegalName, Missing: ErrNameRequired, TooLong: ErrNameTooLong}

// boolish is a flag clients send as true/false, 1/0 or their string forms.
type boolish struct {
	set, v bool
}

func (b *boolish) UnmarshalJSON(raw []byte) error {
	s := strings.Trim(strings.TrimSpace(string(raw)), `"`)
	switch strings.ToLower(s) {
	case "null", "":
		*b = boolish{}
	case "true", "1":
		*b = boolish{set: true, v: true}
	case "false", "0":
		*b = boolish{set: true, v: false}
	default:
		return &json.UnmarshalTypeError{Value: s, Type: reflect.TypeFor[bool]()}
	}
	return nil
}
