package checkpoint_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/checkpoint"
)

// The golden files of testdata/ are written by hand, never by the
// code under test: each .golden is the document Render must write for a
// value (or for what an input reads as), byte for byte.

// pivotedCheckpoint is the pivot protocol's example checkpoint, with the machine
// fields of a graceful pivot: testdata/pivoted.golden.
var pivotedCheckpoint = checkpoint.Checkpoint{
	Worker:       "worker-1",
	Task:         "/api/users.md#add-rate-limiting",
	Status:       checkpoint.StatusPartial,
	Phase:        "pivoted",
	PivotMode:    checkpoint.PivotGraceful,
	PivotReason:  "Auth bug is blocking",
	Time:         time.Date(2026, 1, 18, 10, 15, 23, 0, time.UTC),
	Sequence:     3,
	OriginalTask: "Add rate limiting to /api/users endpoint",
	Completed: []string{"Created `src/middleware/rateLimit.ts`", "Added Redis client connection",
		"Basic rate limiter implementation"},
	InProgress: []string{"Integration with routes (50% done - /users has it, /posts doesn't)"},
	Remaining:  []string{"Tests for rate limiting", "Documentation update"},
	FilesChanged: []checkpoint.FileChange{{Path: "src/middleware/rateLimit.ts", Note: "new"},
		{Path: "src/routes/users.ts", Note: "modified"}},
	Decisions: []string{"Token bucket over a fixed window: bursts are allowed"},
	Notes: "- Discovered: Redis connection pool may need tuning for high load\n" +
		"- Left TODO comment at line 47 of rateLimit.ts",
	Resumption: "To continue this work:\n1. Read the files listed above\n" +
		"2. Complete route integration in src/routes/posts.ts\n" +
		"3. Run `npm test -- --grep \"rate limit\"` for tests",
}

// escapesCheckpoint holds the values that need escaping or quoting:
// testdata/escapes.golden.
var escapesCheckpoint = checkpoint.Checkpoint{
	Worker:        "w",
	Task:          "/notes.md",
	Status:        checkpoint.StatusDone,
	Phase:         "yes",
	PivotReason:   `"1.0": x # not a comment \ ✓`,
	Clarification: ": x \u2028\ufeff y",
	Completed:     []string{"[ ] looks like a box", `\n is a backslash, then n`, "`code` first, * and # inside"},
	Remaining:     []string{"# not a heading"},
	FilesChanged: []checkpoint.FileChange{{Path: "a`b.go", Note: "renamed from (old).go"},
		{Path: "`tick.go"}},
	Notes: "### Sub-heading\n\n```md\n## Completed\n- [x] not an item\n```",
	Extra: []checkpoint.Section{{Heading: "Extra: kept", Body: "Free text a person added,\non two lines."},
		{Heading: "Empty heading only"}},
}

func readGolden(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return string(data)
}

// TestWorkerRenderGolden: Render writes each value as its golden file,
// and the golden file parses back to the value.
func TestWorkerRenderGolden(t *testing.T) {
	for _, tc := range []struct {
		golden, why string
		c           checkpoint.Checkpoint
	}{
		{"pivoted.golden", "the pivot protocol's example, every machine field of a pivot, every section but Blocked and Parallel Work", pivotedCheckpoint},
		{"escapes.golden", "YAML-looking values quoted, items that look like boxes, headings or escapes, code spans with backticks, " +
			"a code block holding a section heading, extra sections in order, one without a body", escapesCheckpoint},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			want := readGolden(t, tc.golden)
			got, err := tc.c.Render()
			require.NoError(t, err)
			assert.Equal(t, want, string(got), tc.why)
			back, err := checkpoint.Parse([]byte(want))
			require.NoError(t, err)
			assert.Equal(t, tc.c, back)
		})
	}
}

// TestWorkerParseGolden: documents that were not written by Render read as
// the value whose rendering is the golden file.
func TestWorkerParseGolden(t *testing.T) {
	for _, tc := range []struct {
		input, golden, why string
	}{
		{"handedited.md", "pivoted.golden", "pivoted.golden as a person edited it: CRLF, unquoted front matter in other cases, " +
			"an unknown key, a title and paragraphs skipped, sections reordered and renamed ('Original task:', 'Files changed (uncommitted)'), " +
			"'*' and '+' bullets, wrapped items, a checked item in In Progress read as Completed, an ordered list, a path without backticks"},
		{"pivot-text.md", "pivot-text.golden", "the pivot protocol's checkpoint as the protocol writes it: no front matter, '## Status: PARTIAL', no blank line under headings"},
	} {
		t.Run(tc.input, func(t *testing.T) {
			c, err := checkpoint.Parse([]byte(readGolden(t, tc.input)))
			require.NoError(t, err)
			got, err := c.Render()
			require.NoError(t, err)
			assert.Equal(t, readGolden(t, tc.golden), string(got), tc.why)
		})
	}
}

// TestWorkerJSONGolden: the checkpoint-resume protocol's own checkpoint file (unknown fields,
// a decision that is an object, files created and modified, resume
// instructions as fields) reads as resume.golden.
func TestWorkerJSONGolden(t *testing.T) {
	c, err := checkpoint.ParseJSON([]byte(readGolden(t, "resume.json")))
	require.NoError(t, err)
	got, err := c.Render()
	require.NoError(t, err)
	assert.Equal(t, readGolden(t, "resume.golden"), string(got))
}

// TestWorkerJSONRoundTrip: Markdown → JSON → Markdown loses nothing, for
// every golden value; the JSON uses the checkpoint-resume protocol's names.
func TestWorkerJSONRoundTrip(t *testing.T) {
	for _, name := range []string{"pivoted.golden", "escapes.golden", "resume.golden", "pivot-text.golden"} {
		t.Run(name, func(t *testing.T) {
			md := readGolden(t, name)
			c, err := checkpoint.Parse([]byte(md))
			require.NoError(t, err)
			js, err := c.JSON()
			require.NoError(t, err)
			back, err := checkpoint.ParseJSON(js)
			require.NoError(t, err, "%s", js)
			assert.Equal(t, c, back)
			again, err := back.Render()
			require.NoError(t, err)
			assert.Equal(t, md, string(again))
		})
	}
	js, err := pivotedCheckpoint.JSON()
	require.NoError(t, err)
	for _, key := range []string{`"agentId": "worker-1"`, `"timestamp": "2026-01-18T10:15:23Z"`, `"phase": "pivoted"`,
		`"workState": {`, `"completed": [`, `"inProgress": [`, `"blocked": []`, `"parallelWorkAvailable": []`,
		`"context": {`, `"filesCreated": [`, `"filesModified": [`, `"resumeInstructions": {`, `"metadata": {`,
		`"status": "PARTIAL"`, `"sequence": 3`, `"pivotMode": "graceful"`} {
		assert.True(t, strings.Contains(string(js), key), "missing %s in\n%s", key, js)
	}
}
