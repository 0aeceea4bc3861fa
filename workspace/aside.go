package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/taskmd/taskmd/internal/hooks"
	"github.com/taskmd/taskmd/taskdoc"
)

// maxAside bounds the -2, -3, ... suffixes MoveAside tries for one name.
// Reaching it means something other than moved files occupies those names.
const maxAside = 10000

// MoveAside moves name, whose bytes the caller read in this transaction as
// data, to a new file and returns the new file's name: base+".md", or
// base+"-2.md", base+"-3.md", ..., the first that is free, or that already
// holds exactly data (a move that a crash cut short after its copy: it is
// finished, not repeated). A name taken by something that cannot be read (a
// folder, a link, a file that is not UTF-8) is passed over like any other
// taken name, and so is name itself (reached through a linked folder, say:
// taking the original for its own copy would remove the only one); a name
// that leads outside the root is an error. It is how finished work is
// archived without ever losing it:
//
//   - the copy is written and made durable before name is removed, so a
//     crash in between leaves the same bytes in both places, a duplicate
//     and never a loss, and calling MoveAside again finishes the move;
//   - the copy never replaces a file, so concurrent moves get distinct
//     names, and it needs no lock of its own;
//   - name is removed only if it still holds data (RemoveUnchanged).
//
// name must be locked by the transaction; base is root-relative, without
// ".md".
//
// When name cannot be removed for any reason but an edit (CONFLICT), a
// copy this call made is removed again, so that the failed call leaves
// things as they were; after an edit the copy stays, holding the version
// before it.
func (tx *Tx) MoveAside(name string, data []byte, base string) (string, error) {
	if err := tx.check(name, true); err != nil {
		return "", err
	}
	dest, created, err := tx.asideCopy(name, base, data)
	if err != nil {
		return "", err
	}
	if err := tx.RemoveUnchanged(name, data); err != nil {
		if created && taskdoc.CodeOf(err) != taskdoc.CodeConflict {
			_ = tx.w.removeName(dest, false) // dest is not locked
		}
		return "", err
	}
	return dest, nil
}

// asideCopy writes MoveAside's copy of name: it returns the copy's name and
// whether this call created it.
func (tx *Tx) asideCopy(name, base string, data []byte) (string, bool, error) {
	original, err := tx.w.stat(name)
	if err != nil && taskdoc.CodeOf(err) != taskdoc.CodeDocumentNotFound {
		return "", false, err
	}
	for n := 1; n <= maxAside; n++ {
		dest := asideName(base, n)
		existing, info, err := tx.readInfo(dest)
		switch {
		case err == nil && bytes.Equal(existing, data) && !sameFile(original, info):
			return dest, false, nil
		case err == nil:
			continue
		case taskdoc.CodeOf(err) == taskdoc.CodeOutsideRoot:
			return "", false, err
		case taskdoc.CodeOf(err) != taskdoc.CodeDocumentNotFound:
			continue
		}
		err = tx.Create(dest, data)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", false, err
		}
		return dest, true, nil
	}
	return "", false, &taskdoc.Error{Code: taskdoc.CodeConflict, Path: base + ".md",
		Msg: fmt.Sprintf("no free name for %s.md after %d tries", base, maxAside)}
}

// readInfo is Tx.Read, also returning the Lstat of the file it read.
func (tx *Tx) readInfo(name string) ([]byte, fs.FileInfo, error) {
	if err := tx.check(name, false); err != nil {
		return nil, nil, err
	}
	data, info, err := tx.w.read(name)
	if err != nil {
		return nil, nil, err
	}
	if data == nil {
		return nil, nil, fail(name, "read", fs.ErrNotExist)
	}
	return data, info, nil
}

// sameFile reports whether info, the Lstat of a file just read, describes
// the file original describes.
func sameFile(original, info fs.FileInfo) bool {
	return original != nil && info != nil && os.SameFile(original, info)
}

// asideName is base+".md" for n == 1 and base+"-n.md" after that.
func asideName(base string, n int) string {
	if n == 1 {
		return base + ".md"
	}
	return fmt.Sprintf("%s-%d.md", base, n)
}

// RemoveUnchanged removes name only if it still holds exactly data. People
// and tools that take no lock may save the file at any moment; removing
// their edit would lose it, so the file is kept and the result is CONFLICT
// (a copy made before holds the version before the edit; repeat the
// operation for the new one).
func (tx *Tx) RemoveUnchanged(name string, data []byte) error {
	hooks.BeforeRemoveUnchanged()
	current, _, err := tx.Read(name)
	if err != nil {
		return err
	}
	if !bytes.Equal(current, data) {
		return &taskdoc.Error{Code: taskdoc.CodeConflict, Path: name,
			Msg: fmt.Sprintf("%s changed while it was being moved aside; it is kept as it is now, and the copy holds the version before the change", name)}
	}
	return tx.Remove(name)
}
