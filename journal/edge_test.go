package journal_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

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

// A retried Add (same Key, same entry) whose first call was recorded
// returns the recorded entry, even when the task has since left its plan
// (completed and archived, renamed): the journal still holds the entry and
// List still reads it.
func TestKeyReplayAfterTaskLeftPlan(t *testing.T) {
	j, root := setup(t, nil)
	ctx := context.Background()
	entry := journal.Entry{Agent: "w", Type: journal.TypeComplete, Summary: "done", Key: "req-9"}
	first, err := j.Add(ctx, task, entry)
	require.NoError(t, err)
	filetest.WriteAll(t, root, map[string]string{"docs/api/auth.md": strings.Replace(planDoc, "### Implement JWT signing", "### Implement JWT signing v2", 1)})
	listed, err := j.List(ctx, task, journal.Query{})
	require.NoError(t, err)
	require.Len(t, listed, 1)
	again, err := j.Add(ctx, task, entry)
	require.NoError(t, err, "a true retry must return the recorded entry")
	assert.Equal(t, first, again)
}

// A hand-edited journal whose last sequence is the largest int: Add refuses
// and writes nothing, instead of a sequence the journal cannot read back.
func TestSequenceOverflowWritesUnreadableJournal(t *testing.T) {
	file := "# Checkpoints: " + task + "\n\n## " + strconv.Itoa(math.MaxInt) + " · plan · 2026-11-23T10:00:00Z\n\nbig\n"
	j, root := setup(t, map[string]string{journalFile: file})
	ctx := context.Background()
	_, err := j.Add(ctx, task, journal.Entry{Type: journal.TypePlan, Summary: "next"})
	if err == nil {
		_, lerr := j.List(ctx, task, journal.Query{})
		require.NoError(t, lerr, "Add wrote a file that List cannot read:\n%s", filetest.Read(t, root, journalFile))
	}
	assert.Equal(t, file, filetest.Read(t, root, journalFile))
}

// A clock past year 9999: Add refuses a time RFC 3339 cannot hold, and
// writes nothing.
func TestClockBeyond9999WritesUnreadableJournal(t *testing.T) {
	_, root := setup(t, nil)
	j := journal.New(openWorkspace(t, root), journal.WithClock(func() time.Time {
		return time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	}))
	ctx := context.Background()
	_, err := j.Add(ctx, task, journal.Entry{Type: journal.TypePlan, Summary: "s"})
	if err == nil {
		_, lerr := j.List(ctx, task, journal.Query{})
		require.NoError(t, lerr, "Add wrote a file that List cannot read:\n%s", filetest.Read(t, root, journalFile))
	}
}

// A journal with LF endings whose last line ends with a lone CR: the new
// section still comes after a blank line, in the file's own line endings,
// not fused into a CRLF.
func TestAppendAfterLoneCR(t *testing.T) {
	file := "# Checkpoints: " + task + "\n\nnote\r"
	j, root := setup(t, map[string]string{journalFile: file})
	_, err := j.Add(context.Background(), task, journal.Entry{Type: journal.TypePlan, Summary: "s"})
	require.NoError(t, err)
	got := filetest.Read(t, root, journalFile)
	require.True(t, strings.HasPrefix(got, file))
	i := strings.Index(got, "## 1 ")
	require.Greater(t, i, 0)
	// Lines between "note" and the heading, split as the package splits them.
	between := strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(got[len(file)-1 : i])
	assert.GreaterOrEqual(t, strings.Count(between, "\n"), 2, "no blank line before the appended heading: %q", got)
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
