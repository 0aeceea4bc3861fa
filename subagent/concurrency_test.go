package subagent_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/subagent"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// manyTasks is a document with n pending tasks "Task 0" .. "Task n-1",
// between prose sections that must survive every write.
func manyTasks(n int) string {
	var b strings.Builder
	b.WriteString("---\nowner: team\n---\n# Load\n\nIntro.\n\n## Tasks\n\n")
	for i := range n {
		fmt.Fprintf(&b, "### Task %d\n\n- Status: pending\n\nWork item %d.\n\n", i, i)
	}
	b.WriteString("## Afterword\n\nKept as is.\n")
	return b.String()
}

// checkAllCompletedOnce parses the document and checks that every task is
// completed with exactly one Completed and one Note field, and that the
// note is the one its worker wrote.
func checkAllCompletedOnce(t *testing.T, src string, n int, notes map[int]string) {
	t.Helper()
	doc, err := taskdoc.Parse([]byte(src))
	require.NoError(t, err)
	require.Len(t, doc.Tasks, n)
	for i, task := range doc.Tasks {
		assert.Equal(t, fmt.Sprintf("task-%d", i), task.Slug)
		assert.Equal(t, taskdoc.StatusCompleted, task.Status, task.Slug)
		counts := map[string]int{}
		for _, f := range task.Fields {
			counts[strings.ToLower(f.Key)]++
		}
		assert.Equal(t, map[string]int{"status": 1, "completed": 1, "note": 1}, counts, task.Slug)
		if want, ok := notes[i]; ok {
			note, _ := task.Field("Note")
			assert.Equal(t, want, note, task.Slug)
		}
	}
	assert.True(t, strings.HasPrefix(src, "---\nowner: team\n---\n# Load\n\nIntro.\n\n## Tasks\n\n"))
	assert.True(t, strings.HasSuffix(src, "## Afterword\n\nKept as is.\n"))
}

func TestConcurrentGoroutines(t *testing.T) {
	const workers, perWorker = 8, 4
	const n = workers * perWorker
	tasks, root := setup(t, map[string]string{"docs/load.md": manyTasks(n)})
	ctx := context.Background()

	notes := map[int]string{}
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for w := range workers {
		for k := range perWorker {
			notes[w+k*workers] = fmt.Sprintf("worker %d item %d", w, k)
		}
		wg.Go(func() {
			for k := range perWorker {
				i := w + k*workers // interleaved, so neighbours race
				address := fmt.Sprintf("/load.md#task-%d", i)
				if _, err := tasks.Start(ctx, address); err != nil {
					errs <- err
					return
				}
				if _, err := tasks.Complete(ctx, address, fmt.Sprintf("worker %d item %d", w, k)); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	checkAllCompletedOnce(t, filetest.Read(t, root, "docs/load.md"), n, notes)
}

// Many goroutines completing the same task: exactly one wins, the others
// are told it is completed already.
func TestConcurrentCompleteOfOneTask(t *testing.T) {
	tasks, root := setup(t, map[string]string{"docs/load.md": manyTasks(3)})
	ctx := context.Background()
	var wg sync.WaitGroup
	results := make(chan error, 8)
	for w := range 8 {
		wg.Go(func() {
			_, err := tasks.Complete(ctx, "/load.md#task-1", fmt.Sprintf("worker %d", w))
			results <- err
		})
	}
	wg.Wait()
	close(results)
	won := 0
	for err := range results {
		if err == nil {
			won++
			continue
		}
		assert.ErrorIs(t, err, taskdoc.ErrInvalidTransition)
	}
	assert.Equal(t, 1, won)
	doc, err := taskdoc.Parse([]byte(filetest.Read(t, root, "docs/load.md")))
	require.NoError(t, err)
	assert.Equal(t, 1, strings.Count(doc.Tasks[1].Content(), "Note:"))
}

// childEnv makes the test binary act as one worker process of
// TestConcurrentProcesses: "root;first;step;count".
const childEnv = "TASKMD_SUBAGENT_TEST_WORKER"

func TestConcurrentProcesses(t *testing.T) {
	if os.Getenv(childEnv) != "" {
		t.Skip("worker process")
	}
	const procs, perProc = 3, 8
	const n = procs * perProc
	root := t.TempDir()
	filetest.WriteAll(t, root, map[string]string{"docs/load.md": manyTasks(n)})

	cmds := make([]*exec.Cmd, procs)
	outputs := make([]strings.Builder, procs)
	for p := range procs {
		cmd := exec.Command(os.Args[0], "-test.run=^TestProcessWorker$", "-test.count=1")
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s;%d;%d;%d", childEnv, root, p, procs, perProc))
		cmd.Stdout, cmd.Stderr = &outputs[p], &outputs[p]
		require.NoError(t, cmd.Start())
		cmds[p] = cmd
	}
	for p, cmd := range cmds {
		assert.NoError(t, cmd.Wait(), "worker %d:\n%s", p, outputs[p].String())
	}
	notes := map[int]string{}
	for i := range n {
		notes[i] = fmt.Sprintf("process %d item %d", i%procs, i/procs)
	}
	checkAllCompletedOnce(t, filetest.Read(t, root, "docs/load.md"), n, notes)
}

// TestProcessWorker is the body of one worker process; run directly it
// does nothing.
func TestProcessWorker(t *testing.T) {
	spec := os.Getenv(childEnv)
	if spec == "" {
		t.Skip("only run as a worker of TestConcurrentProcesses")
	}
	parts := strings.Split(spec, ";")
	require.Len(t, parts, 4)
	first, _ := strconv.Atoi(parts[1])
	step, _ := strconv.Atoi(parts[2])
	count, _ := strconv.Atoi(parts[3])
	ws, err := workspace.Open(parts[0])
	require.NoError(t, err)
	defer ws.Close()
	tasks := subagent.New(ws)
	ctx := context.Background()
	for k := range count {
		i := first + k*step
		address := fmt.Sprintf("/load.md#task-%d", i)
		_, err := tasks.Start(ctx, address)
		require.NoError(t, err)
		_, err = tasks.Complete(ctx, address, fmt.Sprintf("process %d item %d", first, k))
		require.NoError(t, err)
	}
}
