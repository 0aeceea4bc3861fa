package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/taskmd/taskmd/taskdoc"
)

// counterDoc renders a task document with one task per worker, each with a
// Count field: the states every update in the concurrency tests produces.
// pad adds body text so that writes are not trivially small.
func counterDoc(counts []int, pad int) []byte {
	var b bytes.Buffer
	b.WriteString("# Counters\n\n## Tasks\n")
	for i, n := range counts {
		fmt.Fprintf(&b, "\n### Worker %d\n\n- Status: pending\n- Count: %d\n", i, n)
		if pad > 0 {
			b.WriteString("\n")
			b.WriteString(strings.Repeat("Lorem ipsum dolor sit amet, consectetur.\n", pad/41+1))
		}
	}
	return b.Bytes()
}

// readCounts is the inverse of counterDoc: it fails unless data is exactly
// counterDoc(counts, pad) for some counts.
func readCounts(data []byte, workers, pad int) ([]int, error) {
	counts := make([]int, workers)
	rest := string(data)
	for i := range workers {
		marker := fmt.Sprintf("### Worker %d\n\n- Status: pending\n- Count: ", i)
		at := strings.Index(rest, marker)
		if at < 0 {
			return nil, fmt.Errorf("worker %d: no count", i)
		}
		rest = rest[at+len(marker):]
		end := strings.IndexByte(rest, '\n')
		if end < 0 {
			return nil, fmt.Errorf("worker %d: unterminated count", i)
		}
		n, err := strconv.Atoi(rest[:end])
		if err != nil {
			return nil, fmt.Errorf("worker %d: %w", i, err)
		}
		counts[i] = n
	}
	if want := counterDoc(counts, pad); !bytes.Equal(data, want) {
		return nil, fmt.Errorf("document is not a state any update produced (%d bytes, want %d)", len(data), len(want))
	}
	return counts, nil
}

// newWorkspace opens a workspace on a fresh directory and closes it after
// the test.
func newWorkspace(t testing.TB, opts ...Option) (*Workspace, string) {
	t.Helper()
	dir := t.TempDir()
	ws, err := Open(dir, opts...)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	return ws, dir
}

// writeFile writes a file below dir directly, for test setup.
func writeFile(t testing.TB, dir, name string, data []byte) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, data, 0o644))
}

// tempFiles lists our temporary files anywhere below dir.
func tempFiles(t testing.TB, dir string) []string {
	t.Helper()
	var found []string
	require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && isTemp(d.Name()) {
			found = append(found, p)
		}
		return err
	}))
	return found
}

// setCount returns an update function that adds one to worker i's Count
// field through taskdoc: parse, read the field, edit that one field.
func setCount(i int) func([]byte, bool) ([]byte, error) {
	return func(cur []byte, exists bool) ([]byte, error) {
		if !exists {
			return nil, errors.New("the document must exist")
		}
		doc, err := taskdoc.Parse(cur)
		if err != nil {
			return nil, err
		}
		slug := fmt.Sprintf("worker-%d", i)
		task, err := doc.Task(slug)
		if err != nil {
			return nil, err
		}
		value, _ := task.Field("Count")
		n, err := strconv.Atoi(value)
		if err != nil {
			return nil, err
		}
		nd, _, err := doc.SetField(slug, "Count", strconv.Itoa(n+1))
		if err != nil {
			return nil, err
		}
		return nd.Source, nil
	}
}

// taskCounts reads every worker's Count field through taskdoc.
func taskCounts(data []byte, workers int) ([]int, error) {
	doc, err := taskdoc.Parse(data)
	if err != nil {
		return nil, err
	}
	if len(doc.Tasks) != workers {
		return nil, fmt.Errorf("%d tasks, want %d", len(doc.Tasks), workers)
	}
	counts := make([]int, workers)
	for i, task := range doc.Tasks {
		value, _ := task.Field("Count")
		if counts[i], err = strconv.Atoi(value); err != nil {
			return nil, fmt.Errorf("task %s: %w", task.Slug, err)
		}
	}
	return counts, nil
}
