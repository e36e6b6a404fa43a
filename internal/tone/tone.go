// Package tone is the tone library and tone messages (spec §3 tone, §5 tone rules, §7 tones, log 129): a
// customer's named sounds with an icon, both uploaded through the file service, and `tone.send`, which asks
// terminals to play one now (`tone.play`, acknowledged like every server request).
package tone

import (
	"context"
	"net/http"
	"strconv"

	"tenfour/internal/files"
	"tenfour/internal/message"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/text"
)

// Limits of the library (spec §5 "size limits (values not shown)").
const (
	MaxFileSize = 5 << 20 // the sound
	MaxIconSize = 1 << 20 // the image
	MaxName     = 32      // characters
	MaxSort     = 9999
)

// Errors (docs/messages.md "Tones").
var (
	ErrNameRequired = httpx.E(http.StatusBadRequest, "76", "errors.tone.nameRequired", "tone name required")
	ErrNameTooLong  = httpx.E(http.StatusBadRequest, "77", "errors.tone.nameTooLong", "tone name longer than 32 characters")
	ErrFileRequired = httpx.E(http.StatusBadRequest, "75", "errors.tone.fileRequired", "the tone's sound file is required")
	ErrIconRequired = httpx.E(http.StatusBadRequest, "78", "errors.tone.iconRequired", "the tone's image is required")
	ErrFileExists   = httpx.E(http.StatusConflict, "73", "errors.tone.fileExists", "file exists: another tone uses this sound")
	ErrNameExists   = httpx.E(http.StatusConflict, "74", "errors.tone.nameExists", "name exists")
	ErrFileType     = httpx.E(http.StatusUnsupportedMediaType, "72", "errors.file.type", "the sound must be an audio file and the icon an image")
	ErrTooLarge     = httpx.E(http.StatusRequestEntityTooLarge, "71", "errors.file.tooLarge", "tone sound above 5 MB or image above 1 MB")
)

// Tone is one library entry (spec §3: name, fileUrl/audioUrl, iconUrl, sort, id, createBy).
type Tone struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	FileID     string `json:"fileId"`
	FileURL    string `json:"fileUrl"`
	AudioURL   string `json:"audioUrl"` // the same as fileUrl
	FileName   string `json:"fileName"`
	FileSize   int64  `json:"fileSize"`
	FileMime   string `json:"fileMime"`
	IconID     string `json:"iconId"`
	IconURL    string `json:"iconUrl"`
	Sort       int    `json:"sort"`
	CreateBy   string `json:"createBy"`
	CreateTime int64  `json:"createTime"`
	UpdateTime int64  `json:"updateTime"`
	customerID int64
}

// Store keeps the library.
type Store struct{ db *db.DB }

// NewStore builds the store.
func NewStore(d *db.DB) *Store { return &Store{db: d} }

const cols = `t.id, t.customer_id, t.name, t.file_id, t.icon_id, t.sort, t.create_by, t.created_at, t.updated_at,
	f.name, f.size, f.mime`
const from = `tones t JOIN files f ON f.id = t.file_id`

func scan(sc db.Scanner) (Tone, error) {
	var t Tone
	var id int64
	err := sc.Scan(&id, &t.customerID, &t.Name, &t.FileID, &t.IconID, &t.Sort, &t.CreateBy, &t.CreateTime, &t.UpdateTime,
		&t.FileName, &t.FileSize, &t.FileMime)
	t.ID = strconv.FormatInt(id, 10)
	t.FileURL, t.AudioURL, t.IconURL = files.URL(t.FileID), files.URL(t.FileID), files.URL(t.IconID)
	return t, err
}

// Get returns one of the customer's tones.
func (s *Store) Get(ctx context.Context, customerID, id int64) (Tone, error) {
	t, err := scan(s.db.QueryRow(ctx, `SELECT `+cols+` FROM `+from+` WHERE t.id = ? AND t.customer_id = ?`, id, customerID))
	return t, db.NotFound(err)
}

// List returns the customer's tones by sort order, optionally only those created by createBy.
func (s *Store) List(ctx context.Context, customerID int64, createBy string) ([]Tone, error) {
	f := db.Scope("t.customer_id", customerID).If(createBy != "", "t.create_by = ?", createBy)
	list, _, err := db.List(ctx, s.db, db.ListQuery{Select: cols, From: from, Where: f, Order: "t.sort, t.id"}, scan)
	return list, err
}

// Save inserts (t.ID "") or updates a tone; name and file clashes are ErrNameExists and ErrFileExists.
func (s *Store) Save(ctx context.Context, customerID int64, t Tone, at int64) (int64, error) {
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		var n int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM tones WHERE customer_id = ? AND name = ? AND CAST(id AS TEXT) <> ?`,
			customerID, t.Name, t.ID).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return ErrNameExists
		}
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM tones WHERE customer_id = ? AND file_id = ? AND CAST(id AS TEXT) <> ?`,
			customerID, t.FileID, t.ID).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return ErrFileExists
		}
		if t.ID == "" {
			var id int64
			if err := tx.QueryRow(ctx, `INSERT INTO tones (customer_id, name, file_id, icon_id, sort, create_by, created_at, updated_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, customerID, t.Name, t.FileID, t.IconID, t.Sort, t.CreateBy, at, at).Scan(&id); err != nil {
				return err
			}
			t.ID = strconv.FormatInt(id, 10)
			return nil
		}
		return db.OneRow(tx.Exec(ctx, `UPDATE tones SET name = ?, file_id = ?, icon_id = ?, sort = ?, updated_at = ?
			WHERE id = ? AND customer_id = ?`, t.Name, t.FileID, t.IconID, t.Sort, at, t.ID, customerID))
	})
	if db.IsUniqueViolation(err) {
		return 0, ErrNameExists // a concurrent save won the name (or the file) between the check and the write
	}
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(t.ID, 10, 64)
}

// Delete removes one of the customer's tones.
func (s *Store) Delete(ctx context.Context, customerID, id int64) error {
	return db.OneRow(s.db.Exec(ctx, `DELETE FROM tones WHERE id = ? AND customer_id = ?`, id, customerID))
}

// nameField is a tone name's rule (text.Name): required, at most MaxName characters, with the codes of
// docs/messages.md (invalid characters are the message's "10").
var nameField = text.Field{Name: "name", Max: MaxName, Required: true,
	Invalid: message.ErrInvalidChars, Missing: ErrNameRequired, TooLong: ErrNameTooLong}
