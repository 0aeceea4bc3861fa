package subagent_test

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/parsecount"
	"github.com/taskmd/taskmd/internal/testkit/benchsuite"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/subagent"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

var bg = context.Background()

// Create returns the tasks as they read in the file, whatever Markdown
// their titles hold: it reads back what it wrote instead of deriving slugs
// from the titles again.
func TestCreateTitlesWithMarkup(t *testing.T) {
	tests := []struct{ title, slug string }{
		{"Fix [bug](https://x.y/1)", "fix-bug"},
		{"a <b>b</b>", "a-b"},
		{"Step ###", "step"},
		{"Use &amp; entities", "use--entities"},
		{"  Lead", "lead"},
	}
	for _, tt := range tests {
		t.Run(tt.title, func(t *testing.T) {
			tasks, _ := setup(t, nil)
			created, err := tasks.Create(bg, "/api/auth.md", taskdoc.NewTask{Title: tt.title})
			require.NoError(t, err)
			require.Len(t, created, 1)
			assert.Equal(t, tt.slug, created[0].Slug)
			viewed, err := tasks.View(bg, "/api/auth.md", tt.slug)
			require.NoError(t, err)
			assert.Equal(t, created, viewed)
		})
	}
}

// The zero Option and a nil clock are ignored, as in package coordinator.
func TestNilOptionsIgnored(t *testing.T) {
	root := t.TempDir()
	filetest.WriteAll(t, root, map[string]string{"docs/a.md": "# A\n\n## Tasks\n\n### One\n"})
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	defer ws.Close()
	tasks := subagent.New(ws, subagent.Option{}, subagent.WithClock(nil))
	before := time.Now().UTC().Format(time.DateOnly)
	done, err := tasks.Complete(bg, "/a.md#one", "done")
	require.NoError(t, err)
	assert.Contains(t, []string{before, time.Now().UTC().Format(time.DateOnly)}, done.Date)
}

// A workflow that is a symbolic link is an error, as it is for the
// coordinator and for references, and the task stays as it was.
func TestSymlinkedWorkflowRefused(t *testing.T) {
	tasks, root := setup(t, map[string]string{
		"docs/a.md":         "# A\n\n## Tasks\n\n### One\n\n- Status: pending\n- Workflow: linked\n",
		"workflows/real.md": "# Real\n",
	})
	require.NoError(t, os.Symlink("real.md", filepath.Join(root, "workflows", "linked.md")))
	before := filetest.Snapshot(t, root)
	_, err := tasks.Start(bg, "/a.md#one")
	assert.Equal(t, taskdoc.CodeSymlink, taskdoc.CodeOf(err), "%v", err)
	assert.Equal(t, before, filetest.Snapshot(t, root))
}

// Start loads a task's context before it takes the document's lock: a load
// that fails returns at once, even while another holder keeps the document
// locked, and writes nothing.
func TestContextLoadedOutsideTheLock(t *testing.T) {
	tasks, root := setup(t, map[string]string{
		"docs/a.md":         "# A\n\n## Tasks\n\n### One\n\n- Status: pending\n\n@/real.md\n",
		"docs/elsewhere.md": "# Elsewhere\n",
	})
	require.NoError(t, os.Symlink("elsewhere.md", filepath.Join(root, "docs", "real.md")))
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	defer ws.Close()
	locked, release, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		done <- ws.Lock(bg, []string{"docs/a.md"}, func(*workspace.Tx) error {
			close(locked)
			<-release
			return nil
		})
	}()
	<-locked
	ctx, cancel := context.WithTimeout(bg, 30*time.Second)
	defer cancel()
	_, err = tasks.Start(ctx, "/a.md#one")
	close(release)
	require.NoError(t, <-done)
	assert.Equal(t, taskdoc.CodeSymlink, taskdoc.CodeOf(err), "%v", err)
	assert.Contains(t, filetest.Read(t, root, "docs/a.md"), "- Status: pending\n")
}

// Each operation parses the document once at most: the edit's own check
// reads the edited task, and the context loaded before the lock comes with
// a parse that is reused when the document did not change. With the
// workspace's document cache (the default), an operation on a document the
// workspace has read or written before parses nothing; a document changed
// outside it is parsed again.
func TestOneParsePerOperation(t *testing.T) {
	files := maps.Clone(benchsuite.Support)
	files["docs/plan.md"] = string(benchsuite.Plan(50))
	batch := []taskdoc.NewTask{{Title: "New one"}, {Title: "New two", Content: "- Status: pending\n\nBody."}}
	for _, cache := range []bool{false, true} {
		root := t.TempDir()
		filetest.WriteAll(t, root, files)
		var opts []workspace.Option
		if !cache {
			opts = append(opts, workspace.WithDocumentCache(0))
		}
		ws, err := workspace.Open(root, opts...)
		require.NoError(t, err)
		defer ws.Close()
		tasks := subagent.New(ws, subagent.WithClock(clock))
		ops := []struct {
			name      string
			op        func() error
			cold, hot int64 // full parses without and with the cache
		}{
			{"create", func() error { _, err := tasks.Create(bg, "/plan.md", batch...); return err }, 1, 1},
			// Start also parses the one referenced document.
			{"start", func() error { _, err := tasks.Start(bg, "/plan.md#implement-step-3"); return err }, 2, 1},
			{"resume", func() error { _, err := tasks.Start(bg, "/plan.md#implement-step-3"); return err }, 2, 0},
			{"complete", func() error { _, err := tasks.Complete(bg, "/plan.md#implement-step-3", "done"); return err }, 1, 0},
			{"edit", func() error {
				_, err := tasks.Edit(bg, "/plan.md#implement-step-4", taskdoc.Edit{Content: "- Status: blocked\n\nWaiting."})
				return err
			}, 1, 0},
			{"changed outside", func() error {
				p := filepath.Join(root, "docs", "plan.md")
				data, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				if err := os.WriteFile(p, append(data, "\nA line a person added.\n"...), 0o644); err != nil {
					return err
				}
				_, err = tasks.Complete(bg, "/plan.md#implement-step-5", "done")
				return err
			}, 1, 1},
		}
		for _, op := range ops {
			var err error
			docs, _ := parsecount.During(func() { err = op.op() })
			require.NoError(t, err, op.name)
			want := op.cold
			if cache {
				want = op.hot
			}
			assert.Equal(t, want, docs, "%s (cache %v): full parses", op.name, cache)
		}
	}
}

// A Complete sent again with the same note after its answer was lost gets
// that answer back, and writes nothing; another note is still refused.
func TestCompleteRetryReplays(t *testing.T) {
	tasks, root := setup(t, map[string]string{"docs/a.md": "# A\n\n## Tasks\n\n### One\n\n- Status: in_progress\n"})
	done, err := tasks.Complete(bg, "/a.md#one", "Signed\nwith RS256.")
	require.NoError(t, err)
	assert.False(t, done.Replayed)
	before := filetest.Snapshot(t, root)
	again, err := tasks.Complete(bg, "/a.md#one", "Signed with  RS256.")
	require.NoError(t, err)
	assert.True(t, again.Replayed)
	assert.Equal(t, done.Task, again.Task)
	assert.Equal(t, done.Note, again.Note)
	assert.Equal(t, before, filetest.Snapshot(t, root))
	_, err = tasks.Complete(bg, "/a.md#one", "another note")
	assert.ErrorIs(t, err, taskdoc.ErrInvalidTransition)
}

// A writer holding content read before a completion cannot undo it: an
// edit that would reopen the task, or drop its note, must say Reopen.
func TestStaleEditCannotUndoACompletion(t *testing.T) {
	tasks, root := setup(t, map[string]string{"docs/a.md": "# A\n\n## Tasks\n\n### One\n\n- Status: pending\n\nDo it.\n"})
	stale, err := tasks.View(bg, "/a.md", "one")
	require.NoError(t, err)
	_, err = tasks.Complete(bg, "/a.md#one", "done")
	require.NoError(t, err)
	before := filetest.Snapshot(t, root)
	_, err = tasks.Edit(bg, "/a.md#one", taskdoc.Edit{Content: stale[0].Content() + "\n\nMore."})
	assert.ErrorIs(t, err, taskdoc.ErrInvalidTransition)
	assert.Equal(t, before, filetest.Snapshot(t, root))
	reopened, err := tasks.Edit(bg, "/a.md#one", taskdoc.Edit{Content: stale[0].Content(), Reopen: true})
	require.NoError(t, err)
	assert.Equal(t, taskdoc.StatusPending, reopened.Status)
}

// An edit that carries the version of the task it read is refused with
// CONFLICT once someone changed that task, and not when only another task
// of the file changed.
func TestEditIfVersion(t *testing.T) {
	tasks, root := setup(t, map[string]string{"docs/a.md": "# A\n\n## Tasks\n\n### One\n\n- Status: pending\n\n### Two\n\n- Status: pending\n"})
	read, err := tasks.View(bg, "/a.md")
	require.NoError(t, err)
	one, two := read[0].Version, read[1].Version
	require.NotEqual(t, one, two)
	_, err = tasks.Edit(bg, "/a.md#two", taskdoc.Edit{Content: "- Status: blocked"})
	require.NoError(t, err)
	_, err = tasks.Edit(bg, "/a.md#one", taskdoc.Edit{Content: "- Status: blocked\n\nMine.", IfVersion: one})
	require.NoError(t, err, "another task's change is no conflict")
	before := filetest.Snapshot(t, root)
	_, err = tasks.Edit(bg, "/a.md#two", taskdoc.Edit{Content: "- Status: pending\n\nStale.", IfVersion: two})
	assert.ErrorIs(t, err, taskdoc.ErrConflict)
	assert.Equal(t, before, filetest.Snapshot(t, root))
}

// An agent reports where its task stands; a failure keeps its error text,
// and a move the status machine does not list writes nothing.
func TestUpdateStatus(t *testing.T) {
	tasks, root := setup(t, map[string]string{"docs/a.md": "# A\n\n## Tasks\n\n### One\n\n- Status: pending\n"})
	task, err := tasks.SetStatus(bg, "/a.md#one", taskdoc.StatusPlanning, "")
	require.NoError(t, err)
	assert.Equal(t, taskdoc.StatusPlanning, task.Status)
	task, err = tasks.SetStatus(bg, "/a.md#one", taskdoc.StatusFailed, "no access to the vault")
	require.NoError(t, err)
	assert.Equal(t, taskdoc.StatusFailed, task.Status)
	assert.Contains(t, filetest.Read(t, root, "docs/a.md"), "- Status: failed\n- Error: no access to the vault\n")
	before := filetest.Snapshot(t, root)
	_, err = tasks.SetStatus(bg, "/a.md#one", taskdoc.StatusPaused, "")
	assert.ErrorIs(t, err, taskdoc.ErrInvalidTransition)
	assert.Equal(t, before, filetest.Snapshot(t, root))
	_, err = tasks.Start(bg, "/a.md#one")
	assert.ErrorIs(t, err, taskdoc.ErrInvalidTransition, "a failed task is moved back to pending or in progress first")
}
