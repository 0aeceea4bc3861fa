package gitsync_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/agent"
	"github.com/taskmd/taskmd/gitsync"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

var ctx = context.Background()

// t0 is the tests' clock: every agent registered at t0 stays online.
var t0 = time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)

func now() time.Time { return t0 }

// gitEnv is the environment of the tests' own git commands: a fixed
// identity, no global or system configuration.
func gitEnv() []string {
	return append(os.Environ(),
		"GIT_AUTHOR_NAME=test", "GIT_AUTHOR_EMAIL=test@example.com",
		"GIT_COMMITTER_NAME=test", "GIT_COMMITTER_EMAIL=test@example.com",
		"LC_ALL=C", "GIT_TERMINAL_PROMPT=0")
}

// run runs git in dir and returns its output, failing the test on error.
func run(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = gitEnv()
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %s: %s", strings.Join(args, " "), out)
	return string(out)
}

// runInput is run with stdin as git's standard input.
func runInput(t testing.TB, dir, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = gitEnv()
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.Output()
	require.NoError(t, err, "git %s", strings.Join(args, " "))
	return string(out)
}

// planOf is a plan of n pending tasks, "Task 1" (#task-1) to "Task n".
func planOf(n int) string {
	var b strings.Builder
	b.WriteString("# Plan\n\nWork shared by several machines.\n\n## Tasks\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "\n### Task %d\n- Status: pending\n\nDo part %d.\n", i, i)
	}
	return b.String()
}

// newRemote makes a bare repository whose main branch holds files, and
// returns its path.
func newRemote(t testing.TB, files map[string]string) string {
	t.Helper()
	remote, seed := firstCommit(t, files)
	run(t, seed, "push", "-q", "origin", "main")
	return remote
}

// firstCommit makes an empty bare repository and a clone of it, seed,
// whose main branch has one commit holding files, not pushed yet.
func firstCommit(t testing.TB, files map[string]string) (remote, seed string) {
	t.Helper()
	base := t.TempDir()
	remote = filepath.Join(base, "remote.git")
	run(t, base, "init", "-q", "--bare", "-b", "main", remote)
	seed = filepath.Join(base, "seed")
	run(t, base, "clone", "-q", remote, seed)
	run(t, seed, "checkout", "-q", "-b", "main")
	for name, content := range files {
		filetest.Write(t, seed, name, content)
	}
	run(t, seed, "add", "-A")
	run(t, seed, "commit", "-q", "-m", "the plan")
	return remote, seed
}

// machine is one clone of the remote with its workspace, plans, sync and
// one registered agent.
type machine struct {
	dir   string
	ws    *workspace.Workspace
	plans *plan.Plans
	sync  *gitsync.Sync
	agent string
}

// newMachine clones remote into a new folder and opens it, with agent
// "agent-<name>" registered.
func newMachine(t testing.TB, remote, name string, opts ...gitsync.Option) *machine {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	run(t, filepath.Dir(dir), "clone", "-q", remote, dir)
	return openMachine(t, dir, name, opts...)
}

// openMachine opens the clone in dir, registering "agent-<name>".
func openMachine(t testing.TB, dir, name string, opts ...gitsync.Option) *machine {
	t.Helper()
	ws, err := workspace.Open(dir)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	plans := plan.New(ws, plan.WithClock(now))
	a, err := plans.Agents().Register(ctx, agent.Registration{ID: "agent-" + name, Name: name, Runtime: "test"})
	require.NoError(t, err)
	s, err := gitsync.New(ctx, ws, plans, opts...)
	require.NoError(t, err)
	return &machine{dir: dir, ws: ws, plans: plans, sync: s, agent: a.ID}
}

// remoteFile is the file name as the remote's main branch has it.
func remoteFile(t testing.TB, remote, name string) string {
	t.Helper()
	return run(t, remote, "show", "main:"+name)
}

// taskIn is task slug of the document src.
func taskIn(t testing.TB, src, slug string) *taskdoc.Task {
	t.Helper()
	doc, err := taskdoc.Parse([]byte(src))
	require.NoError(t, err)
	tk, err := doc.Task(slug)
	require.NoError(t, err)
	return tk
}

func assigneeIn(t testing.TB, src, slug string) string {
	t.Helper()
	v, _ := taskIn(t, src, slug).Field(taskdoc.KeyAssignee)
	return v
}

// loseFirstPush makes a's first push wait until queued is closed, and
// then b claim task 5 of the plan first, so that a's push is rejected and
// its batch made again; pushes counts a's pushes.
func loseFirstPush(t *testing.T, a, b *machine) (pushes *atomic.Int32, queued chan struct{}) {
	pushes, queued = new(atomic.Int32), make(chan struct{})
	gitsync.BeforePush(a.sync, func() {
		if pushes.Add(1) == 1 {
			<-queued
			res, err := b.sync.Claim(ctx, "/plan.md#task-5", b.agent)
			require.NoError(t, err)
			require.True(t, res.Success)
		}
	})
	return pushes, queued
}

// moveBefore has b claim task, and push it, just before a's first push
// (between a's commit and its push); pushes counts a's pushes.
func moveBefore(t *testing.T, a, b *machine, task string) *atomic.Int32 {
	pushes := new(atomic.Int32)
	gitsync.BeforePush(a.sync, func() {
		if pushes.Add(1) == 1 {
			res, err := b.sync.Claim(ctx, task, b.agent)
			require.NoError(t, err)
			require.True(t, res.Success)
			require.True(t, res.Pushed)
		}
	})
	return pushes
}

// claimPushed claims task for m's agent and requires the claim made and
// pushed.
func (m *machine) claimPushed(t testing.TB, task string) gitsync.ClaimResult {
	t.Helper()
	res, err := m.sync.Claim(ctx, task, m.agent)
	require.NoError(t, err)
	require.True(t, res.Pushed, "%+v", res.Report)
	return res
}

// stashes is the stash list of the clone in dir, a line each: commit and
// subject.
func stashes(t testing.TB, dir string) string {
	t.Helper()
	return run(t, dir, "stash", "list", "--format=%H %s")
}

// stashAsTaskmd stashes the edits of the clone in dir as a call that sets
// them aside does, and returns the stash's commit.
func stashAsTaskmd(t testing.TB, dir string) string {
	t.Helper()
	run(t, dir, "stash", "push", "-q", "-m", gitsync.AsideMsg)
	return strings.TrimSpace(run(t, dir, "rev-parse", "refs/stash"))
}

// recordAside writes record as the clone's record of edits set aside, as
// a call that crashed left it.
func recordAside(t testing.TB, dir, record string) {
	t.Helper()
	filetest.Write(t, dir, ".taskmd/gitsync/aside", record)
}

// remoteHook installs script as the hook name of the bare remote and
// returns its path.
func remoteHook(t testing.TB, remote, name, script string) string {
	t.Helper()
	hook := filepath.Join(remote, "hooks", name)
	require.NoError(t, os.WriteFile(hook, []byte(script), 0o755))
	return hook
}
