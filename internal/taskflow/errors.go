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
// path. An error that is not a *taskdoc.Error is wrapped as IO_ERROR.
func At(err error, path, slug string) error {
	if err == nil {
		return nil
	}
	var e *taskdoc.Error
	if !errors.As(err, &e) {
		return &taskdoc.Error{Code: taskdoc.CodeIO, Path: path, Slug: slug, Err: err,
			Msg: fmt.Sprintf("%s: %v", path, err)}
	}
	copied := *e
	copied.Path = path
	if copied.Msg != "" && !strings.Contains(copied.Msg, path) {
		copied.Msg = path + ": " + copied.Msg
	}
	if slug != "" {
		copied.Slug = slug
	}
	return &copied
}
