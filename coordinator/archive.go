package coordinator

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// archiveTimeLayout is the UTC second in an archived list's name.
const archiveTimeLayout = "2006-01-02-150405"

// Archived is one archived coordinator list.
type Archived struct {
	Name string    // root-relative: "archived/coordinator/active-2026-11-22-093000.md"
	Time time.Time // the UTC second in the name
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

// Archive moves the list to ArchiveDir/active-YYYY-MM-DD-HHMMSS.md (the
// clock's time in UTC; -2, -3, ... when that name is taken) whatever the
// state of its tasks, and returns the archive's root-relative name. No list
// is DOCUMENT_NOT_FOUND. Complete archives a finished list by itself.
//
// The archive is durable before the list is removed (workspace.Tx.MoveAside),
// so a crash leaves at worst both files with the same bytes. Calling
// Archive again then finds the identical archive and only removes the list;
// for a finished list every operation of the List does the same by itself
// (see Recover).
func (c *List) Archive(ctx context.Context) (string, error) {
	var name string
	err := c.ws.Lock(ctx, []string{File}, func(tx *workspace.Tx) error {
		list, _, err := tx.Read(File)
		if err != nil {
			return err
		}
		name, err = c.archiveLocked(ctx, tx, list)
		return err
	})
	return name, c.flow.At(err, "")
}

// Recover finishes an archive that a crash interrupted: a Finished list is
// archived (if an archive with identical bytes exists, the list is only
// removed). Anything else (no list, a list with work left, a list that
// cannot be read as a task document) is left alone: the operations report
// a broken list themselves. Every operation of the List recovers first, so
// calling Recover is only needed to tidy up without working on the list.
func (c *List) Recover(ctx context.Context) error {
	err := c.ws.Lock(ctx, []string{File}, func(tx *workspace.Tx) error {
		list, _, err := tx.Read(File)
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
		_, err = c.archiveLocked(ctx, tx, list)
		return err
	})
	return c.flow.At(err, "")
}

// unreadable reports an error that a person has to fix in the list itself.
func unreadable(err error) bool {
	switch taskdoc.CodeOf(err) {
	case taskdoc.CodeInvalidUTF8, taskdoc.CodeParse, taskdoc.CodeFileTooLarge:
		return true
	}
	return false
}

// archiveLocked archives list, the bytes of File read (or written) under
// tx's lock. If an archive with exactly these bytes exists, an earlier
// archive was cut short after its copy was made: that archive is kept and
// only the list is removed. Two lists with identical bytes therefore share
// one archive, which loses nothing. The list is removed only if it still
// holds list (workspace.Tx.MoveAside).
func (c *List) archiveLocked(ctx context.Context, tx *workspace.Tx, list []byte) (string, error) {
	name, err := c.identicalArchive(ctx, tx, list)
	if err != nil {
		return "", err
	}
	if name != "" {
		return name, tx.RemoveUnchanged(File, list)
	}
	base := path.Join(ArchiveDir, "active-"+c.cfg.Today().Format(archiveTimeLayout))
	return tx.MoveAside(File, list, base)
}

// identicalArchive returns the archived list whose bytes equal list, newest
// first, or "" when there is none. An archive that cannot be read (a file
// put there by hand that is not UTF-8, say) is passed over: at worst the
// list gets a second archive, whereas failing would stop every operation
// over a file that is not the list.
func (c *List) identicalArchive(ctx context.Context, tx *workspace.Tx, list []byte) (string, error) {
	entries, err := c.Archives(ctx)
	if err != nil {
		return "", err
	}
	for _, e := range entries {
		data, _, err := tx.Read(e.Name)
		if err == nil && bytes.Equal(data, list) {
			return e.Name, nil
		}
	}
	return "", nil
}

// Archives returns the archived lists, newest first (by the time in the
// name, then by the -N suffix). Files in ArchiveDir whose names the
// coordinator does not write are not listed.
func (c *List) Archives(ctx context.Context) ([]Archived, error) {
	names, err := c.ws.List(ctx, ArchiveDir)
	if isNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, taskflow.At(err, ArchiveDir, "")
	}
	type ranked struct {
		Archived
		n int
	}
	var found []ranked
	for _, name := range names {
		base := path.Base(name)
		t, n, ok := parseArchiveName(base)
		if ok {
			found = append(found, ranked{Archived{Name: path.Join(ArchiveDir, base), Time: t}, n})
		}
	}
	slices.SortFunc(found, func(a, b ranked) int {
		if c := b.Time.Compare(a.Time); c != 0 {
			return c
		}
		return b.n - a.n
	})
	out := make([]Archived, len(found))
	for i, r := range found {
		out[i] = r.Archived
	}
	return out, nil
}

// parseArchiveName reads "active-2026-11-22-093000.md" or
// "active-2026-11-22-093000-2.md" and returns the time and the clash number
// (1 without a suffix), as workspace.AsideName writes them.
func parseArchiveName(base string) (time.Time, int, bool) {
	rest, ok := strings.CutPrefix(base, "active-")
	if !ok {
		return time.Time{}, 0, false
	}
	rest, ok = strings.CutSuffix(rest, ".md")
	if !ok || len(rest) < len(archiveTimeLayout) {
		return time.Time{}, 0, false
	}
	t, err := time.Parse(archiveTimeLayout, rest[:len(archiveTimeLayout)])
	if err != nil {
		return time.Time{}, 0, false
	}
	n := 1
	if suffix := rest[len(archiveTimeLayout):]; suffix != "" {
		if _, err := fmt.Sscanf(suffix, "-%d", &n); err != nil || n < 2 || fmt.Sprintf("-%d", n) != suffix {
			return time.Time{}, 0, false
		}
	}
	return t, n, true
}
