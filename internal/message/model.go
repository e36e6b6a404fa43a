// Package message relays SMS between dispatchers and terminals over the socket (spec §7 "send SMS"): a message
// is stored with its recipients before it is sent, each terminal acknowledges it, and what a terminal has not
// acknowledged is delivered at its next login. The full messaging feature (lists, read state) builds on it.
package message

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"tenfour/internal/platform/httpx"
)

// Socket types (docs/console-socket.md, docs/terminal-protocol.md "Messages").
const (
	ReqSend      = "sms.send"    // console → server {msId? | gid?, content}
	TermDeliver  = "sms.deliver" // server → terminal request; the terminal acknowledges
	EventStatus  = "sms.status"  // server → consoles, durable
	MaxContent   = 1000          // characters (runes) of one message
	pendingBatch = 100           // undelivered messages fetched at a time at a terminal's login
)

// Spec §8 client messages are numbered 0-16; these two are the message ones.
var (
	ErrInvalidChars = httpx.E(http.StatusBadRequest, "10", "errors.sms.invalidChars", "message contains invalid characters")
	ErrEmpty        = httpx.E(http.StatusBadRequest, "11", "errors.sms.empty", "message is empty")
	ErrTooLong      = httpx.E(http.StatusBadRequest, "400", "errors.sms.tooLong", "message longer than 1000 characters")
	ErrRefused      = httpx.E(http.StatusConflict, "16", "errors.sms.failed", "the terminal refused the message")
)

// CleanContent normalises line ends and checks a message's text: not empty once blanks are trimmed, at most
// MaxContent characters, and free of illegal characters (IllegalRune). It returns the text to store.
func CleanContent(s string) (string, error) {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	if strings.TrimSpace(s) == "" {
		return "", ErrEmpty
	}
	if !utf8.ValidString(s) {
		return "", ErrInvalidChars
	}
	if utf8.RuneCountInString(s) > MaxContent {
		return "", ErrTooLong
	}
	for _, r := range s {
		if IllegalRune(r) {
			return "", ErrInvalidChars
		}
	}
	return s, nil
}

// IllegalRune is the documented illegal set (docs/console-socket.md "sms.send"): control characters other than
// line feed and tab (C0, DEL, C1 — a lone carriage return included), the replacement character U+FFFD (what
// invalid UTF-8 decodes to), the byte-order mark U+FEFF, the bidirectional embedding, override and isolate
// controls U+202A-U+202E and U+2066-U+2069 (they make a text read differently from what it says), and the
// noncharacters U+FFFE and U+FFFF.
func IllegalRune(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r == 0xfffd, r == 0xfeff, r == 0xfffe, r == 0xffff:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// SendRequest is the data of `sms.send`: exactly one of MsID (a terminal) and GID (a group).
type SendRequest struct {
	MsID    flexString `json:"msId"`
	GID     flexString `json:"gid"`
	Content *string    `json:"content"`
}

// SendResult is the reply data of `sms.send`.
type SendResult struct {
	ID         string `json:"id"`
	Recipients int    `json:"recipients"` // terminals addressed
	Online     int    `json:"online"`     // of which connected when it was sent
	Delivered  int    `json:"delivered"`  // of which acknowledged
	State      string `json:"state"`      // pending | partial | delivered
}

// Status is the data of the durable `sms.status` event to consoles.
type Status struct {
	ID         string `json:"id"`
	From       string `json:"from"`
	FromName   string `json:"fromName"`
	MsID       string `json:"msId,omitempty"`
	GID        string `json:"gid,omitempty"`
	Content    string `json:"content"`
	Time       int64  `json:"time"`
	Recipients int    `json:"recipients"`
	Delivered  int    `json:"delivered"`
	State      string `json:"state"`
}

// Deliver is the data of `sms.deliver` to a terminal.
type Deliver struct {
	ID       string `json:"id"`
	From     string `json:"from"`
	FromName string `json:"fromName"`
	GID      string `json:"gid,omitempty"` // set for a group message
	Content  string `json:"content"`
	Time     int64  `json:"time"`
}

func state(recipients, delivered int) string {
	switch {
	case delivered >= recipients:
		return "delivered"
	case delivered == 0:
		return "pending"
	default:
		return "partial"
	}
}

// flexString accepts a JSON string or number (ids travel as strings, some clients send numbers).
type flexString string

func (f *flexString) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*f = flexString(strings.TrimSpace(s))
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err == nil {
		*f = flexString(n.String())
		return nil
	}
	if string(b) == "null" {
		*f = ""
		return nil
	}
	return httpx.BadParam("id", "a string")
}

func parseGID(s flexString) (int64, error) {
	g, err := strconv.ParseInt(string(s), 10, 64)
	if err != nil || g <= 0 {
		return 0, httpx.BadParam("gid", "a group id")
	}
	return g, nil
}
