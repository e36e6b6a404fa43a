package files

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/quota"
)

// TokenTTL is how long a file token (socket `file.token`) opens the file service.
const TokenTTL = 10 * time.Minute

// Sessions resolves a console's session token (auth.Sessions).
type Sessions interface {
	Lookup(ctx context.Context, token string) (identity.Principal, error)
}

// Service stores uploads and serves files.
type Service struct {
	db       *db.DB
	storage  Storage
	limits   Limits
	sessions Sessions
	quota    *quota.Quota // the customer's storage across uploads; nil: unlimited
	key      []byte       // signs file tokens; new at every start, so a restart ends them (terminals ask again)
	now      func() time.Time
}

// New builds the service; zero limits take DefaultLimits.
func New(d *db.DB, st Storage, limits Limits, sessions Sessions) *Service {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		panic(err)
	}
	return &Service{db: d, storage: st, limits: limits.withDefaults(), sessions: sessions, key: key, now: time.Now}
}

// SetKey replaces the file token key (call before serving): the nodes of a cluster share one, so a token one
// node signs is accepted by every node (internal/cluster SharedSecret).
func (s *Service) SetKey(key []byte) { s.key = key }

// SetQuota measures uploads against the customers' storage quota (call before serving; nil: unlimited).
func (s *Service) SetQuota(q *quota.Quota) { s.quota = q }

// Usage is the bytes the file store keeps for a customer (the media cloud's items are files too): a source of
// the storage quota.
var Usage = quota.SumSize("files")

// Limits are the upload limits in force.
func (s *Service) Limits() Limits { return s.limits }

// Storage is where the bytes are.
func (s *Service) Storage() Storage { return s.storage }

// Get returns one of the customer's files (db.ErrNotFound for unknown ids and other customers' files).
func (s *Service) Get(ctx context.Context, customerID int64, id string) (Info, error) {
	if !ValidID(id) {
		return Info{}, db.ErrNotFound
	}
	var f Info
	err := s.db.QueryRow(ctx, `SELECT id, customer_id, kind, mime, name, size, sha256, uploaded_by, created_at
		FROM files WHERE id = ? AND customer_id = ?`, id, customerID).
		Scan(&f.ID, &f.CustomerID, &f.Kind, &f.Mime, &f.Name, &f.Size, &f.SHA256, &f.UploadedBy, &f.Time)
	if err != nil {
		return Info{}, db.NotFound(err)
	}
	f.URL = URL(f.ID)
	return f, nil
}

// Save stores an upload for p: its type is detected from the first bytes (want may narrow the kind, see
// Detect), its size checked against the kind's limit and the room left in the customer's storage quota while
// it streams, then the row is written after the quota is taken (package quota). Errors: ErrEmpty, ErrType,
// ErrTooLarge, quota.ErrFull; nothing is kept on any error.
func (s *Service) Save(ctx context.Context, p identity.Principal, name string, want Kind, r io.Reader) (Info, error) {
	room, err := s.quota.Room(ctx, p.CustomerID) // a full customer's upload is refused before it is read
	if err != nil {
		return Info{}, err
	}
	head := make([]byte, 512)
	n, err := io.ReadFull(r, head)
	switch {
	case n == 0 && (err == nil || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)):
		return Info{}, ErrEmpty
	case err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF):
		return Info{}, readErr(err)
	}
	head = head[:n]
	mime, kind, err := Detect(head, want)
	if err != nil {
		return Info{}, err
	}
	id := newID()
	sum := sha256.New()
	limit := s.limits.Of(kind)
	body := &limitReader{r: io.TeeReader(io.MultiReader(bytes.NewReader(head), r), sum), left: min(limit, room)}
	size, err := s.storage.Put(ctx, id, body)
	if err != nil {
		if errors.Is(err, errTooLarge) && room < limit {
			return Info{}, quota.ErrFull
		}
		return Info{}, readErr(err)
	}
	f := Info{ID: id, CustomerID: p.CustomerID, Kind: kind, Mime: mime, Name: CleanName(name), Size: size,
		SHA256: hex.EncodeToString(sum.Sum(nil)), URL: URL(id), UploadedBy: p.AccountID, Time: s.now().UnixMilli()}
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := s.quota.Take(ctx, tx, f.CustomerID, f.Size); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO files (id, customer_id, kind, mime, name, size, sha256, uploaded_by, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, f.ID, f.CustomerID, f.Kind, f.Mime, f.Name, f.Size, f.SHA256, f.UploadedBy, f.Time)
		return err
	})
	if err != nil {
		_ = s.storage.Delete(context.WithoutCancel(ctx), id)
		return Info{}, err
	}
	return f, nil
}

// ErrInUse refuses to delete a file a tone or a floor plan still uses (their foreign keys keep it).
var ErrInUse = httpx.E(http.StatusConflict, "409", "errors.file.inUse", "a tone or a floor plan uses this file")

// DeleteIn removes one of the customer's file rows in tx, the transaction that removes what referred to it (a
// media-cloud item); its space in the storage quota is free once tx commits, and RemoveBytes then removes the
// bytes. db.ErrNotFound for another customer's or an unknown file; ErrInUse when a tone or a floor plan still
// uses it. Records that name a file without a key (a message's attachment, an avatar) then get 404 for it.
func (s *Service) DeleteIn(ctx context.Context, tx *db.Tx, customerID int64, id string) error {
	if !ValidID(id) {
		return db.ErrNotFound
	}
	res, err := tx.Exec(ctx, `DELETE FROM files WHERE id = ? AND customer_id = ?`, id, customerID)
	if db.IsForeignKeyViolation(err) {
		return ErrInUse
	}
	return db.OneRow(res, err)
}

// RemoveBytes removes a deleted file's bytes (after DeleteIn's transaction committed); a failure is logged,
// the row is gone either way.
func (s *Service) RemoveBytes(ctx context.Context, id string) {
	if err := s.storage.Delete(context.WithoutCancel(ctx), id); err != nil {
		slog.ErrorContext(ctx, "files: remove a deleted file's bytes", "id", id, "err", err)
	}
}

func readErr(err error) error {
	var mbe *http.MaxBytesError
	if errors.Is(err, errTooLarge) || errors.As(err, &mbe) {
		return ErrTooLarge
	}
	return err
}

var errTooLarge = errors.New("files: over the limit")

// limitReader fails once more than left bytes came through.
type limitReader struct {
	r    io.Reader
	left int64
}

func (l *limitReader) Read(p []byte) (int, error) {
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		return n, errTooLarge
	}
	return n, err
}

func newID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b[:])
}

// File tokens: "ft1.<payload>.<signature>", both base64url; the payload names the account, its customer and
// the expiry. They open the file service (upload and download) for terminals, which have no HTTP session.
const tokenPrefix = "ft1."

type tokenClaims struct {
	MsID     string `json:"m"`
	Customer int64  `json:"c"`
	Type     string `json:"t"`
	Name     string `json:"n"`
	Expires  int64  `json:"e"`
}

// IssueToken returns a file token for p and when it expires (ms).
func (s *Service) IssueToken(p identity.Principal) (string, int64) {
	exp := s.now().Add(TokenTTL).UnixMilli()
	payload, _ := json.Marshal(tokenClaims{MsID: p.AccountID, Customer: p.CustomerID, Type: p.Type, Name: p.Name, Expires: exp})
	enc := base64.RawURLEncoding.EncodeToString(payload)
	return tokenPrefix + enc + "." + s.sign(enc), exp
}

func (s *Service) sign(enc string) string {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(enc))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// Authenticate resolves a console session token or a file token to the caller; httpx.ErrToken otherwise.
func (s *Service) Authenticate(ctx context.Context, token string) (identity.Principal, error) {
	if !strings.HasPrefix(token, tokenPrefix) {
		if s.sessions == nil {
			return identity.Principal{}, httpx.ErrToken
		}
		return s.sessions.Lookup(ctx, token)
	}
	enc, sig, ok := strings.Cut(strings.TrimPrefix(token, tokenPrefix), ".")
	if !ok || len(token) > 1024 || !hmac.Equal([]byte(sig), []byte(s.sign(enc))) {
		return identity.Principal{}, httpx.ErrToken
	}
	raw, err := base64.RawURLEncoding.DecodeString(enc)
	var c tokenClaims
	if err != nil || json.Unmarshal(raw, &c) != nil || s.now().UnixMilli() >= c.Expires {
		return identity.Principal{}, httpx.ErrToken
	}
	return identity.Principal{AccountID: c.MsID, CustomerID: c.Customer, Type: c.Type, Name: c.Name}, nil
}

// Describe is a short text for logs, e.g. "photo.jpg (image, 1.2 MB)".
func (f Info) Describe() string {
	name := f.Name
	if name == "" {
		name = f.ID
	}
	return fmt.Sprintf("%s (%s, %.1f KB)", name, f.Kind, float64(f.Size)/1024)
}
