package check

import (
	"context"
	"errors"
	"io/fs"
	"slices"

	"github.com/taskmd/taskmd/gitsync"
	"github.com/taskmd/taskmd/internal/git"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// Fixed is one repair Fix made.
type Fixed struct {
	Code    taskdoc.Code `json:"code"` // of the problem it repaired
	File    string       `json:"file"`
	Message string       `json:"message"`
}

// Fix repairs the problems of problems (as Run returned them) that are
// Fixable, none of which loses anything: it removes the stray temporary
// files (workspace.Workspace.Sweep, which keeps a file a write may still
// be using), adds .taskmd/ to .gitignore (workspace.Workspace.IgnoreState)
// and sets up the merge driver as the taskmd command's git-setup does
// (gitsync.SetUp, with the command given WithCommand). It does not set up
// a driver whose command would not run either: that problem stays. It
// returns what it did, in that order; run Run again for what is left.
// Every fix is one that a retry does not repeat.
func Fix(ctx context.Context, ws *workspace.Workspace, problems []Problem, opts ...Option) ([]Fixed, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	has := func(code taskdoc.Code) bool {
		return slices.ContainsFunc(problems, func(p Problem) bool { return p.Fixable && p.Code == code })
	}
	var setUp bool
	var r repo
	if has(CodeMergeDriverNotSet) || has(CodeMergeDriverNotRunnable) {
		var ok bool
		r, ok = repoOf(ctx, ws)
		setUp = ok && runnable(r.top, c.command) == ""
	}
	var out []Fixed
	if has(CodeStrayTempFile) {
		fixed, err := sweep(ctx, ws, c, problems)
		out = append(out, fixed...)
		if err != nil {
			return out, err
		}
	}
	if setUp {
		res, err := gitsync.SetUp(ctx, ws, c.command)
		if err != nil {
			return out, err
		}
		out = append(out, Fixed{Code: CodeMergeDriverNotSet, File: r.configFile(ctx), Message: "set " + git.DriverKey + " to " + res.Driver})
		if res.AttributesAdded {
			out = append(out, Fixed{Code: CodeMergeDriverNotSet, File: ".gitattributes", Message: "added the lines that send task documents to the merge driver"})
		}
		if res.IgnoreStateAdded {
			out = append(out, Fixed{Code: CodeStateNotIgnored, File: ".gitignore", Message: "added " + workspace.StateDir + "/"})
		}
	} else if has(CodeStateNotIgnored) {
		added, err := ws.IgnoreState(ctx)
		if err != nil {
			return out, err
		}
		if added {
			out = append(out, Fixed{Code: CodeStateNotIgnored, File: ".gitignore", Message: "added " + workspace.StateDir + "/"})
		}
	}
	return out, nil
}

// sweep removes the stray temporary files under the checked folder and
// reports each of problems' that is gone.
func sweep(ctx context.Context, ws *workspace.Workspace, c config, problems []Problem) ([]Fixed, error) {
	dir := c.under
	if dir == "" {
		dir = "."
	}
	if _, err := ws.Sweep(ctx, dir); err != nil && taskdoc.CodeOf(err) != taskdoc.CodeDocumentNotFound {
		return nil, err
	}
	var out []Fixed
	for _, p := range problems {
		if p.Code != CodeStrayTempFile || !c.covers(p.File) {
			continue
		}
		if _, err := fs.Stat(ws.FS(), p.File); errors.Is(err, fs.ErrNotExist) {
			out = append(out, Fixed{Code: p.Code, File: p.File, Message: "removed"})
		}
	}
	return out, nil
}
