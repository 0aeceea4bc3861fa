package workspace

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/parsecount"
	"github.com/taskmd/taskmd/taskdoc"
)

// parses counts the full parses fn makes.
func parses(fn func()) int64 {
	docs, _ := parsecount.During(fn)
	return docs
}

func planSource(n int, word string) []byte {
	var b strings.Builder
	b.WriteString("# Plan\n\n## Tasks\n")
	for i := range n {
		fmt.Fprintf(&b, "\n### Task %d\n- Status: pending\n\n%s %d.\n", i, word, i)
	}
	return []byte(b.String())
}

func openCache(t *testing.T, opts ...Option) *Workspace {
	t.Helper()
	ws, err := Open(t.TempDir(), opts...)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	return ws
}

func TestParseKeepsTheParseOfTheSameBytes(t *testing.T) {
	ws := openCache(t)
	src := planSource(20, "Do")
	var first, second *taskdoc.Document
	assert.Equal(t, int64(1), parses(func() { first, _ = ws.Parse("docs/a.md", src) }))
	copied := append([]byte(nil), src...) // equal bytes read again
	assert.Zero(t, parses(func() { second, _ = ws.Parse("docs/a.md", copied) }))
	assert.Same(t, first, second)

	// One byte changed, same length: never the old parse. The change is
	// inside the last task: only that task is parsed again.
	changed := append([]byte(nil), src...)
	changed[len(changed)-3] = 'X'
	var third *taskdoc.Document
	assert.Zero(t, parses(func() { third, _ = ws.Parse("docs/a.md", changed) }))
	assert.Equal(t, changed, third.Source)
	fresh, err := taskdoc.Parse(changed)
	require.NoError(t, err)
	assert.Equal(t, fresh, third)

	// A change outside the tasks (the title): parsed in full.
	retitled := append([]byte("# Plan, again"), changed[len("# Plan"):]...)
	var fourth *taskdoc.Document
	assert.Equal(t, int64(1), parses(func() { fourth, _ = ws.Parse("docs/a.md", retitled) }))
	assert.Equal(t, "Plan, again", fourth.Title())

	// Another file with the same bytes has a parse of its own.
	assert.Equal(t, int64(1), parses(func() { _, _ = ws.Parse("docs/b.md", src) }))
}

func TestParseErrorIsNotKept(t *testing.T) {
	ws := openCache(t)
	bad := []byte("# A\n\xff\n")
	for range 2 {
		_, err := ws.Parse("docs/a.md", bad)
		assert.Equal(t, taskdoc.CodeInvalidUTF8, taskdoc.CodeOf(err))
	}
	docs, _ := ws.cache.stats()
	assert.Zero(t, docs)
}

func TestRememberAnEdit(t *testing.T) {
	ws := openCache(t)
	doc, err := ws.Parse("docs/a.md", planSource(10, "Do"))
	require.NoError(t, err)
	nd, _, err := doc.SetStatus("task-3", taskdoc.StatusInProgress)
	require.NoError(t, err)
	ws.remember("docs/a.md", nd)
	var got *taskdoc.Document
	assert.Zero(t, parses(func() { got, _ = ws.Parse("docs/a.md", append([]byte(nil), nd.Source...)) }))
	assert.Same(t, nd, got)
	// The remembered edit is what a parse of its bytes gives.
	fresh, err := taskdoc.Parse(nd.Source)
	require.NoError(t, err)
	assert.Equal(t, fresh.Tasks, got.Tasks)
	// The old bytes are parsed again (one parse per name is kept): as a
	// change of one task, from the edit.
	var back *taskdoc.Document
	assert.Zero(t, parses(func() { back, _ = ws.Parse("docs/a.md", doc.Source) }))
	assert.Equal(t, doc, back)
}

func TestCacheIsBounded(t *testing.T) {
	src := planSource(3, "Do")
	limit := int64(len(src)) * 4 // four documents
	ws := openCache(t, WithDocumentCache(limit))
	for i := range 10 {
		_, err := ws.Parse(fmt.Sprintf("docs/%d.md", i), src)
		require.NoError(t, err)
		// docs/0.md is used again each time: it stays.
		_, err = ws.Parse("docs/0.md", src)
		require.NoError(t, err)
		docs, size := ws.cache.stats()
		assert.LessOrEqual(t, size, limit)
		assert.LessOrEqual(t, docs, 4)
	}
	assert.Zero(t, parses(func() { _, _ = ws.Parse("docs/0.md", src) }), "the most recently used stays")
	assert.Zero(t, parses(func() { _, _ = ws.Parse("docs/9.md", src) }))
	assert.Equal(t, int64(1), parses(func() { _, _ = ws.Parse("docs/1.md", src) }), "the least recently used went")

	// A document larger than a quarter of the limit is not kept.
	big := planSource(40, "Do")
	assert.Equal(t, int64(2), parses(func() {
		_, _ = ws.Parse("docs/big.md", big)
		_, _ = ws.Parse("docs/big.md", big)
	}))
}

func TestCacheOff(t *testing.T) {
	ws := openCache(t, WithDocumentCache(0))
	src := planSource(3, "Do")
	assert.Equal(t, int64(2), parses(func() {
		_, _ = ws.Parse("docs/a.md", src)
		_, _ = ws.Parse("docs/a.md", src)
	}))
	docs, _ := ws.cache.stats()
	assert.Zero(t, docs)
}

// TestCacheConcurrent: goroutines parse and remember versions of a few
// files at once; every answer is the parse of exactly the bytes asked
// about (run with -race).
func TestCacheConcurrent(t *testing.T) {
	ws := openCache(t, WithDocumentCache(int64(len(planSource(5, "Version 0")))*8))
	versions := make([][]byte, 4)
	for i := range versions {
		versions[i] = planSource(5, fmt.Sprintf("Version %d", i))
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				name := fmt.Sprintf("docs/%d.md", (g+i)%3)
				src := versions[(g*7+i)%len(versions)]
				doc, err := ws.Parse(name, src)
				if !assert.NoError(t, err) || !assert.Equal(t, src, doc.Source) {
					return
				}
				if i%5 == 0 {
					nd, _, err := doc.SetStatus("task-1", taskdoc.StatusInProgress)
					if assert.NoError(t, err) {
						ws.remember(name, nd)
					}
				}
			}
		})
	}
	wg.Wait()
}
