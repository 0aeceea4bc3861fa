package check

import (
	"context"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/taskmd/taskmd/editor"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// Severity is how much a Problem matters.
type Severity string

// The severities.
const (
	// SeverityError: something does not work as written (a task that
	// no address names, a dependency that never resolves).
	SeverityError Severity = "error"
	// SeverityWarning: it works, but not as its writer likely meant, or
	// it will hurt later (a stale claim, a merge without the driver).
	SeverityWarning Severity = "warning"
)

// Problem is one thing wrong with a workspace, at the place that shows it.
type Problem struct {
	Code     taskdoc.Code `json:"code"`
	Severity Severity     `json:"severity"`
	// File is the file, a slash-separated path relative to the workspace
	// root ("docs/api/auth.md", ".gitignore").
	File string `json:"file"`
	// Line and Column (1-based; Column in characters) are where in File;
	// 0 when the problem is the file as a whole, or its absence.
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Message string `json:"message"`
	// Hint says what to do about it.
	Hint string `json:"hint,omitempty"`
	// Fixable: Fix repairs it without losing anything.
	Fixable bool `json:"fixable,omitempty"`
}

// String is the problem as a compiler prints one:
// "docs/a.md:12:3: DUPLICATE_TASK: message (hint: ...)".
func (p Problem) String() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		b.WriteString(":" + strconv.Itoa(p.Line))
		if p.Column > 0 {
			b.WriteString(":" + strconv.Itoa(p.Column))
		}
	}
	b.WriteString(": " + string(p.Code) + ": " + p.Message)
	if p.Hint != "" {
		b.WriteString(" (hint: " + p.Hint + ")")
	}
	return b.String()
}

// Option configures Run and Fix.
type Option func(*config)

type config struct {
	under   string
	now     func() time.Time
	command string
}

// Under limits the check to the files under dir, a slash-separated path
// relative to the workspace root ("docs/api", "docs/api/auth.md"); "" or
// "." is the whole workspace. Cross-document problems (dependencies,
// cycles) still read every document, but only those under dir are
// reported.
func Under(dir string) Option { return func(c *config) { c.under = dir } }

// WithClock sets the clock that judges claims and how old a temporary file
// is (time.Now by default).
func WithClock(now func() time.Time) Option {
	return func(c *config) {
		if now != nil {
			c.now = now
		}
	}
}

// WithCommand sets the taskmd binary that Fix sets up as git's merge
// driver ("taskmd" by default: the one on the PATH).
func WithCommand(command string) Option { return func(c *config) { c.command = command } }

func newConfig(opts []Option) (config, error) {
	c := config{now: time.Now, command: "taskmd"}
	for _, o := range opts {
		o(&c)
	}
	under, err := cleanUnder(c.under)
	if err != nil {
		return c, err
	}
	c.under = under
	return c, nil
}

// cleanUnder is dir as Under takes it: "" for the whole workspace, else a
// clean relative path. One that leaves the root is OUTSIDE_ROOT.
func cleanUnder(dir string) (string, error) {
	if strings.Contains(dir, `\`) || path.IsAbs(dir) {
		return "", &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Path: dir,
			Msg: "check: " + dir + " is not a slash-separated path relative to the workspace root: write docs/api, say"}
	}
	dir = path.Clean("./" + dir)
	if dir == ".." || strings.HasPrefix(dir, "../") {
		return "", &taskdoc.Error{Code: taskdoc.CodeOutsideRoot, Path: dir,
			Msg: "check: " + dir + " is outside the workspace root"}
	}
	if dir == "." {
		return "", nil
	}
	return dir, nil
}

// covers reports whether file is under dir ("" is everything).
func (c config) covers(file string) bool {
	return c.under == "" || file == c.under || strings.HasPrefix(file, c.under+"/")
}

// Run checks the workspace and returns its problems, sorted by file, line
// and column: what package editor's Diagnostics finds in every document
// (the documents under docs/ and the coordinator's list), the temporary
// files crashed writes left (workspace.Workspace.Leftovers), and, when the
// root is in a git work tree, the state folder not ignored by git and
// the merge driver not set up or not runnable. It writes nothing. An
// error is returned only when the check itself cannot run (the workspace
// is closed, ctx is done, a bad Under): problems are never errors.
func Run(ctx context.Context, ws *workspace.Workspace, opts ...Option) ([]Problem, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	var out []Problem
	for _, step := range []func(context.Context, *workspace.Workspace, config) ([]Problem, error){documents, leftovers, gitProblems} {
		ps, err := step(ctx, ws, c)
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			if c.covers(p.File) {
				out = append(out, p)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b Problem) int {
		if a.File != b.File {
			return strings.Compare(a.File, b.File)
		}
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return a.Column - b.Column
	})
	return out, nil
}

// documents are the problems editor.Session.Diagnostics finds in each
// document: the one rule for what is wrong in a document.
func documents(ctx context.Context, ws *workspace.Workspace, c config) ([]Problem, error) {
	s, err := editor.New(ws, editor.WithEncoding(editor.UTF32), editor.WithClock(c.now))
	if err != nil {
		return nil, err
	}
	paths, err := s.Documents(ctx)
	if err != nil {
		return nil, err
	}
	var out []Problem
	for _, p := range paths {
		if !c.covers(p) {
			continue
		}
		ds, err := s.Diagnostics(ctx, p)
		if err != nil {
			return nil, err
		}
		for _, d := range ds {
			sev := SeverityError
			if d.Severity != editor.SeverityError {
				sev = SeverityWarning
			}
			out = append(out, Problem{Code: d.Code, Severity: sev, File: p,
				Line: d.Range.Start.Line + 1, Column: d.Range.Start.Character + 1,
				Message: d.Message, Hint: hints[d.Code]})
		}
	}
	return out, nil
}

// leftovers are the temporary files crashed writes left.
func leftovers(ctx context.Context, ws *workspace.Workspace, c config) ([]Problem, error) {
	dir := c.under
	if dir == "" {
		dir = "."
	}
	names, err := ws.Leftovers(ctx, dir)
	if err != nil {
		if taskdoc.CodeOf(err) == taskdoc.CodeDocumentNotFound {
			return nil, nil
		}
		return nil, err
	}
	out := make([]Problem, 0, len(names))
	for _, n := range names {
		out = append(out, Problem{Code: CodeStrayTempFile, Severity: SeverityWarning, File: n, Fixable: true,
			Message: "a temporary file that a write killed before it finished left behind; nothing reads it",
			Hint:    hints[CodeStrayTempFile]})
	}
	return out, nil
}
