package workspace

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sync/atomic"

	"github.com/taskmd/taskmd/taskdoc"
)

// Update locks name, reads it, calls fn with its current content (nil and
// exists false when there is no such file) and writes what fn returns
// atomically and durably. Nothing is written when fn returns an error, nil,
// or the current content unchanged. Update returns the Version of the file
// as it is afterwards ("" if it still does not exist).
//
// fn runs with the lock held, so it sees every earlier update and no other
// update can slip in before its result is written; it must not call back
// into the workspace for the same name.
func (w *Workspace) Update(ctx context.Context, name string, fn func(current []byte, exists bool) ([]byte, error)) (Version, error) {
	return w.update(ctx, name, nil, fn, true)
}

// rewrite is Update for a caller that has no use for the file's Version:
// it does not hash what it writes (a quarter of a warm edit's time on a
// 200 KB document). UpdateDocument is the one for documents.
func (w *Workspace) rewrite(ctx context.Context, name string, fn func(current []byte, exists bool) ([]byte, error)) error {
	_, err := w.update(ctx, name, nil, fn, false)
	return err
}

// UpdateIf is Update for a caller that read the file earlier and holds an
// edited copy of it (an editor buffer): it fails with CONFLICT, and changes
// nothing, if the file's Version is no longer want. want "" means the file
// must not exist.
func (w *Workspace) UpdateIf(ctx context.Context, name string, want Version, fn func(current []byte, exists bool) ([]byte, error)) (Version, error) {
	return w.update(ctx, name, &want, fn, true)
}

// update is Update; versioned says whether to compute the Version.
func (w *Workspace) update(ctx context.Context, name string, want *Version, fn func([]byte, bool) ([]byte, error), versioned bool) (Version, error) {
	if err := w.Check(); err != nil {
		return "", err
	}
	var version Version
	err := w.Lock(ctx, []string{name}, func(tx *Tx) error {
		current, info, err := w.read(name)
		if err != nil {
			return err
		}
		exists := current != nil
		if want != nil {
			if have := versionOrEmpty(current, exists); have != *want {
				return &taskdoc.Error{Code: taskdoc.CodeConflict, Path: name, Current: string(have),
					Msg: fmt.Sprintf("%s changed since it was read (version %s, now %s)", name, orNone(*want), orNone(have))}
			}
		}
		next, err := fn(current, exists)
		if err != nil {
			return err
		}
		if next == nil || (exists && bytes.Equal(next, current)) {
			if versioned {
				version = versionOrEmpty(current, exists)
			}
			return nil
		}
		if err := w.write(name, next, info); err != nil {
			return err
		}
		if versioned {
			version = VersionOf(next)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	return version, nil
}

func versionOrEmpty(data []byte, exists bool) Version {
	if !exists {
		return ""
	}
	return VersionOf(data)
}

func orNone(v Version) string {
	if v == "" {
		return "none"
	}
	return string(v)
}

// Tx gives access to the names locked by Lock while its function runs. It
// reads and creates any name but writes and removes only locked ones, and
// is unusable after the function returns.
type Tx struct {
	w      *Workspace
	names  []string // sorted
	keys   []string // the names' lock keys (lockNames), sorted
	closed atomic.Bool
}

func (tx *Tx) close() { tx.closed.Store(true) }

func (tx *Tx) check(name string, writing bool) error {
	if tx == nil || tx.w == nil {
		return (*Workspace)(nil).Check() // a Tx that Lock did not make
	}
	if tx.closed.Load() {
		return &taskdoc.Error{Code: taskdoc.CodeIO, Path: name,
			Msg: fmt.Sprintf("%s: the transaction has ended", name)}
	}
	if err := checkName(name); err != nil {
		return err
	}
	if _, locked := slices.BinarySearch(tx.names, name); writing && !locked {
		return &taskdoc.Error{Code: taskdoc.CodeIO, Path: name,
			Msg: fmt.Sprintf("%s is not locked by this transaction", name)}
	}
	return nil
}

// Read returns the content and Version of name, like Workspace.Read.
func (tx *Tx) Read(name string) ([]byte, Version, error) {
	data, err := tx.ReadData(name)
	if err != nil {
		return nil, "", err
	}
	return data, VersionOf(data), nil
}

// ReadData is Read without the Version, which it does not compute.
func (tx *Tx) ReadData(name string) ([]byte, error) {
	if err := tx.check(name, false); err != nil {
		return nil, err
	}
	data, _, err := tx.w.read(name)
	if err != nil {
		return nil, err
	}
	if data == nil {
		return nil, fail(name, "read", fs.ErrNotExist)
	}
	return data, nil
}

// ReadIfExists returns the content of name, or nil when there is no such
// file: for state a caller keeps in a file it creates on the first write.
// An empty file reads as empty, not nil.
func (tx *Tx) ReadIfExists(name string) ([]byte, error) {
	if err := tx.check(name, false); err != nil {
		return nil, err
	}
	data, _, err := tx.w.read(name)
	return data, err
}

// Exists reports whether name exists as a regular file, like
// Workspace.Exists.
func (tx *Tx) Exists(name string) (bool, error) {
	if err := tx.check(name, false); err != nil {
		return false, err
	}
	return tx.w.Exists(context.Background(), name)
}

// Write replaces name with data atomically and durably, creating it and its
// directories if needed. A symbolic link at name is refused, not replaced.
func (tx *Tx) Write(name string, data []byte) error {
	if err := tx.check(name, true); err != nil {
		return err
	}
	info, err := tx.w.stat(name)
	if err != nil && taskdoc.CodeOf(err) != taskdoc.CodeDocumentNotFound {
		return err
	}
	return tx.w.write(name, data, info)
}

// Create writes a new file name with data atomically and durably. It never
// replaces anything: if name exists (as anything, a link included) it fails
// with an error that matches fs.ErrExist and has code CONFLICT.
//
// Unlike Write and Remove, Create does not need name to be locked by the
// transaction, so a caller can pick a free name (archive-2, archive-3,
// ...) inside it: a Create can never undo anyone's write. It takes name's
// lock itself for the moment of its write, without waiting: while another
// holds that lock (an Update of name in progress, say), Create fails with
// CONFLICT matching fs.ErrExist, as the name is taken; pick another or try
// again. It can itself be replaced by a locked Update of name that comes
// after it, so names created this way should be ones that nobody updates.
func (tx *Tx) Create(name string, data []byte) error {
	if err := tx.check(name, false); err != nil {
		return err
	}
	keys, err := tx.w.lockNames([]string{name})
	if err != nil {
		return err
	}
	if _, held := slices.BinarySearch(tx.keys, keys[0]); held {
		return tx.w.create(name, data)
	}
	h, err := tx.w.tryLock(keys[0])
	if errors.Is(err, errBusy) {
		return &taskdoc.Error{Code: taskdoc.CodeConflict, Path: name, Err: fs.ErrExist,
			Msg: fmt.Sprintf("create %s: another writer holds it locked; pick another name, or try again", name)}
	}
	if err != nil {
		return err
	}
	defer h.unlock() // a failed unlock ends with the closed file; the file is created
	return tx.w.create(name, data)
}

// Remove deletes name durably. A missing name is DOCUMENT_NOT_FOUND and a
// symbolic link is SYMLINK_REFUSED.
func (tx *Tx) Remove(name string) error {
	if err := tx.check(name, true); err != nil {
		return err
	}
	if _, err := tx.w.stat(name); err != nil {
		return err
	}
	return tx.w.remove(name)
}
