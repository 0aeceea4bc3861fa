package main

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/taskdoc"
)

// pendingDocument is a document with n pending tasks, "Task 0" .. "Task n-1".
func pendingDocument(n int) string {
	var b strings.Builder
	b.WriteString("# Load\n\nA document with many tasks.\n\n## Tasks\n")
	for i := range n {
		fmt.Fprintf(&b, "\n### Task %d\n\n- Status: pending\n\nDo thing %d.\n", i, i)
	}
	return b.String()
}

// Two server processes on one workspace, each with its own client driven by
// two goroutines, race to complete every task of one document, each worker
// starting at a different task. Each task must be completed exactly once
// (the losers get INVALID_TRANSITION) and every completion must be on disk:
// no update is lost.
func TestTwoServersCompleteOneDocument(t *testing.T) {
	const tasks, workers = 24, 4
	root := newRoot(t, map[string]string{"docs/load.md": pendingDocument(tasks)})
	servers := []*client{startServer(t, root), startServer(t, root)}

	won := make([][]string, workers) // slugs each worker completed
	var wg sync.WaitGroup
	for w := range workers {
		c := servers[w%len(servers)]
		wg.Go(func() {
			for k := range tasks {
				slug := fmt.Sprintf("task-%d", (w*tasks/workers+k)%tasks)
				res, err := c.tryCall("complete_subagent_task", map[string]any{
					"document": "/load.md#" + slug,
					"note":     fmt.Sprintf("done by worker %d", w),
				})
				if !assert.NoError(t, err) {
					return
				}
				if !res.IsError {
					won[w] = append(won[w], slug)
					continue
				}
				assert.True(t, strings.HasPrefix(text(res), "INVALID_TRANSITION: "), "task %s: %s", slug, text(res))
			}
		})
	}
	wg.Wait()

	winners := map[string]int{}
	for w, slugs := range won {
		for _, slug := range slugs {
			_, twice := winners[slug]
			assert.False(t, twice, "%s completed twice", slug)
			winners[slug] = w
		}
	}
	assert.Len(t, winners, tasks)
	doc, err := taskdoc.Parse([]byte(filetest.Read(t, root, "docs/load.md")))
	require.NoError(t, err)
	require.Len(t, doc.Tasks, tasks)
	for _, task := range doc.Tasks {
		assert.Equal(t, taskdoc.StatusCompleted, task.Status, task.Slug)
		assertField(t, task, "Note", fmt.Sprintf("done by worker %d", winners[task.Slug]))
		notes := 0
		for _, f := range task.Fields {
			if strings.EqualFold(f.Key, "Note") {
				notes++
			}
		}
		assert.Equal(t, 1, notes, "task %s has %d notes", task.Slug, notes)
	}
}
