package taskflow

import (
	"errors"
	"fmt"
	"strings"

	"github.com/taskmd/taskmd/taskdoc"
)

// At returns err as a *taskdoc.Error that carries the caller's address
// (path), and slug when the caller named a task: lower layers report
// root-relative file names ("docs/api/auth.md") or nothing, a caller thinks
// in addresses. The code and the cause are kept, and the message names the
// path. An error that is not a *taskdoc.Error is wrapped as IO_ERROR (and
// still matches its cause with errors.Is). An error that names the path
// and slug already is returned as it is, not copied again.
func At(err error, path, slug string) error { return at(err, path, "", slug) }

// At is the package At for an error about f's document: one that names
// another file (an archive, a referenced document) keeps its path.
func (f Flow) At(err error, slug string) error { return at(err, f.Path, f.File, slug) }

// at rewrites the path of an error about file (every error when file is
// "") to path.
func at(err error, path, file, slug string) error {
	if err == nil {
		return nil
	}
	var e *taskdoc.Error
	if !errors.As(err, &e) {
		return &taskdoc.Error{Code: taskdoc.CodeIO, Path: path, Slug: slug, Err: err,
			Msg: fmt.Sprintf("%s: %v", path, err)}
	}
	copied := *e
	if slug != "" {
		copied.Slug = slug
	}
	if file != "" && copied.Path != "" && copied.Path != path && copied.Path != file {
		return &copied // about another file: it keeps its path and message
	}
	copied.Path = path
	if copied.Msg != "" && !strings.Contains(copied.Msg, path) && (file == "" || !strings.Contains(copied.Msg, file)) {
		copied.Msg = path + ": " + copied.Msg
	}
	if copied.Path == e.Path && copied.Slug == e.Slug && copied.Msg == e.Msg {
		return err // named already: an error is decorated once, and passes the callers above as it is
	}
	return &copied
}
