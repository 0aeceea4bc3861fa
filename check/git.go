package check

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/taskmd/taskmd/internal/git"
	"github.com/taskmd/taskmd/workspace"
)

// repo is the git work tree a workspace is in.
type repo struct {
	root string // the workspace root
	top  string // the work tree's top folder
}

// repoOf is the work tree holding the workspace's root; ok is false when
// it is in none (or git is not installed): then nothing of git is checked.
func repoOf(ctx context.Context, ws *workspace.Workspace) (repo, bool) {
	top, _, err := git.TopLevel(ctx, ws.Root())
	if err != nil {
		return repo{}, false
	}
	return repo{root: ws.Root(), top: top}, true
}

// git runs git in the workspace root; code is its exit code (-1 when it
// did not run).
func (r repo) git(ctx context.Context, args ...string) (out string, code int) {
	out, err := git.Run(ctx, r.root, args...)
	if err == nil {
		return out, 0
	}
	if ge, ok := git.As(err); ok {
		return out, ge.ExitCode
	}
	return out, -1
}

// configFile is the repository's config file, relative to the workspace
// root, for a Problem's File.
func (r repo) configFile(ctx context.Context) string {
	out, code := r.git(ctx, "rev-parse", "--git-path", "config")
	p := strings.TrimSpace(out)
	if code != 0 || p == "" {
		return ".git/config"
	}
	if filepath.IsAbs(p) {
		if rel, err := filepath.Rel(r.root, p); err == nil {
			p = rel
		}
	}
	return filepath.ToSlash(p)
}

// gitProblems are the problems of the workspace's git setup: the state
// folder not ignored, and the merge driver not set up or not runnable.
func gitProblems(ctx context.Context, ws *workspace.Workspace, _ config) ([]Problem, error) {
	r, ok := repoOf(ctx, ws)
	if !ok {
		return nil, ctx.Err()
	}
	var out []Problem
	out = append(out, r.stateIgnored(ctx)...)
	out = append(out, r.driver(ctx)...)
	out = append(out, r.attributes(ctx)...)
	return out, ctx.Err()
}

// stateIgnored reports the state folder when git does not ignore it (asked
// with git check-ignore, so every ignore file counts), or has files of it
// committed.
func (r repo) stateIgnored(ctx context.Context) []Problem {
	dir := workspace.StateDir + "/"
	if out, code := r.git(ctx, "ls-files", "--", dir); code == 0 && strings.TrimSpace(out) != "" {
		n := strings.Count(strings.TrimSpace(out), "\n") + 1
		return []Problem{{Code: CodeStateNotIgnored, Severity: SeverityWarning, File: workspace.StateDir,
			Message: fmt.Sprintf("%d files under %s are committed: they change every few seconds and belong to this clone", n, dir),
			Hint:    "git rm -r --cached " + dir + " and commit, then keep " + dir + " in .gitignore"}}
	}
	if _, code := r.git(ctx, "check-ignore", "-q", "--", dir); code != 1 {
		return nil // ignored, or git could not tell
	}
	return []Problem{{Code: CodeStateNotIgnored, Severity: SeverityWarning, File: ".gitignore", Fixable: true,
		Message: "git does not ignore " + dir + ", the library's state (locks, agents, claims): a commit would take it along",
		Hint:    hints[CodeStateNotIgnored]}}
}

// driver reports merge.taskmd.driver missing, or naming a command that
// does not run.
func (r repo) driver(ctx context.Context) []Problem {
	out, code := r.git(ctx, "config", "--get", git.DriverKey)
	if code == 1 {
		return []Problem{{Code: CodeMergeDriverNotSet, Severity: SeverityWarning, File: r.configFile(ctx), Fixable: true,
			Message: "git has no " + git.DriverKey + ": task documents merge line by line, and two agents' status changes conflict",
			Hint:    hints[CodeMergeDriverNotSet]}}
	}
	if code != 0 {
		return nil
	}
	driver := strings.TrimSpace(out)
	if why := runnable(r.top, driver); why != "" {
		return []Problem{{Code: CodeMergeDriverNotRunnable, Severity: SeverityError, File: r.configFile(ctx), Fixable: true,
			Message: fmt.Sprintf("%s is %q, but %s: every merge of a task document fails", git.DriverKey, driver, why),
			Hint:    hints[CodeMergeDriverNotRunnable]}}
	}
	return nil
}

// runnable says why the command of a merge driver cannot run ("" when it
// can): git runs it with the shell in the work tree's top folder, so a
// command with a slash is a file from there, one without is looked up on
// the PATH.
func runnable(top, driver string) string {
	name := command(driver)
	if name == "" {
		return "it names no command"
	}
	if !strings.Contains(name, "/") {
		if _, err := exec.LookPath(name); err != nil {
			return fmt.Sprintf("%s is not found on the PATH", name)
		}
		return ""
	}
	p := name
	if !filepath.IsAbs(p) {
		p = filepath.Join(top, p)
	}
	info, err := os.Stat(p)
	switch {
	case err != nil:
		return fmt.Sprintf("%s does not exist", name)
	case info.IsDir() || info.Mode().Perm()&0o111 == 0:
		return fmt.Sprintf("%s is not executable", name)
	}
	return ""
}

// command is the first word of a shell command, unquoted when it is
// quoted whole ('a b' or "a b").
func command(driver string) string {
	driver = strings.TrimSpace(driver)
	if driver == "" {
		return ""
	}
	if q := driver[0]; q == '\'' || q == '"' {
		if end := strings.IndexByte(driver[1:], q); end >= 0 {
			return driver[1 : end+1]
		}
	}
	name, _, _ := strings.Cut(driver, " ")
	name, _, _ = strings.Cut(name, "\t")
	return name
}

// attributes reports the kinds of file that .gitattributes does not send
// to the merge driver, asked with git check-attr for a file each pattern
// of git.Attributes matches.
func (r repo) attributes(ctx context.Context) []Problem {
	var missing []string
	for _, line := range git.Attributes {
		pattern, _, _ := strings.Cut(line, " ")
		sample := strings.ReplaceAll(strings.ReplaceAll(pattern, "**/", ""), "*", "x")
		out, code := r.git(ctx, "check-attr", "merge", "--", sample)
		if code != 0 {
			return nil
		}
		if !strings.HasSuffix(strings.TrimSpace(out), ": merge: taskmd") {
			missing = append(missing, pattern)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return []Problem{{Code: CodeMergeDriverNotSet, Severity: SeverityWarning, File: ".gitattributes", Fixable: true,
		Message: "git does not send " + strings.Join(missing, ", ") + " to the taskmd merge driver: they merge line by line",
		Hint:    hints[CodeMergeDriverNotSet]}}
}
