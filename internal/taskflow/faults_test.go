package taskflow_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/internal/hooks"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/subagent"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// countdown is a context that is cancelled at its n-th look: the n-th call
// of Err (0 is the first), so that a test can end an operation at each of
// its cancellation checks in turn.
type countdown struct {
	context.Context
	left atomic.Int64
	once sync.Once // Err is called from several goroutines at once
	done chan struct{}
}

func newCountdown(n int64) *countdown {
	c := &countdown{Context: context.Background(), done: make(chan struct{})}
	c.left.Store(n)
	return c
}

func (c *countdown) Err() error {
	if c.left.Add(-1) < 0 {
		c.once.Do(func() { close(c.done) })
		return context.Canceled
	}
	return nil
}

func (c *countdown) Done() <-chan struct{} { return c.done }

var fixedDay = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

const faultDoc = "# Auth\n\n## Tasks\n\n### Sign\n\n- Status: pending\n- Workflow: tdd\n\nSign tokens.\n\n@/specs/jwt.md\n\n" +
	"### Check\n\n- Status: in_progress\n\nCheck tokens.\n"

const faultList = "# Coordinator Tasks\n\n## Tasks\n\n### Lead\n\n- Status: pending\n- Main-Workflow: tdd\n\n" +
	"### Next\n\n- Status: pending\n- Workflow: tdd\n\nSee @/specs/jwt.md\n"

var faultFiles = map[string]string{
	"docs/auth.md":          faultDoc,
	"coordinator/active.md": faultList,
	"workflows/tdd.md":      "# TDD\n",
	"docs/specs/jwt.md":     "# JWT\n",
}

// faultOps are the operations of both systems, each on a fresh copy of
// faultFiles. The last coordinator completion finishes the list.
var faultOps = []struct {
	name  string
	setup func(ws *workspace.Workspace) error // before the files are compared; may be nil
	run   func(ctx context.Context, ws *workspace.Workspace) error
}{
	{"subagent create", nil, func(ctx context.Context, ws *workspace.Workspace) error {
		_, err := agents(ws).Create(ctx, "/auth.md", taskdoc.NewTask{Title: "Rotate", Content: "- Status: pending"})
		return err
	}},
	{"subagent create document", nil, func(ctx context.Context, ws *workspace.Workspace) error {
		_, err := agents(ws).Create(ctx, "/new/plan.md", taskdoc.NewTask{Title: "First"})
		return err
	}},
	{"subagent edit", nil, func(ctx context.Context, ws *workspace.Workspace) error {
		_, err := agents(ws).Edit(ctx, "/auth.md#sign", taskdoc.Edit{Content: "- Status: blocked\n\nWaiting."})
		return err
	}},
	{"subagent start", nil, func(ctx context.Context, ws *workspace.Workspace) error {
		_, err := agents(ws).Start(ctx, "/auth.md#sign")
		return err
	}},
	{"subagent complete", nil, func(ctx context.Context, ws *workspace.Workspace) error {
		_, err := agents(ws).Complete(ctx, "/auth.md#check", "checked")
		return err
	}},
	{"coordinator create", nil, func(ctx context.Context, ws *workspace.Workspace) error {
		_, err := list(ws).Create(ctx, taskdoc.NewTask{Title: "Later"})
		return err
	}},
	{"coordinator edit", nil, func(ctx context.Context, ws *workspace.Workspace) error {
		_, err := list(ws).Edit(ctx, "next", taskdoc.Edit{Title: "Then"})
		return err
	}},
	{"coordinator start", nil, func(ctx context.Context, ws *workspace.Workspace) error {
		_, err := list(ws).Start(ctx, coordinator.StartOptions{FullContext: true})
		return err
	}},
	{"coordinator complete", nil, func(ctx context.Context, ws *workspace.Workspace) error {
		_, err := list(ws).Complete(ctx, "led", coordinator.CompleteOptions{IncludeFullWorkflow: true, RequestKey: "k"})
		return err
	}},
	{"coordinator clear", completeLead, func(ctx context.Context, ws *workspace.Workspace) error {
		_, err := list(ws).Clear(ctx)
		return err
	}},
	{"coordinator complete last", completeLead, func(ctx context.Context, ws *workspace.Workspace) error {
		l := list(ws)
		done, err := l.Complete(ctx, "followed", coordinator.CompleteOptions{})
		if err == nil && done.ArchiveError != nil {
			// Written, not yet archived: the next operation, free of
			// faults, archives.
			hooks.Read = func(string) error { return nil }
			_, err = l.List(context.Background())
			return err
		}
		return err
	}},
}

func completeLead(ws *workspace.Workspace) error {
	_, err := list(ws).Complete(context.Background(), "led", coordinator.CompleteOptions{})
	return err
}

func agents(ws *workspace.Workspace) *subagent.Tasks {
	return subagent.New(ws, subagent.WithClock(func() time.Time { return fixedDay }))
}

func list(ws *workspace.Workspace) *coordinator.List {
	return coordinator.New(ws, coordinator.WithClock(func() time.Time { return fixedDay }))
}

// Every operation, ended by its context at each of its cancellation checks
// in turn, or by a failing read at each of its reads in turn, either fails
// having changed nothing or succeeds having made the whole change.
func TestFaultsChangeAllOrNothing(t *testing.T) {
	for _, op := range faultOps {
		t.Run(op.name, func(t *testing.T) {
			want := runOnCopy(t, op.setup, func(ws *workspace.Workspace) error { return op.run(context.Background(), ws) })
			require.NoError(t, want.err)
			require.NotEqual(t, want.before, want.after, "the operation changes files")

			for n := int64(0); ; n++ {
				require.Less(t, n, int64(500), "the operation never ran to the end")
				got := runOnCopy(t, op.setup, func(ws *workspace.Workspace) error { return op.run(newCountdown(n), ws) })
				if got.err == nil {
					require.Equal(t, want.after, got.after, "check %d: succeeded without the whole change", n)
					t.Logf("%d cancellation checks", n)
					break
				}
				require.ErrorIs(t, got.err, context.Canceled, "check %d", n)
				require.Equal(t, got.before, got.after, "check %d: failed (%v) but changed files", n, got.err)
			}

			for n := 0; ; n++ {
				require.Less(t, n, 500, "the operation never ran to the end")
				got := runOnCopy(t, op.setup, func(ws *workspace.Workspace) error {
					var reads atomic.Int64 // documents are read in parallel
					hooks.Read = func(string) error {
						if reads.Add(1) > int64(n) {
							return errors.New("injected read failure")
						}
						return nil
					}
					defer func() { hooks.Read = func(string) error { return nil } }()
					return op.run(context.Background(), ws)
				})
				if got.err == nil {
					require.Equal(t, want.after, got.after, "read %d: succeeded without the whole change", n)
					break
				}
				require.Equal(t, got.before, got.after, "read %d: failed (%v) but changed files", n, got.err)
			}
		})
	}
}

type outcome struct {
	before, after map[string]string
	err           error
}

// runOnCopy runs setup (when not nil), then fn, on a new workspace holding
// faultFiles and returns the files before and after fn.
func runOnCopy(t *testing.T, setup, fn func(*workspace.Workspace) error) outcome {
	t.Helper()
	root := t.TempDir()
	for name, text := range faultFiles {
		p := filepath.Join(root, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	defer ws.Close()
	if setup != nil {
		require.NoError(t, setup(ws))
	}
	o := outcome{before: filetest.Snapshot(t, root)}
	o.err = fn(ws)
	o.after = filetest.Snapshot(t, root)
	return o
}

// requireAllOrNothing is TestFaultsChangeAllOrNothing's check for one
// operation: ended at each cancellation check and at each read in turn, it
// fails having changed nothing or succeeds having made the whole change.
func requireAllOrNothing(t *testing.T, setup func(*workspace.Workspace) error, run func(context.Context, *workspace.Workspace) error) {
	t.Helper()
	want := runOnCopy(t, setup, func(ws *workspace.Workspace) error { return run(context.Background(), ws) })
	require.NoError(t, want.err)
	require.NotEqual(t, want.before, want.after, "the operation changes files")
	for n := int64(0); ; n++ {
		require.Less(t, n, int64(500))
		got := runOnCopy(t, setup, func(ws *workspace.Workspace) error { return run(newCountdown(n), ws) })
		if got.err == nil {
			require.Equal(t, want.after, got.after, "check %d: succeeded without the whole change", n)
			break
		}
		require.Equal(t, got.before, got.after, "check %d: failed (%v) but changed files", n, got.err)
	}
	for n := 0; ; n++ {
		require.Less(t, n, 500)
		got := runOnCopy(t, setup, func(ws *workspace.Workspace) error {
			reads := 0
			hooks.Read = func(string) error {
				if reads++; reads > n {
					return errors.New("injected read failure")
				}
				return nil
			}
			defer func() { hooks.Read = func(string) error { return nil } }()
			return run(context.Background(), ws)
		})
		if got.err == nil {
			require.Equal(t, want.after, got.after, "read %d: succeeded without the whole change", n)
			break
		}
		require.Equal(t, got.before, got.after, "read %d: failed (%v) but changed files", n, got.err)
	}
}

// finishList completes both tasks of faultList and puts the finished list
// back in coordinator/active.md, as a crash between the last completion's
// write and its archive leaves it.
func finishList(ws *workspace.Workspace) error {
	l := list(ws)
	if _, err := l.Complete(context.Background(), "led", coordinator.CompleteOptions{}); err != nil {
		return err
	}
	done, err := l.Complete(context.Background(), "followed", coordinator.CompleteOptions{})
	if err != nil {
		return err
	}
	data, err := os.ReadFile(filepath.Join(ws.Root(), filepath.FromSlash(done.ArchivedTo)))
	if err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(ws.Root(), filepath.FromSlash(done.ArchivedTo))); err != nil {
		return err
	}
	if err := os.RemoveAll(filepath.Join(ws.Root(), ".taskmd", "archives")); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(ws.Root(), "coordinator", "active.md"), data, 0o644)
}

// The operations that archive (Archive, Recover, and any operation that
// finds a finished list and archives it first): a failure between the copy
// and the removal of the list leaves things as they were.
func TestArchivingChangesAllOrNothing(t *testing.T) {
	t.Run("coordinator archive", func(t *testing.T) {
		requireAllOrNothing(t, nil, func(ctx context.Context, ws *workspace.Workspace) error {
			_, err := list(ws).Archive(ctx)
			return err
		})
	})
	t.Run("coordinator recover", func(t *testing.T) {
		requireAllOrNothing(t, finishList, func(ctx context.Context, ws *workspace.Workspace) error {
			return list(ws).Recover(ctx)
		})
	})
	t.Run("coordinator create on a finished list", func(t *testing.T) {
		requireAllOrNothing(t, finishList, func(ctx context.Context, ws *workspace.Workspace) error {
			_, err := list(ws).Create(ctx, taskdoc.NewTask{Title: "Again", Content: "- Status: pending\n- Main-Workflow: tdd"})
			return err
		})
	})
}
