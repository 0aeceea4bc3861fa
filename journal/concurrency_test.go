package journal_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/journal"
)

// Eight goroutines adding to one task at once, each through its own
// Journal and workspace: every entry is written once, the sequences are
// 1..n with no gap or repeat, and the file reads back whole.
func TestConcurrentAdd(t *testing.T) {
	const workers, each = 8, 5
	_, root := setup(t, nil)
	ctx := context.Background()
	var wg sync.WaitGroup
	seqs := make(chan int, workers*each)
	errs := make(chan error, workers*each)
	for w := range workers {
		j := journal.New(openWorkspace(t, root))
		wg.Go(func() {
			for i := range each {
				e, err := j.Add(ctx, task, journal.Entry{Agent: fmt.Sprintf("worker-%d", w), Type: journal.TypeProgress,
					Summary: fmt.Sprintf("step %d", i), Key: fmt.Sprintf("%d-%d", w, i)})
				if err != nil {
					errs <- err
					continue
				}
				seqs <- e.Sequence
			}
		})
	}
	wg.Wait()
	close(seqs)
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	seen := map[int]bool{}
	for s := range seqs {
		assert.False(t, seen[s], "sequence %d given twice", s)
		seen[s] = true
	}
	for s := 1; s <= workers*each; s++ {
		assert.True(t, seen[s], "sequence %d missing", s)
	}
	all, err := journal.New(openWorkspace(t, root)).List(ctx, task, journal.Query{})
	require.NoError(t, err)
	require.Len(t, all, workers*each)
	keys := map[string]bool{}
	for i, e := range all {
		assert.Equal(t, workers*each-i, e.Sequence)
		keys[e.Key] = true
	}
	assert.Len(t, keys, workers*each)
}
