package journal_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/journal"
	"github.com/taskmd/taskmd/taskdoc"
)

const edgeDoc = "# D\n\n## Tasks\n\n### Do it\n\n- Status: pending\n"

// A document named "..md" (or "a/..md") is an ordinary docs/ document; its
// tasks must have journals like any other (the package doc: only an address
// without a slug, or in /coordinator/ or /archived/, is refused).
func TestDotDotDocumentHasJournal(t *testing.T) {
	for _, doc := range []string{"/..md", "/a/..md"} {
		t.Run(doc, func(t *testing.T) {
			j, _ := setup(t, map[string]string{"docs" + doc: edgeDoc})
			ctx := context.Background()
			addr := doc + "#do-it"
			_, err := j.List(ctx, addr, journal.Query{})
			require.NoError(t, err, "List")
			e, err := j.Add(ctx, addr, journal.Entry{Type: journal.TypePlan, Summary: "s"})
			require.NoError(t, err, "Add")
			assert.Equal(t, 1, e.Sequence)
		})
	}
}

// "/api/auth.md#x" and "/api/auth/x.md.md#y" are both valid docs/ tasks,
// and each gets its own journal: the journal folder keeps the document's
// ".md", so a document's folder and another's journal never meet.
func TestJournalPathsCollide(t *testing.T) {
	j, _ := setup(t, map[string]string{
		"docs/api/auth.md":      "# A\n\n## Tasks\n\n### X\n\n- Status: pending\n",
		"docs/api/auth/x.md.md": edgeDoc,
	})
	ctx := context.Background()
	_, err := j.Add(ctx, "/api/auth.md#x", journal.Entry{Type: journal.TypePlan, Summary: "one"})
	require.NoError(t, err)
	_, err = j.Add(ctx, "/api/auth/x.md.md#do-it", journal.Entry{Type: journal.TypePlan, Summary: "two"})
	require.NoError(t, err)
}

// Every slug over 160 bytes is hashed into a 177-byte name, a length no
// slug kept as it is has: a 177-byte slug that is literally a hashed name
// is a different task with its own journal.
func TestLongSlugJournalCollides(t *testing.T) {
	long := strings.Repeat("a", 250)
	sum := sha256.Sum256([]byte(long))
	short := long[:160] + "-" + hex.EncodeToString(sum[:8])
	require.Equal(t, long, taskdoc.Slug(long))
	require.Equal(t, short, taskdoc.Slug(short))
	j, _ := setup(t, map[string]string{"docs/api/auth.md": "## Tasks\n\n### " + long + "\n\n### " + short + "\n"})
	ctx := context.Background()
	_, err := j.Add(ctx, "/api/auth.md#"+long, journal.Entry{Type: journal.TypePlan, Summary: "for the long task"})
	require.NoError(t, err)
	got, err := j.List(ctx, "/api/auth.md#"+short, journal.Query{})
	require.NoError(t, err)
	assert.Empty(t, got, "the other task's entry is listed as this task's")
}

// A title longer than a file name takes gives a journal named by a hash.
func TestLongSlug(t *testing.T) {
	title := strings.TrimSpace(strings.Repeat("Überlang ", 40))
	j, root := setup(t, map[string]string{"docs/api/auth.md": "## Tasks\n\n### " + title + "\n"})
	address := "/api/auth.md#" + taskdoc.Slug(title)
	_, err := j.Add(context.Background(), address, journal.Entry{Type: journal.TypePlan, Summary: "s"})
	require.NoError(t, err)
	got, err := j.List(context.Background(), address, journal.Query{})
	require.NoError(t, err)
	assert.Len(t, got, 1)
	var names []string
	for name := range filetest.Snapshot(t, root) {
		if strings.HasPrefix(name, "checkpoints/") {
			names = append(names, name)
		}
	}
	require.Len(t, names, 1)
	base := strings.TrimPrefix(names[0], "checkpoints/tasks/api/auth.md/")
	assert.LessOrEqual(t, len(base), 255)
	assert.Regexp(t, `^(überlang-){16}-[0-9a-f]{16}\.md$`, base)
}
