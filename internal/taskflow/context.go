package taskflow

import (
	"bytes"
	"context"

	"github.com/taskmd/taskmd/taskcontext"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// Snapshot is a document read without its lock, and its parse.
type Snapshot struct {
	Source []byte
	Doc    *taskdoc.Document
}

// ReadSnapshot reads and parses the file name without its lock: the
// workspace replaces files atomically, so the read sees one whole version.
// Errors are the workspace's and the parser's, for the caller to name.
func ReadSnapshot(ctx context.Context, ws *workspace.Workspace, name string) (*Snapshot, error) {
	src, err := ws.ReadData(ctx, name)
	if err != nil {
		return nil, err
	}
	doc, err := ws.Parse(name, src)
	if err != nil {
		return nil, err
	}
	return &Snapshot{Source: src, Doc: doc}, nil
}

// Parse returns the Document of src, the bytes of the file name read
// under the lock: the snapshot's own parse when nothing changed in between,
// so a call parses the document once (also with the workspace's cache
// off), else the workspace's (ws.Parse). A nil Snapshot is no snapshot.
func (s *Snapshot) Parse(ws *workspace.Workspace, name string, src []byte) (*taskdoc.Document, error) {
	if s != nil && s.Doc != nil && bytes.Equal(src, s.Source) {
		return s.Doc, nil
	}
	return ws.Parse(name, src)
}

// Task finds slug in the snapshot; a nil Snapshot has no tasks.
func (s *Snapshot) Task(slug string) (*taskdoc.Task, error) {
	if s == nil {
		return nil, &taskdoc.Error{Code: taskdoc.CodeTaskNotFound, Slug: slug}
	}
	return s.Doc.Task(slug)
}

// Preloaded is a task's context loaded outside the document's lock.
type Preloaded struct {
	inputs string
	loaded *taskcontext.Context
}

// Preload loads req's context now, before the lock is taken. A failure is
// the call's failure: nothing has been written yet.
func Preload(ctx context.Context, ws *workspace.Workspace, req taskcontext.Request) (*Preloaded, error) {
	loaded, err := taskcontext.Load(ctx, ws, req)
	if err != nil {
		return nil, err
	}
	return &Preloaded{inputs: req.Inputs(), loaded: loaded}, nil
}

// Context returns the context of req, decided under the lock: the preloaded
// one when req reads the same inputs, else a fresh load (the document
// changed between the unlocked read and the lock). Call it before writing,
// so that a failed load writes nothing. A nil Preloaded always loads.
func (p *Preloaded) Context(ctx context.Context, ws *workspace.Workspace, req taskcontext.Request) (*taskcontext.Context, error) {
	if p != nil && p.inputs == req.Inputs() {
		return p.loaded, nil
	}
	return taskcontext.Load(ctx, ws, req)
}
