// Package message is messaging between dispatchers and terminals (spec §7 "send SMS", "SMS"): a message is
// stored with its recipients before it is sent, each terminal acknowledges it, and what a terminal has not
// acknowledged is delivered at its next login. Terminals send messages too; those are incoming (status 0,
// unread) until a dispatcher reads them. A message may carry one uploaded file (internal/files). REST:
// findSms, updateSms, the unread list and the message-data report (docs/messages.md).
package message

import (
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"tenfour/internal/files"
	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/text"
)

// Socket types (docs/console-socket.md, docs/terminal-protocol.md "Messages").
const (
	ReqSend       = "sms.send"     // console or terminal → server
	TermDeliver   = "sms.deliver"  // server → terminal request; the terminal acknowledges
	EventStatus   = "sms.status"   // server → consoles, durable: delivery of a message to terminals
	EventReceived = "sms.received" // server → consoles, durable: a terminal's message (unread list "type b")
	EventRead     = "sms.read"     // server → consoles, durable: messages were read (unread list "type n")
	MaxContent    = 1000           // characters (runes) of one message
	pendingBatch  = 100            // undelivered messages fetched at a time at a terminal's login
)

// Message kinds (the message's `type`): text, or the kind of its attached file.
const (
	KindText = "text"
)

// Spec §8 client messages are numbered 0-16; these two are the message ones.
var (
	ErrInvalidChars = httpx.E(http.StatusBadRequest, "10", "errors.sms.invalidChars", "message contains invalid characters")
	ErrEmpty        = httpx.E(http.StatusBadRequest, "11", "errors.sms.empty", "message is empty")
	ErrTooLong      = httpx.E(http.StatusBadRequest, "400", "errors.sms.tooLong", "message longer than 1000 characters")
	ErrRefused      = httpx.E(http.StatusConflict, "16", "errors.sms.failed", "the terminal refused the message")
	ErrNotMember    = httpx.E(http.StatusConflict, "24", "errors.directory.notMember", "the terminal is not a member of the group")
)

// CleanContent normalises line ends and checks a message's text: not empty once blanks are trimmed, at most
// MaxContent characters, and free of illegal characters (text.IllegalRune). It returns the text to store.
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
		if text.IllegalRune(r) {
			return "", ErrInvalidChars
		}
	}
	return s, nil
}

// SendRequest is the data of `sms.send`. From a console: exactly one of MsID (a terminal) and GID (a group).
// From a terminal: To (or MsID) a dispatcher, or GID one of its groups, or neither (the dispatch center).
// FileID (or FileURL) attaches an uploaded file; Content may then be empty.
type SendRequest struct {
	MsID    flex.String `json:"msId"`
	To      flex.String `json:"to"`
	GID     flex.String `json:"gid"`
	Content *string     `json:"content"`
	FileID  flex.String `json:"fileId"`
	FileURL flex.String `json:"fileUrl"`
}

// SendResult is the reply data of `sms.send`.
type SendResult struct {
	ID         string `json:"id"`
	Recipients int    `json:"recipients"` // terminals addressed
	Online     int    `json:"online"`     // of which connected when it was sent
	Delivered  int    `json:"delivered"`  // of which acknowledged
	State      string `json:"state"`      // pending | partial | delivered
}

// FileRef is a message's attachment.
type FileRef struct {
	ID   string `json:"id"`
	Kind string `json:"kind"`
	Name string `json:"name"`
	Mime string `json:"mime"`
	Size int64  `json:"size"`
	URL  string `json:"url"` // /filews/files/{id}; to a terminal with ?token= (a file token)
}

// View is a message as every client sees it: REST lists and the `sms.status` and `sms.received` events.
type View struct {
	ID         string   `json:"id"`
	Sender     string   `json:"sender"` // spec §3 "sender": the msId that sent it
	From       string   `json:"from"`   // the same (the name sms.status always had)
	FromName   string   `json:"fromName"`
	Incoming   bool     `json:"incoming"`       // sent by a terminal
	MsID       string   `json:"msId,omitempty"` // a dispatcher's message: the terminal; a terminal's: the dispatcher ("" = every dispatcher)
	MsName     string   `json:"msName,omitempty"`
	GID        string   `json:"gid,omitempty"` // the group it was sent to
	GName      string   `json:"gName,omitempty"`
	Content    string   `json:"content"`
	Type       string   `json:"type"` // text | image | file | audio | video
	File       *FileRef `json:"file,omitempty"`
	Status     int      `json:"status"` // 0 incoming and unread, 1 read (a dispatcher's message is always 1)
	ReadBy     string   `json:"readBy,omitempty"`
	ReadAt     int64    `json:"readAt,omitempty"`
	Time       int64    `json:"time"`    // UTC ms
	UTCTime    string   `json:"utctime"` // the same as RFC 3339 UTC text
	Recipients int      `json:"recipients"`
	Delivered  int      `json:"delivered"`
	State      string   `json:"state"` // pending | partial | delivered (to its terminal recipients)
}

// Deliver is the data of `sms.deliver` to a terminal.
type Deliver struct {
	ID       string   `json:"id"`
	From     string   `json:"from"`
	FromName string   `json:"fromName"`
	GID      string   `json:"gid,omitempty"` // set for a group message
	Content  string   `json:"content"`
	Type     string   `json:"type"`
	File     *FileRef `json:"file,omitempty"`
	Time     int64    `json:"time"`
}

func (m Message) view() View {
	v := View{ID: strconv.FormatInt(m.ID, 10), Sender: m.SenderID, From: m.SenderID, FromName: m.SenderName,
		Incoming: m.Incoming, MsID: m.MsID, MsName: m.MsName, GName: m.GName, Content: m.Content, Type: m.Kind,
		Status: m.Status, ReadBy: m.ReadBy, ReadAt: m.ReadAt, Time: m.Time,
		UTCTime: time.UnixMilli(m.Time).UTC().Format("2006-01-02T15:04:05.000Z"), Recipients: m.Recipients,
		Delivered: m.Delivered, State: state(m.Recipients, m.Delivered)}
	if m.GID != 0 {
		v.GID = strconv.FormatInt(m.GID, 10)
	}
	if v.Type == "" {
		v.Type = KindText
	}
	if m.File != nil {
		f := *m.File
		f.URL = files.URL(f.ID)
		v.File = &f
	}
	return v
}

// deliver is the sms.deliver data; token (a file token for the terminal) is added to the attachment's URL.
func (m Message) deliver(token string) Deliver {
	v := m.view()
	d := Deliver{ID: v.ID, From: v.From, FromName: v.FromName, GID: v.GID, Content: v.Content, Type: v.Type,
		File: v.File, Time: v.Time}
	if d.File != nil && token != "" {
		d.File.URL += "?token=" + token
	}
	return d
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

func parseGID(s flex.String) (int64, error) {
	g, err := strconv.ParseInt(string(s), 10, 64)
	if err != nil || g <= 0 {
		return 0, httpx.BadParam("gid", "a group id")
	}
	return g, nil
}
