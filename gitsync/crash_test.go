package gitsync_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/gitsync"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/workspace"
)

// A crash child claims one task in the clone envCrashDir for
// envCrashAgent; the clone's git hooks kill it (and the git command that
// runs them) at the step envCrashAt names.
const (
	envCrashDir   = "TASKMD_GITSYNC_CRASH_DIR"
	envCrashAgent = "TASKMD_GITSYNC_CRASH_AGENT"
	envCrashAt    = "TASKMD_GITSYNC_CRASH_AT"
	envCrashTask  = "TASKMD_GITSYNC_CRASH_TASK"
	envCrashRefs  = "TASKMD_GITSYNC_CRASH_PLAN_REFS" // "1": WithPlanRefs
)

// crashChild claims the task and prints what it got: reaching the end
// means the hook did not fire.
func crashChild(dir string) int {
	ws, err := workspace.Open(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer ws.Close()
	var opts []gitsync.Option
	if os.Getenv(envCrashRefs) == "1" {
		opts = append(opts, gitsync.WithPlanRefs())
	}
	s, err := gitsync.New(ctx, ws, plan.New(ws, plan.WithClock(now)), opts...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	res, err := s.Claim(ctx, os.Getenv(envCrashTask), os.Getenv(envCrashAgent))
	fmt.Printf("the claim ended: %+v %v\n", res, err)
	return 0
}

// crashHook is the clone's reference-transaction and pre-push hook: at
// the step $TASKMD_GITSYNC_CRASH_AT it kills the git command that runs it
// and that command's parent, the machine, at once (SIGKILL). A step is a
// git command (read from its command line), and for a ref update the
// transaction's state: "prepared" (the ref is locked, not moved) or
// "committed" (moved, its lock and the index's maybe still there). With
// plan refs, "pushed" is when the clone moves its copy of the plan ref
// after the push (git moves only the branch's itself).
const crashHook = `#!/bin/sh
step=${TASKMD_GITSYNC_CRASH_AT:-}
[ -n "$step" ] || exit 0
git_pid=$PPID
cmd=$(tr '\0' ' ' < /proc/$git_pid/cmdline)
machine=$(sed 's/.*) //' /proc/$git_pid/stat | cut -d' ' -f2)
hit=
case "$step:$(basename "$0"):${1:-}" in
fetch:reference-transaction:prepared) case "$cmd" in *" fetch "*) hit=1 ;; esac ;;
merge:reference-transaction:prepared) case "$cmd" in *" merge "*) hit=1 ;; esac ;;
write:reference-transaction:prepared) case "$cmd" in *" commit "*) hit=1 ;; esac ;;
commit:reference-transaction:committed) case "$cmd" in *" commit "*) hit=1 ;; esac ;;
push:pre-push:*) hit=1 ;;
pushed:reference-transaction:committed) case "$cmd" in *" push -q origin "*|*" update-ref --stdin"*) hit=1 ;; esac ;;
aside:reference-transaction:committed) case "$cmd" in *" stash push "*) hit=1 ;; esac ;;
esac
[ -n "$hit" ] || exit 0
kill -9 "$machine" "$git_pid"
sleep 5
`

// TestKilledAtEachStep kills a machine inside each step of a claim it
// shares (fetch, merge, the write of the claim, the commit, the push,
// just after the push), with a person's edit set aside and the remote
// moved by another machine. Each time the clone's next call succeeds with
// no person's help, the plan holds no conflict markers, the killed claim
// is on the remote or nowhere, and git status shows only the person's
// edit. So too with plan refs, where the remote's branch is checked after
// the restarted machine's Push.
func TestKilledAtEachStep(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("the crash hooks find the machine's process in /proc, which this system does not have")
	}
	if testing.Short() {
		t.Skip("one process killed per step, through git hooks")
	}
	for _, refs := range []bool{false, true} {
		killedAtEachStep(t, refs)
	}
}

func killedAtEachStep(t *testing.T, refs bool) {
	var opts []gitsync.Option
	if refs {
		opts = append(opts, gitsync.WithPlanRefs())
	}
	for _, tc := range []struct {
		step string
		// ahead makes the clone hold a commit of its own that the
		// remote has not, so that the claim merges rather than fast
		// forwards.
		ahead bool
		// kept: the killed claim is on the remote afterwards (it was
		// committed before the kill); else it is nowhere.
		kept bool
		// edit: a person edits another task of the plan while the
		// machine is down.
		edit bool
	}{
		{step: "aside"},
		{step: "fetch"},
		{step: "merge"},
		{step: "merge", ahead: true},
		{step: "write"},
		{step: "commit", kept: true},
		{step: "push", kept: true},
		{step: "pushed", kept: true},
		{step: "merge", edit: true},
		{step: "write", edit: true},
		{step: "commit", kept: true, edit: true},
	} {
		name := tc.step
		if tc.ahead {
			name += "-ahead"
		}
		if tc.edit {
			name += "-edited"
		}
		if refs {
			name = "plan-refs/" + name
		}
		t.Run(name, func(t *testing.T) {
			remote := newRemote(t, map[string]string{doc: planOf(4), "notes.txt": "one\n", ".gitignore": ".taskmd/\n"})
			a := newMachine(t, remote, "a", opts...)
			b := newMachine(t, remote, "b", opts...)
			if tc.ahead {
				filetest.Write(t, a.dir, "local.txt", "a commit of this clone's own\n")
				run(t, a.dir, "add", "local.txt")
				run(t, a.dir, "commit", "-q", "-m", "local")
			}
			// Another machine moves the remote; a person edits a file.
			res, err := b.sync.Claim(ctx, "/plan.md#task-2", b.agent)
			require.NoError(t, err)
			require.True(t, res.Pushed)
			filetest.Write(t, a.dir, "notes.txt", "one\nthe person's line\n")
			for _, hook := range []string{"reference-transaction", "pre-push"} {
				require.NoError(t, os.WriteFile(filepath.Join(a.dir, ".git", "hooks", hook), []byte(crashHook), 0o755))
			}

			exe, err := os.Executable()
			require.NoError(t, err)
			cmd := exec.Command(exe, "-test.run=^$")
			cmd.Env = append(os.Environ(), envCrashDir+"="+a.dir, envCrashAgent+"="+a.agent,
				envCrashAt+"="+tc.step, envCrashTask+"=/plan.md#task-1", envCrashRefs+"="+map[bool]string{true: "1"}[refs])
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			require.True(t, errors.As(err, &exit), "the machine was not killed at %s: %v %s", tc.step, err, out)
			ws, ok := exit.Sys().(syscall.WaitStatus)
			require.True(t, ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL, "the machine ended otherwise: %v %s", err, out)
			if tc.edit {
				// The person edits the plan the killed claim wrote (or
				// the merge did), another task's line.
				before := filetest.Read(t, a.dir, doc)
				edited := strings.Replace(before, "Do part 4.", "Do part 4, then tell the team.", 1)
				require.NotEqual(t, before, edited)
				filetest.Write(t, a.dir, doc, edited)
			}

			// The machine restarts: its next call works with no help.
			again := openMachine(t, a.dir, "a", opts...)
			next, err := again.sync.Claim(ctx, "/plan.md#task-3", again.agent)
			require.NoError(t, err, "the call after a kill at %s", tc.step)
			assert.True(t, next.Success)
			assert.True(t, next.Pushed)
			if refs {
				_, err := again.sync.Push(ctx) // the branch follows the plan ref
				require.NoError(t, err)
			}

			final := remoteFile(t, remote, doc)
			assert.Equal(t, again.agent, assigneeIn(t, final, "task-3"))
			assert.Equal(t, b.agent, assigneeIn(t, final, "task-2"))
			local := filetest.Read(t, a.dir, doc)
			assert.NotContains(t, local, "<<<<<<<")
			assert.NotContains(t, final, "<<<<<<<")
			assert.Equal(t, 1, strings.Count(run(t, remote, "log", "--format=%s", "main"), "claims /plan.md#task-3"))
			once := 0
			if tc.kept {
				once = 1
			}
			assert.Equal(t, once, strings.Count(run(t, remote, "log", "--format=%s", "main"), "claims /plan.md#task-1"),
				"the killed claim is committed once if it was committed, never twice")
			if tc.edit {
				assert.Contains(t, local, "Do part 4, then tell the team.", "the person's edit is kept")
				assert.NotContains(t, final, "then tell the team", "the person's edit stays uncommitted")
				for _, slug := range []string{"task-2", "task-3"} {
					assert.Equal(t, assigneeIn(t, final, slug), assigneeIn(t, local, slug))
				}
			} else {
				assert.Equal(t, final, local, "the clone's plan is the remote's")
			}
			if tc.kept {
				assert.Equal(t, a.agent, assigneeIn(t, final, "task-1"), "a claim committed before the kill is shared")
			} else {
				assert.Empty(t, assigneeIn(t, final, "task-1"), "a claim not committed before the kill is nowhere")
			}
			if tc.edit {
				assert.Equal(t, " M docs/plan.md\n M notes.txt\n", run(t, a.dir, "status", "--porcelain"), "only the person's edits are left")
			} else {
				assert.Equal(t, " M notes.txt\n", run(t, a.dir, "status", "--porcelain"), "only the person's edit is left")
			}
			assert.Equal(t, "one\nthe person's line\n", filetest.Read(t, a.dir, "notes.txt"))
			assert.Empty(t, run(t, a.dir, "stash", "list"))
			locks, _ := filepath.Glob(filepath.Join(a.dir, ".git", "*.lock"))
			assert.Empty(t, locks)
			if tc.ahead {
				assert.Equal(t, "a commit of this clone's own\n", remoteFile(t, remote, "local.txt"))
			}
		})
	}
}

// TestStaleIndexLock: a git killed in the clone left its index.lock
// (git stash then fails without a word): the next call removes it and
// works.
func TestStaleIndexLock(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(2), ".gitignore": ".taskmd/\n"})
	a := newMachine(t, remote, "a")
	filetest.Write(t, a.dir, ".git/index.lock", "")
	res, err := a.sync.Claim(ctx, "/plan.md#task-1", a.agent)
	require.NoError(t, err)
	assert.True(t, res.Pushed)
	assert.Empty(t, run(t, a.dir, "status", "--porcelain"))
	assert.NoFileExists(t, filepath.Join(a.dir, ".git", "index.lock"))
	assert.Equal(t, a.agent, assigneeIn(t, remoteFile(t, remote, doc), "task-1"))
}
