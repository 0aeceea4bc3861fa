package coordinator

import (
	"bytes"
	"context"

	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// state is the list inside one critical section.
type state struct {
	tx     *workspace.Tx
	ws     *workspace.Workspace
	source []byte            // the file's bytes; nil when there is no list
	doc    *taskdoc.Document // parsed source; nil when there is no list
	// archiveErr is why a finished list found at the start could not be
	// archived, for a call that asked to see the list anyway (listCall).
	archiveErr error
}

// listCall says how an operation takes the list.
type listCall struct {
	snap *taskflow.Snapshot // the list read before the lock, or nil
	also []string           // more files to lock (a request record)
	// keepFinished: when a finished list found at the start cannot be
	// archived, run the operation on it (state.archiveErr says why) rather
	// than fail: for reads, and for a retry that the finished list answers.
	keepFinished bool
}

// writeDoc replaces the list with doc unless it is unchanged, keeping its
// parse (Tx.WriteDocument) so that the next call does not parse it again.
// It ends the critical section's changes: s.doc no longer describes the
// file.
func (s *state) writeDoc(doc *taskdoc.Document) error {
	if s.source != nil && bytes.Equal(doc.Source, s.source) {
		return nil
	}
	if err := s.tx.WriteDocument(File, doc); err != nil {
		return err
	}
	s.source, s.doc = doc.Source, nil
	return nil
}

// withList runs fn holding the list's lock, with the list read and parsed
// (call.snap's parse when the list has not changed since it was read). It
// first finishes an archive that a crash or a failure cut short: a Finished
// list is archived, and fn then sees no list.
func (c *List) withList(ctx context.Context, call listCall, fn func(s *state) error) error {
	names := append([]string{File}, call.also...)
	err := c.ws.Lock(ctx, names, func(tx *workspace.Tx) error {
		s := &state{tx: tx, ws: c.ws}
		data, err := tx.ReadData(File)
		if isNotExist(err) {
			return fn(s)
		}
		if err != nil {
			return err
		}
		doc, err := call.snap.Parse(c.ws, File, data)
		if err != nil {
			return err
		}
		if Finished(doc) {
			_, err := c.archiveLocked(ctx, tx, data)
			switch {
			case err == nil:
				return fn(s)
			case !call.keepFinished:
				return err
			}
			s.archiveErr = c.flow.At(err, "")
		}
		s.source, s.doc = data, doc
		return fn(s)
	})
	return c.flow.At(err, "")
}

// snapshot reads and parses the list without its lock, for loading a
// task's context before taking it; nil when there is no list to read or it
// does not parse (the locked call then reports why).
func (c *List) snapshot(ctx context.Context) *taskflow.Snapshot {
	snap, err := taskflow.ReadSnapshot(ctx, c.ws, File)
	if err != nil {
		return nil
	}
	return snap
}
