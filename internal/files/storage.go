package files

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Storage keeps the bytes of files under keys the server chose (file ids). The local directory is the only
// implementation today; an S3-compatible one can take its place (DESIGN.md §1).
type Storage interface {
	// Put stores r under key, replacing nothing: a reader error leaves no file behind.
	Put(ctx context.Context, key string, r io.Reader) (int64, error)
	// Open returns the file for reading with seeks (range requests).
	Open(ctx context.Context, key string) (io.ReadSeekCloser, error)
	// Stat returns the size and modification time; fs.ErrNotExist when there is no such key.
	Stat(ctx context.Context, key string) (Stat, error)
	// Delete removes key; deleting a missing key is not an error.
	Delete(ctx context.Context, key string) error
}

// Stat is what Storage.Stat tells.
type Stat struct {
	Size    int64
	ModTime time.Time
}

// Local stores files in a directory: <root>/<first two characters of the key>/<key>.
type Local struct{ root string }

var _ Storage = (*Local)(nil)

// NewLocal uses (and creates) root.
func NewLocal(root string) (*Local, error) {
	if err := os.MkdirAll(filepath.Join(root, "tmp"), 0o750); err != nil {
		return nil, err
	}
	return &Local{root: root}, nil
}

// errBadKey guards the one place a key becomes a path: only file ids are keys.
var errBadKey = errors.New("files: malformed storage key")

func (l *Local) path(key string) (string, error) {
	if !ValidID(key) {
		return "", errBadKey
	}
	return filepath.Join(l.root, key[:2], key), nil
}

// Put writes to a temporary file, syncs it and renames it into place, so a crash never leaves a torn file.
func (l *Local) Put(ctx context.Context, key string, r io.Reader) (int64, error) {
	p, err := l.path(key)
	if err != nil {
		return 0, err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
		return 0, err
	}
	tmp, err := os.CreateTemp(filepath.Join(l.root, "tmp"), "up-*")
	if err != nil {
		return 0, err
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	n, err := io.Copy(tmp, ctxReader{ctx, r})
	if err != nil {
		return n, err
	}
	if err := tmp.Sync(); err != nil {
		return n, err
	}
	if err := tmp.Close(); err != nil {
		return n, err
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		return n, err
	}
	done = true
	return n, nil
}

// Open opens a stored file.
func (l *Local) Open(_ context.Context, key string) (io.ReadSeekCloser, error) {
	p, err := l.path(key)
	if err != nil {
		return nil, err
	}
	return os.Open(p)
}

// Stat describes a stored file.
func (l *Local) Stat(_ context.Context, key string) (Stat, error) {
	p, err := l.path(key)
	if err != nil {
		return Stat{}, err
	}
	st, err := os.Stat(p)
	if err != nil {
		return Stat{}, err
	}
	return Stat{Size: st.Size(), ModTime: st.ModTime()}, nil
}

// Delete removes a stored file.
func (l *Local) Delete(_ context.Context, key string) error {
	p, err := l.path(key)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("files: delete %s: %w", key, err)
	}
	return nil
}

// ctxReader stops a long copy when the request is gone.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
