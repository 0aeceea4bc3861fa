package coordinator

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
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
	Name string    `json:"name"` // root-relative: "archived/coordinator/active-2026-11-22-093000.md"
	Time time.Time `json:"time"` // the UTC second in the name
}

// Finished reports whether a coordinator list is done: it has tasks and
// every one of them is in a final status (completed, or skipped). A list
// without tasks is not finished, so a list that is being filled is never
// archived.
func Finished(doc *taskdoc.Document) bool {
	if len(doc.Tasks) == 0 {
		return false
	}
	for i := range doc.Tasks {
		if !doc.Tasks[i].Status.Final() {
			return false
		}
	}
	return true
}

// Archive moves the list to archived/coordinator/active-YYYY-MM-DD-HHMMSS.md
// (the clock's time in UTC; -2, -3, ... when that name is taken) whatever
// the state of its tasks, and returns the archive's root-relative name. No list
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
		list, err := tx.ReadData(File)
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
		list, err := tx.ReadData(File)
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
	case taskdoc.CodeInvalidUTF8, taskdoc.CodeParse, taskdoc.CodeFileTooLarge, taskdoc.CodeTooComplex:
		return true
	}
	return false
}

// archiveLocked archives list, the bytes of File read (or written) under
// tx's lock, and returns the archive's name. The list is removed only if it
// still holds list (workspace.Tx.MoveAside).
//
// The archive index (indexDir) makes this O(1) in the number of archives
// and crash-safe: the entry naming the archive's base is durable before
// the copy is made, and the copy before the list is removed, so a crash
// leaves the entry alone (the next call copies under its base), the entry
// and the copy (the next call finds the copy and only removes the list), or
// nothing to do. A list with the bytes of an earlier one finds that one's
// archive the same way, so identical lists share one archive, which loses
// nothing. The index serves only to find a copy again: a copy made without
// an entry (before the index existed, or after it was deleted) is found by
// reading every archive, once, until the index is complete again
// (indexMarker), and an entry that cannot be read is passed over the same
// way; a failure to write the index is ignored.
func (c *List) archiveLocked(ctx context.Context, tx *workspace.Tx, list []byte) (string, error) {
	entry := indexEntry(list)
	base, state := indexedBase(tx, entry)
	if state != entryFound {
		complete := state != entryBroken && indexComplete(tx)
		if !complete {
			found, err := c.identicalArchive(ctx, tx, list)
			if err != nil {
				return "", err
			}
			if found != nil {
				recordIndex(tx, entry, archiveBase(found.Time), false)
				return found.Name, tx.RemoveUnchanged(File, list)
			}
		}
		base = archiveBase(c.cfg.Today())
		recordIndex(tx, entry, base, complete)
	}
	return tx.MoveAside(File, list, base)
}

// identicalArchive returns the archived list whose bytes equal list, newest
// first, or nil when there is none. It reads every archive, so it runs only
// when the index cannot answer (see archiveLocked). An archive that cannot
// be read (a file put there by hand that is not UTF-8, say) is passed over:
// at worst the list gets a second archive, whereas failing would stop every
// operation over a file that is not the list.
func (c *List) identicalArchive(ctx context.Context, tx *workspace.Tx, list []byte) (*Archived, error) {
	entries, err := c.Archives(ctx)
	if err != nil {
		return nil, err
	}
	for i, e := range entries {
		data, err := tx.ReadData(e.Name)
		if err == nil && bytes.Equal(data, list) {
			return &entries[i], nil
		}
	}
	return nil, nil
}

// The archive index: library state under .taskmd, not content (see the
// package documentation). It is written and read only under File's lock.
const (
	// indexDir holds one entry per archived list, named by the SHA-256 of
	// the list's bytes (lower-case hex) and holding the archive's base,
	// archiveDir+"/active-YYYY-MM-DD-HHMMSS", and a newline.
	indexDir = ".taskmd/archives"
	// indexMarker exists once every archive made since it was created has
	// its entry: a list without an entry then has no archive copy.
	indexMarker = indexDir + "/README"
)

// indexMarkerText explains the folder to a person who opens it.
const indexMarkerText = `Index of the coordinator's archived lists (package coordinator).
Each file is named by the SHA-256 of a list's bytes and holds the name of
that list's archive without its -N suffix and .md. A list whose archive a
crash cut short, or a list identical to an archived one, finds its archive
here without reading them all. This file says that every archive made
since it was created has its entry. Deleting the folder or this file loses
no list: the next archive reads every archive once instead, and a list
identical to one archived before then gets an archive of its own.
Deleting entries but not this file can give a list two archives.
`

// entryState is what the index says about one list.
type entryState int

const (
	entryMissing entryState = iota // no entry
	entryFound                     // an entry naming an archive base
	entryBroken                    // an entry that cannot be read or names no base
)

// indexEntry is the name of list's entry in the index.
func indexEntry(list []byte) string {
	sum := sha256.Sum256(list)
	return indexDir + "/" + hex.EncodeToString(sum[:])
}

// indexedBase reads entry and returns the archive base it holds. Only a
// base of the form the coordinator writes is taken, so an entry edited by
// hand can neither place an archive outside archived/coordinator nor fail it.
func indexedBase(tx *workspace.Tx, entry string) (string, entryState) {
	data, err := tx.ReadData(entry)
	switch {
	case isNotExist(err):
		return "", entryMissing
	case err != nil:
		return "", entryBroken
	}
	base := strings.TrimSuffix(string(data), "\n")
	if t, n, ok := parseArchiveName(path.Base(base) + ".md"); !ok || n != 1 || archiveBase(t) != base {
		return "", entryBroken
	}
	return base, entryFound
}

// indexComplete reports whether every archive made since the index began
// has its entry. When the marker cannot be checked, it has not.
func indexComplete(tx *workspace.Tx) bool {
	ok, err := tx.Exists(indexMarker)
	return ok && err == nil
}

// recordIndex creates entry naming base, durably and never replacing an
// entry, and the marker if it is missing. Failures are ignored: the index
// only saves reading the archives, and a list without an entry is still
// archived (after a crash, at worst twice; never lost). The marker is made
// only once the entry is there, as it vouches for every copy that follows.
// complete says the caller already found the marker (indexComplete) in
// this transaction, so it is not looked for again.
func recordIndex(tx *workspace.Tx, entry, base string, complete bool) {
	if err := tx.Create(entry, []byte(base+"\n")); err != nil {
		return
	}
	if !complete && !indexComplete(tx) {
		_ = tx.Create(indexMarker, []byte(indexMarkerText))
	}
}

// archiveBase is the base of the archives made at t: their name without
// the -N suffix and ".md".
func archiveBase(t time.Time) string {
	return path.Join(archiveDir, "active-"+t.UTC().Format(archiveTimeLayout))
}

// Archives returns the archived lists, newest first (by the time in the
// name, then by the -N suffix). Files in archived/coordinator whose names the
// coordinator does not write are not listed.
func (c *List) Archives(ctx context.Context) ([]Archived, error) {
	names, err := c.ws.List(ctx, archiveDir) // nil, nil when archiveDir is missing
	if err != nil {
		return nil, taskflow.At(err, archiveDir, "")
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
			found = append(found, ranked{Archived{Name: path.Join(archiveDir, base), Time: t}, n})
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
