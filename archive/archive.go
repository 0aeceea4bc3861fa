package archive

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// Root-relative names of the files and folders this package works on.
const (
	// ActiveList is the coordinator's sequential task list.
	ActiveList = "coordinator/active.md"
	// CoordinatorDir holds finished coordinator lists.
	CoordinatorDir = "archived/coordinator"
	// DocsDir holds documents archived by hand from docs/.
	DocsDir = "archived/docs"
)

// timeLayout is the UTC timestamp in an archived list's name.
const timeLayout = "2006-01-02-150405"

// maxClash bounds the -2, -3, ... suffixes tried for one name. Reaching it
// means something other than archives occupies those names.
const maxClash = 10000

// Entry is one archived coordinator list.
type Entry struct {
	Name string    // root-relative: "archived/coordinator/active-2026-11-22-093000.md"
	Time time.Time // the UTC second in the name
}

// Coordinator moves coordinator/active.md to
// archived/coordinator/active-YYYY-MM-DD-HHMMSS.md (now in UTC; -2, -3, ...
// when that name is taken) and returns the archive's root-relative name. The
// list is archived whatever the state of its tasks. A missing list is
// DOCUMENT_NOT_FOUND.
//
// The archive copy is durable before active.md is removed, so a crash leaves
// at worst both files with the same bytes. Calling Coordinator again then
// finds the identical archive and only removes active.md; for a finished
// list (every task completed) the next Recover, which the coordinator runs
// before each operation, does the same by itself.
func Coordinator(ctx context.Context, ws *workspace.Workspace, now time.Time) (string, error) {
	var name string
	err := ws.Lock(ctx, []string{ActiveList}, func(tx *workspace.Tx) error {
		list, _, err := tx.Read(ActiveList)
		if err != nil {
			return err
		}
		name, err = CoordinatorLocked(ctx, ws, tx, list, now)
		return err
	})
	return name, err
}

// CoordinatorLocked is Coordinator for a caller that already holds the lock
// on ActiveList through ws.Lock and has read its bytes (list) with tx. It
// lets the coordinator complete the last task and archive the list in one
// critical section, so no other process can slip in between.
//
// If an archive with exactly these bytes exists, an earlier archive was cut
// short after its copy was made: that archive is kept, active.md is removed,
// and the existing name is returned. Two lists with identical bytes therefore
// share one archive, which loses nothing. active.md is removed only if it
// still holds list: if it was edited without the lock meanwhile, it is kept
// and the error is CONFLICT.
func CoordinatorLocked(ctx context.Context, ws *workspace.Workspace, tx *workspace.Tx, list []byte, now time.Time) (string, error) {
	name, err := identicalArchive(ctx, ws, tx, list)
	if err != nil {
		return "", err
	}
	if name == "" {
		base := path.Join(CoordinatorDir, "active-"+now.UTC().Format(timeLayout))
		if name, err = createUnique(tx, base, list); err != nil {
			return "", err
		}
	}
	if err := removeUnchanged(tx, ActiveList, list); err != nil {
		return "", err
	}
	return name, nil
}

// beforeRemove runs between making an archive and removing its original;
// tests use it to edit the original in that window, as a person could.
var beforeRemove = func() {}

// removeUnchanged removes name only if it still holds exactly archived, the
// bytes that were just archived. People and tools that take no lock may
// edit the file while the archive is written; removing their edit would
// lose it, so the original is kept and the archive is a copy of the version
// before the edit (CONFLICT: repeat the operation to archive the new one).
func removeUnchanged(tx *workspace.Tx, name string, archived []byte) error {
	beforeRemove()
	current, _, err := tx.Read(name)
	if err != nil {
		return err
	}
	if !bytes.Equal(current, archived) {
		return &taskdoc.Error{Code: taskdoc.CodeConflict, Path: name,
			Msg: fmt.Sprintf("%s changed while it was being archived; it is kept as it is now, and the archive holds the version before the change", name)}
	}
	return tx.Remove(name)
}

// Finished reports whether a coordinator list is done: it has tasks and
// every one of them is completed. A list without tasks is not finished, so a
// list that is being filled is never archived.
func Finished(doc *taskdoc.Document) bool {
	if len(doc.Tasks) == 0 {
		return false
	}
	for i := range doc.Tasks {
		if doc.Tasks[i].Status != taskdoc.StatusCompleted {
			return false
		}
	}
	return true
}

// Recover finishes an archive that a crash interrupted. When
// coordinator/active.md exists and is Finished, it is archived: if an
// archive with identical bytes already exists only active.md is removed,
// otherwise a new archive is made first (named after the current time).
// Anything else (no list, a list with work left, a list that cannot be read
// as a task document) is left alone: the coordinator reports a broken list
// itself.
func Recover(ctx context.Context, ws *workspace.Workspace) error {
	return ws.Lock(ctx, []string{ActiveList}, func(tx *workspace.Tx) error {
		list, _, err := tx.Read(ActiveList)
		switch {
		case isNotExist(err), unreadable(err):
			return nil
		case err != nil:
			return err
		}
		doc, err := taskdoc.Parse(list)
		if err != nil || !Finished(doc) {
			return nil
		}
		_, err = CoordinatorLocked(ctx, ws, tx, list, time.Now())
		return err
	})
}

// identicalArchive returns the archived list whose bytes equal list, newest
// first, or "" when there is none. An archive that cannot be read (a file
// put there by hand that is not UTF-8, say) is passed over: at worst the
// list gets a second archive, whereas failing would stop every coordinator
// operation over a file that is not the list.
func identicalArchive(ctx context.Context, ws *workspace.Workspace, tx *workspace.Tx, list []byte) (string, error) {
	entries, err := List(ctx, ws)
	if err != nil {
		return "", err
	}
	for _, e := range entries {
		data, _, err := tx.Read(e.Name)
		if err != nil {
			continue
		}
		if bytes.Equal(data, list) {
			return e.Name, nil
		}
	}
	return "", nil
}

// createUnique writes data to base+".md", or base+"-2.md", base+"-3.md", ...
// whichever is free first. tx.Create never replaces a file, so an archive is
// never overwritten, even by another program, and needs no lock of its own:
// the name is only known here.
func createUnique(tx *workspace.Tx, base string, data []byte) (string, error) {
	for n := 1; n <= maxClash; n++ {
		name := clashName(base, n)
		err := tx.Create(name, data)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		return name, nil
	}
	return "", &taskdoc.Error{
		Code: taskdoc.CodeConflict,
		Path: base + ".md",
		Msg:  fmt.Sprintf("no free archive name for %s.md after %d tries", base, maxClash),
	}
}

// clashName is base.md for n == 1 and base-n.md after that.
func clashName(base string, n int) string {
	if n == 1 {
		return base + ".md"
	}
	return fmt.Sprintf("%s-%d.md", base, n)
}

// List returns the archived coordinator lists, newest first (by the time in
// the name, then by the -N suffix). Files in archived/coordinator whose names
// this package does not write are not listed.
func List(ctx context.Context, ws *workspace.Workspace) ([]Entry, error) {
	names, err := ws.List(ctx, CoordinatorDir)
	if isNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	type ranked struct {
		Entry
		n int
	}
	var found []ranked
	for _, name := range names {
		base := path.Base(name)
		t, n, ok := parseArchiveName(base)
		if !ok {
			continue
		}
		found = append(found, ranked{Entry{Name: path.Join(CoordinatorDir, base), Time: t}, n})
	}
	slices.SortFunc(found, func(a, b ranked) int {
		if c := b.Time.Compare(a.Time); c != 0 {
			return c
		}
		return b.n - a.n
	})
	entries := make([]Entry, len(found))
	for i, r := range found {
		entries[i] = r.Entry
	}
	return entries, nil
}

// parseArchiveName reads "active-2026-11-22-093000.md" or
// "active-2026-11-22-093000-2.md" and returns the time and the clash number
// (1 without a suffix).
func parseArchiveName(base string) (time.Time, int, bool) {
	rest, ok := strings.CutPrefix(base, "active-")
	if !ok {
		return time.Time{}, 0, false
	}
	rest, ok = strings.CutSuffix(rest, ".md")
	if !ok || len(rest) < len(timeLayout) {
		return time.Time{}, 0, false
	}
	t, err := time.Parse(timeLayout, rest[:len(timeLayout)])
	if err != nil {
		return time.Time{}, 0, false
	}
	n := 1
	if suffix := rest[len(timeLayout):]; suffix != "" {
		if _, err := fmt.Sscanf(suffix, "-%d", &n); err != nil || n < 2 || fmt.Sprintf("-%d", n) != suffix {
			return time.Time{}, 0, false
		}
	}
	return t, n, true
}

// Read returns the bytes of an archived file. name is root-relative
// ("archived/coordinator/active-2026-11-22-093000.md", as Coordinator and
// List return it) or an address ("/archived/..."); anything outside
// archived/ is INVALID_ADDRESS.
func Read(ctx context.Context, ws *workspace.Workspace, name string) ([]byte, error) {
	clean, err := archivedName(name)
	if err != nil {
		return nil, err
	}
	data, _, err := ws.Read(ctx, clean)
	return data, err
}

// archivedName checks that name lies inside archived/ and returns it
// root-relative.
func archivedName(name string) (string, error) {
	rel := strings.TrimPrefix(name, "/")
	if !strings.HasPrefix(rel, "archived/") || path.Clean(rel) != rel ||
		strings.ContainsAny(rel, "\\\x00") || rel == "archived/" {
		return "", &taskdoc.Error{
			Code: taskdoc.CodeInvalidAddress,
			Path: name,
			Msg:  fmt.Sprintf("%q is not an archived file: names start with archived/ and contain no . or .. elements", name),
		}
	}
	return rel, nil
}

// unreadable reports an error that a person has to fix in the list itself;
// Recover leaves such a list alone and the coordinator reports it.
func unreadable(err error) bool {
	switch taskdoc.CodeOf(err) {
	case taskdoc.CodeInvalidUTF8, taskdoc.CodeParse, taskdoc.CodeFileTooLarge:
		return true
	}
	return false
}

func isNotExist(err error) bool {
	return errors.Is(err, taskdoc.ErrDocumentNotFound) || errors.Is(err, fs.ErrNotExist)
}
