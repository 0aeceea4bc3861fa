package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gitIn runs git in dir with a fixed identity and fails the test on error.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := gitTry(dir, args...)
	require.NoError(t, err, "git %v: %s", args, out)
	return out
}

// gitTry runs git in dir and returns its combined output and error.
func gitTry(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LC_ALL=C", "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir, "PATH="+gitPath)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// gitPath is the PATH git runs with: the folders of git and sh only, so
// that a merge driver named "taskmd" is not found there.
var gitPath = func() string {
	var dirs []string
	for _, prog := range []string{"git", "sh"} {
		if p, err := exec.LookPath(prog); err == nil {
			dirs = append(dirs, filepath.Dir(p))
		}
	}
	return strings.Join(dirs, string(os.PathListSeparator))
}()

// mergeRepo is a repository set up by git-setup (its default command, the
// built binary by its absolute path) as its merge driver, holding base at docs/plan.md on main, with branch a
// changing it to ours and branch b to theirs; it merges b into a and
// returns the repository, the file after it and the merge's error.
func mergeRepo(t *testing.T, base, ours, theirs string) (dir, got string, mergeErr error) {
	t.Helper()
	dir, got, _, mergeErr = mergeOutput(t, base, ours, theirs)
	return dir, got, mergeErr
}

// mergeOutput is mergeRepo with what git merge printed, the driver's
// stderr among it.
func mergeOutput(t *testing.T, base, ours, theirs string) (dir, got, out string, mergeErr error) {
	t.Helper()
	dir = t.TempDir()
	gitIn(t, dir, "init", "-q")
	file := filepath.Join(dir, "docs", "plan.md")
	require.NoError(t, os.MkdirAll(filepath.Dir(file), 0o755))
	r := taskmd(t, dir, "", "git-setup")
	require.Equal(t, 0, r.exit, r.stderr)
	commit := func(content, msg string) {
		require.NoError(t, os.WriteFile(file, []byte(content), 0o644))
		gitIn(t, dir, "add", "-A")
		gitIn(t, dir, "commit", "-qm", msg)
	}
	commit(base, "base")
	gitIn(t, dir, "branch", "b")
	gitIn(t, dir, "checkout", "-qb", "a")
	commit(ours, "ours")
	gitIn(t, dir, "checkout", "-q", "b")
	commit(theirs, "theirs")
	gitIn(t, dir, "checkout", "-q", "a")
	out, mergeErr = gitTry(dir, "merge", "--no-edit", "b")
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	return dir, string(b), out, mergeErr
}

const planBase = `# Plan

## Tasks

### One

- Status: in_progress

Do one.

### Two

- Status: in_progress

Do two.
`

func TestGitSetupIdempotent(t *testing.T) {
	dir := t.TempDir()
	gitIn(t, dir, "init", "-q")
	require.NoError(t, os.Mkdir(filepath.Join(dir, "docs"), 0o755))
	r := taskmd(t, dir, "", "--json", "git-setup", "--command", "taskmd")
	require.Equal(t, 0, r.exit, r.stderr)
	assert.JSONEq(t, `{"schema_version":1,"driver":"taskmd merge-driver %O %A %B %P %L","attributes_added":true,"ignore_state_added":true}`, r.stdout)
	assert.Equal(t, "taskmd merge-driver %O %A %B %P %L\n", gitIn(t, dir, "config", "merge.taskmd.driver"))
	attrs, err := os.ReadFile(filepath.Join(dir, ".gitattributes"))
	require.NoError(t, err)
	assert.Equal(t, "docs/**/*.md merge=taskmd\ncoordinator/*.md merge=taskmd\ncheckpoints/**/*.md merge=taskmd\n", string(attrs))
	assert.Equal(t, "docs/plan.md: merge: taskmd\n", gitIn(t, dir, "check-attr", "merge", "--", "docs/plan.md"))
	assert.Equal(t, "checkpoints/tasks/plan.md/one.md: merge: taskmd\n", gitIn(t, dir, "check-attr", "merge", "--", "checkpoints/tasks/plan.md/one.md"))
	assert.Equal(t, "README.md: merge: unspecified\n", gitIn(t, dir, "check-attr", "merge", "--", "README.md"))

	r = taskmd(t, dir, "", "--json", "git-setup", "--command", "taskmd")
	require.Equal(t, 0, r.exit, r.stderr)
	assert.JSONEq(t, `{"schema_version":1,"driver":"taskmd merge-driver %O %A %B %P %L","attributes_added":false,"ignore_state_added":false}`, r.stdout)
	again, err := os.ReadFile(filepath.Join(dir, ".gitattributes"))
	require.NoError(t, err)
	assert.Equal(t, attrs, again)
}

func TestGitSetupNotARepository(t *testing.T) {
	dir := t.TempDir()
	r := taskmd(t, dir, "", "git-setup")
	assert.Equal(t, exitOther, r.exit)
	assert.Contains(t, r.stderr, "GIT_ERROR")
	assert.Contains(t, r.stderr, "not a git repository")
	_, err := os.Stat(filepath.Join(dir, ".gitattributes"))
	assert.True(t, os.IsNotExist(err), "a failed setup writes nothing")
}

// Without --command the driver is the running binary by its absolute path,
// so a merge works when taskmd is not on git's PATH.
func TestGitSetupDriverIsThisBinary(t *testing.T) {
	for _, d := range filepath.SplitList(gitPath) {
		_, err := os.Stat(filepath.Join(d, "taskmd"))
		require.True(t, os.IsNotExist(err), "taskmd is in %s, on git's PATH", d)
	}
	self, err := filepath.EvalSymlinks(binary)
	require.NoError(t, err)
	dir := t.TempDir()
	gitIn(t, dir, "init", "-q")
	require.NoError(t, os.Mkdir(filepath.Join(dir, "docs"), 0o755))
	r := taskmd(t, dir, "", "--json", "git-setup")
	require.Equal(t, 0, r.exit, r.stderr)
	assert.Equal(t, self+" merge-driver %O %A %B %P %L\n", gitIn(t, dir, "config", "merge.taskmd.driver"))

	ours := strings.Replace(planBase, "- Status: in_progress\n\nDo one.", "- Status: completed\n- Completed: 2026-01-02\n- Note: one done\n\nDo one.", 1)
	theirs := strings.Replace(planBase, "- Status: in_progress\n\nDo two.", "- Status: completed\n- Completed: 2026-01-03\n- Note: two done\n\nDo two.", 1)
	_, got, mergeErr := mergeRepo(t, planBase, ours, theirs)
	require.NoError(t, mergeErr)
	assert.NotContains(t, got, "<<<<<<<")
	assert.Contains(t, got, "- Note: one done")
	assert.Contains(t, got, "- Note: two done")
}

// Plain git conflicts here: the two completions touch lines three apart.
func TestMergeDriverDifferentTasks(t *testing.T) {
	ours := strings.Replace(planBase, "- Status: in_progress\n\nDo one.", "- Status: completed\n- Completed: 2026-01-02\n- Note: one done\n\nDo one.", 1)
	theirs := strings.Replace(planBase, "- Status: in_progress\n\nDo two.", "- Status: completed\n- Completed: 2026-01-03\n- Note: two done\n\nDo two.", 1)
	want := `# Plan

## Tasks

### One

- Status: completed
- Completed: 2026-01-02
- Note: one done

Do one.

### Two

- Status: completed
- Completed: 2026-01-03
- Note: two done

Do two.
`
	dir, got, err := mergeRepo(t, planBase, ours, theirs)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.Empty(t, gitIn(t, dir, "status", "--porcelain"), "merged and committed")
}

func TestMergeDriverConflict(t *testing.T) {
	ours := strings.Replace(planBase, "Do one.", "Do one, fast.", 1)
	theirs := strings.Replace(planBase, "Do one.", "Do one, well.", 1)
	dir, got, err := mergeRepo(t, planBase, ours, theirs)
	require.Error(t, err, "the merge stops on the conflict")
	assert.Contains(t, got, "<<<<<<<")
	assert.Contains(t, got, "Do one, fast.")
	assert.Contains(t, got, "Do one, well.")
	assert.Contains(t, got, "### Two\n\n- Status: in_progress\n\nDo two.\n", "the other task is untouched")
	assert.Contains(t, gitIn(t, dir, "status", "--porcelain"), "UU docs/plan.md")
}

func TestMergeDriverUsage(t *testing.T) {
	dir := t.TempDir()
	r := taskmd(t, dir, "", "merge-driver", "a", "b")
	assert.Equal(t, exitUsage, r.exit)
	for _, f := range []string{"o", "a", "b"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), []byte("x\n"), 0o644))
	}
	r = taskmd(t, dir, "", "merge-driver", filepath.Join(dir, "o"), filepath.Join(dir, "a"), filepath.Join(dir, "b"), "docs/x.md", "seven")
	assert.Equal(t, exitUsage, r.exit)
	r = taskmd(t, dir, "", "merge-driver", filepath.Join(dir, "o"), filepath.Join(dir, "a"), filepath.Join(dir, "missing"))
	assert.Equal(t, exitOther, r.exit)
	a, err := os.ReadFile(filepath.Join(dir, "a"))
	require.NoError(t, err)
	assert.Equal(t, "x\n", string(a), "a failed merge leaves CURRENT as it was")
}

// A side that does not parse as a task document cannot be merged task by
// task: the driver says so on stderr, which git shows, and takes git's own
// line merge, so that changes git would merge still merge, and a conflict
// is git's conflict.
func TestMergeDriverUnparsedSide(t *testing.T) {
	// An editor saved ours in Latin-1: not UTF-8, so not a task document.
	ours := strings.Replace(planBase, "Do one.", "Do one, caf\xe9.", 1)
	theirs := strings.Replace(planBase, "Do two.", "Do two, well.", 1)
	dir, got, out, err := mergeOutput(t, planBase, ours, theirs)
	require.NoError(t, err, out)
	assert.Equal(t, strings.Replace(ours, "Do two.", "Do two, well.", 1), got)
	assert.Contains(t, out, "taskmd merge-driver: docs/plan.md: ours does not parse as a task document")
	assert.Contains(t, out, "merged line by line with git merge-file")
	assert.Empty(t, gitIn(t, dir, "status", "--porcelain"), "merged and committed")

	theirs = strings.Replace(planBase, "Do one.", "Do one, well.", 1)
	dir, got, out, err = mergeOutput(t, planBase, ours, theirs)
	require.Error(t, err, "both changed the same line")
	assert.Contains(t, out, "ours does not parse as a task document")
	assert.Contains(t, got, "<<<<<<< ours\n")
	assert.Contains(t, gitIn(t, dir, "status", "--porcelain"), "UU docs/plan.md")
	// The conflict is the one git merge-file makes of the three versions.
	tmp := t.TempDir()
	for name, text := range map[string]string{"base": planBase, "ours": ours, "theirs": theirs} {
		require.NoError(t, os.WriteFile(filepath.Join(tmp, name), []byte(text), 0o644))
	}
	want, _ := gitTry(tmp, "merge-file", "-p", "-L", "ours", "-L", "base", "-L", "theirs", "ours", "base", "theirs")
	assert.Equal(t, want, got, "git's conflict, not the driver's")
}

// A side the driver cannot read: it says which and why, and leaves
// CURRENT as it was.
func TestMergeDriverUnreadableSide(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"o", "a"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), []byte("x\n"), 0o644))
	}
	r := taskmd(t, dir, "", "merge-driver", filepath.Join(dir, "o"), filepath.Join(dir, "a"), filepath.Join(dir, "missing"), "docs/x.md")
	assert.Equal(t, exitOther, r.exit)
	assert.Contains(t, r.stderr, "docs/x.md: cannot read OTHER")
	assert.Contains(t, r.stderr, "merge it by hand")
}
