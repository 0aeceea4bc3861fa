package editor_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/agent"
	"github.com/taskmd/taskmd/editor"
	"github.com/taskmd/taskmd/journal"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
)

// navPlan is a plan whose first task has every kind of thing Hover,
// Definition and Complete read, with emoji and CJK text before them on
// their lines.
const navPlan = `# Plan

## Tasks

### Sign 😀 tokens

- Status: in_progress
- Assignee: worker-1
- Workflow: tdd
- Depends-On: #design, /specs/spec.md#write-spec, /missing.md#x, #nope

界 😀 see @/specs/spec.md#intro and @/specs/spec.md, not @/missing.md.

### Design

- Status: completed
- Completed: 2026-11-01
- Note: done
`

const navSpec = `---
owner: x
---
# Spec 界

Spec intro line.

## Intro

The intro 界.

### Detail

More.

## Tasks

### Write spec

- Status: pending
`

func navFiles() map[string]string {
	return map[string]string{
		"docs/plan.md":       navPlan,
		"docs/specs/spec.md": navSpec,
		"workflows/tdd.md":   "# TDD\n",
		"workflows/spec.md":  "# Spec first\n",
	}
}

// pos is the Position of the n-th (from 0) occurrence of needle in src,
// plus shift characters, counted in enc without the package.
func pos(t *testing.T, src, needle string, n, shift int, enc editor.Encoding) editor.Position {
	t.Helper()
	for i, line := range editor.SplitLines(src) {
		for at := 0; ; {
			j := strings.Index(line[at:], needle)
			if j < 0 {
				break
			}
			if n == 0 {
				return editor.Position{Line: i, Character: width(line[:at+j], enc) + shift}
			}
			n--
			at += j + len(needle)
		}
	}
	t.Fatalf("%q not found", needle)
	return editor.Position{}
}

// rangeOf is the Range of the n-th occurrence of needle in src.
func rangeOf(t *testing.T, src, needle string, n int, enc editor.Encoding) editor.Range {
	t.Helper()
	start := pos(t, src, needle, n, 0, enc)
	return editor.Range{Start: start, End: editor.Position{Line: start.Line, Character: start.Character + width(needle, enc)}}
}

func TestHoverTask(t *testing.T) {
	ctx := context.Background()
	for _, enc := range editor.Encodings {
		t.Run(string(enc), func(t *testing.T) {
			s, ws := newTestSession(t, navFiles(), editor.WithEncoding(enc))
			_, err := journal.New(ws).Add(ctx, "/plan.md#sign--tokens",
				journal.Entry{Type: journal.TypeProgress, Agent: "worker-1", Summary: "signer done"})
			require.NoError(t, err)

			h, err := s.Hover(ctx, "docs/plan.md", pos(t, navPlan, "tokens", 0, 2, enc))
			require.NoError(t, err)
			require.NotNil(t, h)
			assert.Equal(t, rangeOf(t, navPlan, "### Sign 😀 tokens", 0, enc), h.Range)
			for _, want := range []string{
				"**Sign 😀 tokens** · `in_progress`",
				"`/plan.md#sign--tokens`",
				"- Holder: worker-1 (no claim)",
				"- Workflow: tdd",
				"- Depends on:\n  - `#design` `completed`\n  - `/specs/spec.md#write-spec` `pending`\n" +
					"  - `/missing.md#x` names a document that does not exist\n  - `#nope` names no task of /plan.md",
				"- Last checkpoint: #1 progress, ",
				" by worker-1: signer done",
			} {
				assert.Contains(t, h.Markdown, want)
			}

			// A Depends-On entry shows the task it names.
			h, err = s.Hover(ctx, "docs/plan.md", pos(t, navPlan, "/specs/spec.md#write-spec", 0, 3, enc))
			require.NoError(t, err)
			require.NotNil(t, h)
			assert.Equal(t, rangeOf(t, navPlan, "/specs/spec.md#write-spec", 0, enc), h.Range)
			assert.True(t, strings.HasPrefix(h.Markdown, "**Write spec** · `pending`\n\n`/specs/spec.md#write-spec`"), h.Markdown)
			h, err = s.Hover(ctx, "docs/plan.md", pos(t, navPlan, "#nope", 0, 1, enc))
			require.NoError(t, err)
			require.NotNil(t, h)
			assert.Equal(t, "`#nope`: names no task of /plan.md", h.Markdown)

			// Nothing to show in plain text, outside tasks, or in a task's
			// fields other than Depends-On.
			for _, p := range []editor.Position{
				pos(t, navPlan, "see", 0, 1, enc),
				{Line: 0, Character: 2},
				pos(t, navPlan, "- Workflow: tdd", 0, 13, enc),
				{Line: 100, Character: 0},
			} {
				h, err = s.Hover(ctx, "docs/plan.md", p)
				require.NoError(t, err)
				assert.Nil(t, h, "%+v", p)
			}
		})
	}
}

func TestHoverReference(t *testing.T) {
	ctx := context.Background()
	for _, enc := range editor.Encodings {
		t.Run(string(enc), func(t *testing.T) {
			s, _ := newTestSession(t, navFiles(), editor.WithEncoding(enc))
			const path = "docs/plan.md"
			h, err := s.Hover(ctx, path, pos(t, navPlan, "@/specs/spec.md#intro", 0, 0, enc))
			require.NoError(t, err)
			require.NotNil(t, h)
			assert.Equal(t, rangeOf(t, navPlan, "@/specs/spec.md#intro", 0, enc), h.Range)
			assert.Equal(t, "`@/specs/spec.md#intro`\n\n---\n\n## Intro\n\nThe intro 界.\n\n### Detail\n\nMore.", h.Markdown)

			// No section: the document's first lines, without its front
			// matter.
			h, err = s.Hover(ctx, path, pos(t, navPlan, "@/specs/spec.md,", 0, 5, enc))
			require.NoError(t, err)
			require.NotNil(t, h)
			assert.Equal(t, rangeOf(t, navPlan, "@/specs/spec.md", 1, enc), h.Range, "without the comma")
			assert.True(t, strings.HasPrefix(h.Markdown, "`@/specs/spec.md`\n\n---\n\n# Spec 界\n\nSpec intro line.\n\n## Intro\n"), h.Markdown)

			h, err = s.Hover(ctx, path, pos(t, navPlan, "@/missing.md", 0, 2, enc))
			require.NoError(t, err)
			require.NotNil(t, h)
			assert.Equal(t, "`@/missing.md`: no such document", h.Markdown)

			// An open buffer is read before the file.
			require.NoError(t, s.Open(ctx, "docs/specs/spec.md", 1, "# Spec\n\n## Intro\n\nAs typed.\n"))
			h, err = s.Hover(ctx, path, pos(t, navPlan, "@/specs/spec.md#intro", 0, 0, enc))
			require.NoError(t, err)
			assert.Equal(t, "`@/specs/spec.md#intro`\n\n---\n\n## Intro\n\nAs typed.", h.Markdown)
			require.NoError(t, s.Open(ctx, "docs/specs/spec.md", 2, "# Spec\n"))
			h, err = s.Hover(ctx, path, pos(t, navPlan, "@/specs/spec.md#intro", 0, 0, enc))
			require.NoError(t, err)
			assert.Equal(t, "`@/specs/spec.md#intro`: no section #intro in /specs/spec.md", h.Markdown)
		})
	}
}

// A long document shows its first lines and says there is more.
func TestHoverReferenceLongDocument(t *testing.T) {
	ctx := context.Background()
	var long strings.Builder
	long.WriteString("# Long\r\n")
	for i := range 40 {
		long.WriteString("\r\nline " + strings.Repeat("x", i) + "\r\n")
	}
	files := navFiles()
	files["docs/specs/spec.md"] = long.String()
	s, _ := newTestSession(t, files)
	h, err := s.Hover(ctx, "docs/plan.md", pos(t, navPlan, "@/specs/spec.md,", 0, 1, editor.UTF16))
	require.NoError(t, err)
	require.NotNil(t, h)
	lines := strings.Split(h.Markdown, "\n")
	assert.Equal(t, "# Long", lines[4])
	assert.Equal(t, "…", lines[len(lines)-1])
	assert.NotContains(t, h.Markdown, "\r")
	assert.Len(t, lines, 4+19+2)
}

// The holder's claim, as the plan's claims and the agents' heartbeats
// say, on the Session's clock.
func TestHoverHolder(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	const path = "docs/p.md"
	s, ws := newTestSession(t, map[string]string{path: "# P\n\n## Tasks\n\n### Build\n\n- Status: pending\n"}, editor.WithClock(clock))
	plans := plan.New(ws, plan.WithClock(clock))
	_, err := plans.Agents().Register(ctx, agent.Registration{ID: "worker-1", Name: "w", Runtime: "test"})
	require.NoError(t, err)
	res, err := plans.Claim(ctx, "/p.md#build", "worker-1")
	require.NoError(t, err)
	_, err = plans.UpdateStatus(ctx, "/p.md#build", plan.Claimant{Agent: "worker-1", Token: res.Claim.Token},
		plan.StatusUpdate{Status: taskdoc.StatusInProgress})
	require.NoError(t, err)
	_, err = s.DiskChanged(ctx, path)
	require.NoError(t, err)

	h, err := s.Hover(ctx, path, editor.Position{Line: 4, Character: 5})
	require.NoError(t, err)
	require.NotNil(t, h)
	assert.Contains(t, h.Markdown, "- Holder: worker-1 (online)")

	now = now.Add(time.Minute + time.Minute)
	h, err = s.Hover(ctx, path, editor.Position{Line: 4, Character: 5})
	require.NoError(t, err)
	assert.Contains(t, h.Markdown, "- Holder: worker-1 (offline: its claim is stale)")
}

func TestHoverCoordinator(t *testing.T) {
	ctx := context.Background()
	s, _ := newTestSession(t, map[string]string{"coordinator/active.md": coordinatorList})
	h, err := s.Hover(ctx, "coordinator/active.md", editor.Position{Line: 4, Character: 4})
	require.NoError(t, err)
	require.NotNil(t, h)
	assert.Equal(t, "**Design** · `completed`\n\n`/coordinator/active.md#design`\n\n- Main-Workflow: tdd", h.Markdown)

	_, err = s.Hover(ctx, "docs/none.md", editor.Position{})
	assert.ErrorIs(t, err, taskdoc.ErrDocumentNotFound)
}
