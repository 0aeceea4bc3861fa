package journal_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/journal"
)

// allocated is the bytes fn allocates.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A List with a Limit parses only the newest entries: on a long journal
// it costs a fraction of listing everything, and returns the same first
// entries, also past a code fence holding lines like entry headings.
func TestListLimitReadsOnlyTheNewest(t *testing.T) {
	j, root := longJournal(t, 3000, 2000)
	ctx := context.Background()
	var err error
	var all, newest []journal.Entry
	whole := allocated(func() { all, err = j.List(ctx, benchTask, journal.Query{}) })
	require.NoError(t, err)
	require.Len(t, all, 3000)
	few := allocated(func() { newest, err = j.List(ctx, benchTask, journal.Query{Limit: 5}) })
	require.NoError(t, err)
	assert.Equal(t, all[:5], newest)
	t.Logf("List of 3,000 entries: %d bytes allocated; the newest 5: %d", whole, few)
	info, err := os.Stat(filepath.Join(root, benchJournal))
	require.NoError(t, err)
	assert.Less(t, few, uint64(info.Size())*5/2, "the newest 5 cost reading the file (twice its size), not a parse of all")

	since, err := j.List(ctx, benchTask, journal.Query{SinceSequence: 1990})
	require.NoError(t, err)
	assert.Equal(t, all[:1010], since, "through the fence")
	typed, err := j.List(ctx, benchTask, journal.Query{Limit: 7, Types: []journal.Type{all[0].Type}})
	require.NoError(t, err)
	var want []journal.Entry
	for _, e := range all {
		if e.Type == all[0].Type && len(want) < 7 {
			want = append(want, e)
		}
	}
	assert.Equal(t, want, typed)
}

// longJournal is a Journal over a workspace whose journal of benchTask
// holds n entries, as n Adds would write them, and before entry fenceAt a
// code fence holding a line like an entry heading.
func longJournal(t testing.TB, n, fenceAt int) (*journal.Journal, string) {
	j, root, _ := benchSetup(t, 2)
	path := filepath.Join(root, benchJournal)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	head, second, ok := strings.Cut(string(data), "## 2 ·")
	require.True(t, ok)
	first, _, _ := strings.Cut(head, "## 1 ·")
	var b strings.Builder
	b.WriteString(first)
	for i := 1; i <= n; i++ {
		if i == fenceAt {
			b.WriteString("```\n## 99999 · note · 2025-10-14T15:30:45Z\n\nNot an entry.\n```\n\n")
		}
		fmt.Fprintf(&b, "## %d ·%s", i, second)
	}
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	return j, root
}
