// Package directory owns groups and terminals of a customer (spec §3): the group tree (fixed and temporary
// groups), terminal records with their live status, group membership, presence (online/offline, logs 5/6/7),
// group switching (log 8) and temporary groups (logs 0, 1, 4, 15, 104).
//
// Other domains use the Store through the directory API (api.go: accounts, groups and audiences, call-set
// status, last positions and statuses, icons, presence, provisioning), each through an interface of its own.
// Every Store method takes the customer id and never reads or writes another customer's rows.
package directory

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"tenfour/internal/platform/flex"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/text"
)

// GroupID is a group's id (gid/fid). 0 is the root. It travels as a string in JSON.
type GroupID int64

// Root is the fid of top-level groups.
const Root GroupID = 0

func (g GroupID) String() string { return strconv.FormatInt(int64(g), 10) }

// MarshalJSON writes the id as a string, like every id of the API.
func (g GroupID) MarshalJSON() ([]byte, error) { return json.Marshal(g.String()) }

// UnmarshalJSON accepts a string or a number.
func (g *GroupID) UnmarshalJSON(b []byte) error {
	var s flex.String
	if err := s.UnmarshalJSON(b); err != nil {
		return err
	}
	id, err := ParseGroupID("gid", string(s), true)
	if err != nil {
		return err
	}
	*g = id
	return nil
}

// ParseGroupID reads a decimal group id; root ("0") is accepted only when allowRoot.
func ParseGroupID(name, s string, allowRoot bool) (GroupID, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, httpx.BadParam(name, "required")
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || (n == 0 && !allowRoot) {
		return 0, httpx.BadParam(name, "not a group id")
	}
	return GroupID(n), nil
}

// Group kinds.
const (
	KindFixed = "fixed"
	KindTemp  = "temp"
)

// KindSIP is the terminal kind (accounts.kind) of a SIP account: a desk phone, softphone or radio gateway that
// registers over SIP (internal/sip, docs/adr/0037). The native terminals and dispatchers have kind "".
const KindSIP = "sip"

// How a SIP account asks for the floor (accounts.sip_talk; docs/sip.md "Talk keys and voice"): SIPTalkAuto with its
// phone's talk keys when the phone offers them (telephone-event) and by voice activity when it does not;
// SIPTalkKeys with the keys only; SIPTalkVoice by voice activity only — a radio gateway whose carrier detect
// arrives as audio, even one that offers keys.
const (
	SIPTalkAuto  = "auto"
	SIPTalkKeys  = "keys"
	SIPTalkVoice = "voice"
)

// ErrSIPTalk refuses a talk mode that is none of SIPTalkAuto, SIPTalkKeys and SIPTalkVoice.
var ErrSIPTalk = httpx.BadParam("talk", "auto, keys or voice")

// Terminal is a member of the directory: any account of the customer, dispatchers (type 20) included.
type Terminal struct {
	CID           string   `json:"cid"`
	Name          string   `json:"name"`
	Type          string   `json:"type"`
	Online        string   `json:"online"` // "1" online, "0" offline
	Grp           string   `json:"grp"`    // the group it talks in now (pttGroup); "" when none
	Lat           *float64 `json:"lat"`    // null until the first position
	Lng           *float64 `json:"lng"`
	Speed         float64  `json:"speed"`
	Battery       int      `json:"battery"` // percent, -1 unknown
	Signal        int      `json:"signal"`  // 0..5, -1 unknown
	Model         string   `json:"model"`
	LastGps       int64    `json:"lastGps"`       // time of the last position (ms)
	CallSetStatus int      `json:"callSetStatus"` // 0 killed, 1 stunned, 8 active
	Avatar        string   `json:"avatar"`
	LastOnline    int64    `json:"lastOnline"`
	LastOffline   int64    `json:"lastOffline"`
	Ver           string   `json:"ver"` // software version (updateMsInfo)
	// Kind is how the account connects: absent for the terminal protocol and dispatchers, KindSIP for a SIP
	// phone or gateway (the console may draw it so; docs/adr/0037).
	Kind string `json:"kind,omitempty"`

	direction, altitude float64
}

// IsOnline reports the online flag as a bool.
func (t Terminal) IsOnline() bool { return t.Online == "1" }

// Group is a node of the tree. Fixed groups nest (fid → gid); temporary groups are top-level.
type Group struct {
	GID         GroupID     `json:"gid"`
	FID         GroupID     `json:"fid"`
	Name        string      `json:"name"`
	Color       string      `json:"color"`
	SeqNum      int         `json:"seqNum"`
	Deep        int         `json:"deep"` // 1 for top-level groups
	Kind        string      `json:"kind"`
	Creator     string      `json:"creator,omitempty"`     // temp groups: msId of the dispatcher who made it
	CreatorName string      `json:"creatorName,omitempty"` // and that account's name now ("" once it is gone)
	MemberCount int         `json:"memberCount"`
	OnlineCount int         `json:"onlineCount"`
	Children    []*Group    `json:"children"`
	MsList      []Terminal  `json:"msList"`
	LastGpsList []GPSLatest `json:"lastGpsList"`
}

// GPSLatest is a member's last position in a group's lastGpsList.
type GPSLatest struct {
	Mid  string  `json:"mid"`
	Lng  float64 `json:"lng"`
	Lat  float64 `json:"lat"`
	Time int64   `json:"time"`
}

// LastGPS is one row of getLastGps.
type LastGPS struct {
	Mid       string  `json:"mid"`
	Lng       float64 `json:"lng"`
	Lat       float64 `json:"lat"`
	Speed     float64 `json:"speed"`
	Direction float64 `json:"direction"`
	Altitude  float64 `json:"altitude"`
	Time      int64   `json:"time"`
}

// Membership is what a terminal is told about its groups (terminal protocol `group.changed`).
type Membership struct {
	MsID     string     `json:"msId"`
	Groups   []GroupRef `json:"groups"`
	PttGroup string     `json:"pttGroup"` // "" when none
	GID      string     `json:"gId"`      // default group, "" when none
}

// GroupRef is a group without members.
type GroupRef struct {
	GID  GroupID `json:"gid"`
	FID  GroupID `json:"fid"`
	Name string  `json:"name"`
	Kind string  `json:"kind"`
}

// Limits (the spec gives only the temp-group name limit; the rest are decisions, see docs/api.md).
const (
	MaxTempNameLen  = 20 // spec §5
	MaxGroupNameLen = 32
	MaxTermNameLen  = 32
	MaxIDLen        = httpx.MaxIDLen
	MaxVersionLen   = 64
	MaxListIDs      = 500 // msIds in one call
	MaxTempMembers  = 200
	MaxDepth        = 8 // nesting of fixed groups
)

// Errors of the directory (codes in docs/api.md "Directory" and docs/console-socket.md).
var (
	ErrNameRequired  = httpx.E(http.StatusBadRequest, "20", "errors.directory.nameRequired", "name required")
	ErrNameExists    = httpx.E(http.StatusConflict, "21", "errors.directory.nameExists", "name exists")
	ErrNameTooLong   = httpx.E(http.StatusBadRequest, "22", "errors.directory.nameTooLong", "name too long")
	ErrGroupNotEmpty = httpx.E(http.StatusConflict, "23", "errors.directory.groupNotEmpty", "group has members or subgroups")
	ErrNotMember     = httpx.E(http.StatusConflict, "24", "errors.directory.notMember", "terminal is not a member of the group")
	ErrInvalidChars  = httpx.E(http.StatusBadRequest, "10", "errors.client.10", "invalid characters")
	ErrTempExists    = httpx.E(http.StatusConflict, "3", "errors.client.3", "temp group exists")
	ErrSelectMembers = httpx.E(http.StatusBadRequest, "1", "errors.client.0", "select temp members")
	ErrTooDeep       = httpx.E(http.StatusBadRequest, "400", "errors.directory.tooDeep", "groups nest at most 8 levels")
	// ErrDiffClient refuses saveGroupMs diffClient=1 (adding another customer's terminals): spec §8 "Terminal add
	// 107: customer does not exist" — no other customer exists for this one, so the console says that, not "no
	// permission" (107's meaning on every other path).
	ErrDiffClient = httpx.E(http.StatusForbidden, "107", "dispatch.errors.customerMissing", "customer does not exist")
)

// CheckName trims, normalises and validates a group or terminal name (text.Name): required, at most max
// characters (runes), no control, format (bidi, zero-width) or replacement characters ("10").
func CheckName(name string, max int) (string, error) {
	name, ok := text.Name(name)
	if !ok {
		return "", ErrInvalidChars
	}
	if name == "" {
		return "", ErrNameRequired
	}
	if utf8.RuneCountInString(name) > max {
		return "", ErrNameTooLong
	}
	return name, nil
}

// CheckID validates an account id parameter (msId, cid).
func CheckID(name, id string) (string, error) { return httpx.ID(name, id) }

// checkIDs validates a required list of account ids and removes duplicates, keeping order.
func checkIDs(name string, ids []string) ([]string, error) {
	return httpx.IDs(name, ids, MaxListIDs, true)
}
