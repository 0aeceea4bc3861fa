package taskflow_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/internal/hooks"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

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
func TestRetryEdgeFaultsOperationsNotCovered(t *testing.T) {
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
