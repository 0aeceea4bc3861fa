package gitsync_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/gitsync"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/taskdoc"
)

// TestPacedCallsGiveUp: a machine racing three others paces its batch;
// callers give up during the pause. Those that gave up end with CONFLICT
// and change nothing (no commit, no change record, a person's edit in its
// file); the others are shared; the next call on the clone works.
func TestPacedCallsGiveUp(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: seconds of pauses")
	}
	for _, keep := range []int{0, 1} {
		t.Run(fmt.Sprintf("%d kept", keep), func(t *testing.T) {
			remote, a, others := racingMachines(t)
			gitsync.BeforePush(a.sync, func() { time.Sleep(1100 * time.Millisecond) })
			// a races: its next batch paces (up to 3 cycles of 1 s).
			claimOK(t, others[0], "/plan.md#task-8")
			claimOK(t, a, "/plan.md#task-1")
			claimOK(t, others[0], "/plan.md#task-7")
			const edit = "# Notes\n\nA person's note.\n"
			filetest.Write(t, a.dir, "notes.md", edit)
			before := remoteFile(t, remote, doc)

			errs := make([]error, 3)
			var wg sync.WaitGroup
			for i := range 3 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					cctx := ctx
					if i >= keep {
						var cancel context.CancelFunc
						cctx, cancel = context.WithTimeout(ctx, 100*time.Millisecond)
						defer cancel()
					}
					start := time.Now()
					_, errs[i] = a.sync.Claim(cctx, fmt.Sprintf("/plan.md#task-%d", 2+i), a.agent)
					if i >= keep {
						assert.Less(t, time.Since(start), 600*time.Millisecond, "call %d answered at once", i)
					}
				}()
			}
			wg.Wait()
			for i := range 3 {
				if i < keep {
					require.NoError(t, errs[i])
					continue
				}
				assert.Equal(t, taskdoc.CodeConflict, taskdoc.CodeOf(errs[i]), "call %d: %v", i, errs[i])
			}
			got := remoteFile(t, remote, doc)
			for i := range 3 {
				want := ""
				if i < keep {
					want = a.agent
				}
				assert.Equal(t, want, assigneeIn(t, got, fmt.Sprintf("task-%d", 2+i)), "task-%d", 2+i)
			}
			if keep == 0 {
				// Wait until the batch is over (the clone's lock free).
				require.Eventually(t, func() bool {
					_, err := a.sync.NextTasks(ctx, "/plan.md", a.agent)
					return err == nil
				}, 10*time.Second, 10*time.Millisecond)
				assert.Equal(t, before, remoteFile(t, remote, doc))
				assert.Equal(t, run(t, remote, "rev-parse", "main"), run(t, a.dir, "rev-parse", "HEAD"), "nothing committed")
			}
			_, err := os.Stat(filepath.Join(a.dir, ".taskmd", "gitsync", "change"))
			assert.True(t, os.IsNotExist(err), "the change record: %v", err)
			assert.Equal(t, edit, filetest.Read(t, a.dir, "notes.md"))
			assert.Empty(t, run(t, a.dir, "stash", "list"))

			// The next call works.
			claimOK(t, a, "/plan.md#task-6")
			assert.Equal(t, a.agent, assigneeIn(t, remoteFile(t, remote, doc), "task-6"))
			assert.Equal(t, edit, filetest.Read(t, a.dir, "notes.md"))
		})
	}
}
