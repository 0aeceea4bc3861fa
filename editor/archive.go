package editor

import (
	"bytes"
	"context"
	"fmt"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/taskdoc"
)

// Archive moves the coordinator's finished list to archived/coordinator/
// (coordinator.List.Archive, with the Session's clock) and returns the
// archive's root-relative name. It is the one call of the Session that
// writes, and it writes only a list that is finished on disk
// (coordinator.Finished: every task completed or skipped): one with work
// left is INVALID_TRANSITION. When the list is open, its buffer must be
// what the file holds: a buffer with unsaved changes is CONFLICT, save it
// first, so that no change the editor holds is archived unseen or lost.
//
// Afterwards the list has no file: an open buffer stays open, without
// one, for the editor to close. The coordinator's Complete and every
// other operation of a coordinator.List archive a finished list by
// themselves; Archive is for a list finished by hand.
func (s *Session) Archive(ctx context.Context) (archived string, err error) {
	data, err := s.ws.ReadData(ctx, coordinator.File)
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	b, open := s.open[coordinator.File]
	s.mu.Unlock()
	if open && !bytes.Equal(b.text.src, data) {
		return "", &taskdoc.Error{Code: taskdoc.CodeConflict, Path: coordinator.Address,
			Msg: fmt.Sprintf("%s has unsaved changes: save it first, then archive it", coordinator.File)}
	}
	doc, err := taskdoc.Parse(data)
	if err != nil {
		return "", err
	}
	if !coordinator.Finished(doc) {
		left := 0
		for i := range doc.Tasks {
			if !doc.Tasks[i].Status.Final() {
				left++
			}
		}
		why := fmt.Sprintf("%d of its %d tasks are neither completed nor skipped", left, len(doc.Tasks))
		if len(doc.Tasks) == 0 {
			why = "it has no tasks"
		}
		return "", &taskdoc.Error{Code: taskdoc.CodeInvalidTransition, Path: coordinator.Address,
			Msg: fmt.Sprintf("%s is not finished (%s): only a finished list is archived", coordinator.Address, why)}
	}
	name, err := coordinator.New(s.ws, coordinator.WithClock(s.cfg.Now)).Archive(ctx)
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.generation++
	delete(s.disk, coordinator.File)
	if b, ok := s.open[coordinator.File]; ok {
		s.open[coordinator.File] = &buffer{path: b.path, version: b.version, text: b.text}
	}
	return name, nil
}
