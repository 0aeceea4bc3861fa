package editor_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/editor"
	"github.com/taskmd/taskmd/taskdoc"
)

// labels are the labels of cs, and the one Range they all share.
func labels(t *testing.T, cs []editor.Completion) ([]string, editor.Range) {
	t.Helper()
	var out []string
	for _, c := range cs {
		out = append(out, c.Label)
		assert.Equal(t, cs[0].Range, c.Range)
		assert.Equal(t, c.Label, c.NewText)
	}
	if len(cs) == 0 {
		return nil, editor.Range{}
	}
	return out, cs[0].Range
}

func TestComplete(t *testing.T) {
	ctx := context.Background()
	// The cursor is where "|" is; it is taken out of the buffer.
	tests := []struct {
		name   string
		line   string // a line of the first task's body or metadata
		want   []string
		kind   editor.CompletionKind
		typed  string // the word typed so far, which the completions replace
		detail string // of the first completion
	}{
		{name: "paths", line: "界 😀 see @/|", kind: editor.CompletePath,
			want: []string{"other.md", "plan.md", "specs/spec.md"}, detail: "Other"},
		{name: "paths, typed", line: "界 😀 see @/sp|", kind: editor.CompletePath,
			want: []string{"specs/spec.md"}, typed: "sp", detail: "Spec 界"},
		{name: "paths, in order", line: "(@/oe|", kind: editor.CompletePath,
			want: []string{"other.md"}, typed: "oe"},
		{name: "anchors", line: "界 @/specs/spec.md#|", kind: editor.CompleteAnchor,
			want: []string{"spec-界", "intro", "detail", "tasks", "write-spec"}, detail: "Spec 界"},
		{name: "anchors, typed", line: "界 @/specs/spec.md#in|", kind: editor.CompleteAnchor,
			want: []string{"spec-界", "intro", "detail", "tasks", "write-spec"}, typed: "in", detail: "Spec 界"},
		{name: "no document", line: "@/none.md#|"},
		{name: "an e-mail address", line: "me@/x|"},
		{name: "after a space", line: "@/specs/spec.md |"},
		{name: "status", line: "- Status: in_|", kind: editor.CompleteStatus,
			want: []string{"pending", "planning", "in_progress", "paused", "blocked", "completed", "failed", "skipped"}, typed: "in_"},
		{name: "workflow", line: "- Workflow: |", kind: editor.CompleteWorkflow,
			want: []string{"spec", "tdd"}, detail: "workflows/spec.md"},
		{name: "main workflow, typed", line: "- main-workflow: td|", kind: editor.CompleteWorkflow,
			want: []string{"spec", "tdd"}, typed: "td", detail: "workflows/spec.md"},
		{name: "depends on", line: "- Depends-On: #design, |", kind: editor.CompleteTask,
			want:   []string{"#design", "/other.md#elsewhere", "/specs/spec.md#write-spec", "/coordinator/active.md#design", "/coordinator/active.md#build", "/coordinator/active.md#ship"},
			detail: "Design · completed"},
		{name: "depends on, typed", line: "- Depends-On: #design,/spw|", kind: editor.CompleteTask,
			want: []string{"/specs/spec.md#write-spec"}, typed: "/spw", detail: "Write spec · pending"},
		{name: "in a key", line: "- Sta|tus: pending"},
		{name: "another field", line: "- Note: x|"},
	}
	for _, enc := range editor.Encodings {
		for _, tt := range tests {
			t.Run(string(enc)+"/"+tt.name, func(t *testing.T) {
				files := navFiles()
				files["docs/other.md"] = "# Other\n\n## Tasks\n\n### Elsewhere\n"
				files[coordinator.File] = coordinatorList
				s, _ := newTestSession(t, files, editor.WithEncoding(enc))
				i := len("# Plan\n\n## Tasks\n\n### Sign 😀 tokens\n\n")
				src := navPlan[:i] + strings.Replace(tt.line, "|", "", 1) + "\n" + navPlan[i:]
				require.NoError(t, s.Open(ctx, "docs/plan.md", 1, src))
				cursor := pos(t, tt.line, "|", 0, 0, enc)
				cursor.Line = 6
				cs, err := s.Complete(ctx, "docs/plan.md", cursor)
				require.NoError(t, err)
				got, r := labels(t, cs)
				if tt.kind == "" {
					assert.Empty(t, cs)
					return
				}
				assert.ElementsMatch(t, tt.want, got)
				for _, c := range cs {
					assert.Equal(t, tt.kind, c.Kind)
				}
				assert.Equal(t, editor.Range{Start: editor.Position{Line: 6, Character: cursor.Character - width(tt.typed, enc)}, End: cursor}, r)
				if tt.detail != "" {
					assert.Equal(t, tt.detail, cs[0].Detail)
				}
			})
		}
	}
}

// Open documents without a file are documents to complete too, and
// workflows being written count.
func TestCompleteOpenBuffers(t *testing.T) {
	ctx := context.Background()
	s, _ := newTestSession(t, navFiles())
	require.NoError(t, s.Open(ctx, "docs/new.md", 1, "# New\n\n## Tasks\n\n### Fresh\n"))
	require.NoError(t, s.Open(ctx, "workflows/draft.md", 1, "# Draft\n"))
	src := "# Plan\n\n## Tasks\n\n### A\n\n- Workflow: \n- Depends-On: \n\n@/\n"
	require.NoError(t, s.Open(ctx, "docs/plan.md", 1, src))

	cs, err := s.Complete(ctx, "docs/plan.md", editor.Position{Line: 9, Character: 2})
	require.NoError(t, err)
	got, _ := labels(t, cs)
	assert.Equal(t, []string{"new.md", "plan.md", "specs/spec.md"}, got)

	cs, err = s.Complete(ctx, "docs/plan.md", editor.Position{Line: 6, Character: 12})
	require.NoError(t, err)
	got, _ = labels(t, cs)
	assert.Equal(t, []string{"draft", "spec", "tdd"}, got)

	cs, err = s.Complete(ctx, "docs/plan.md", editor.Position{Line: 7, Character: 14})
	require.NoError(t, err)
	got, _ = labels(t, cs)
	assert.Equal(t, []string{"/new.md#fresh", "/specs/spec.md#write-spec"}, got, "not the task itself")

	_, err = s.Complete(ctx, "docs/none.md", editor.Position{})
	assert.ErrorIs(t, err, taskdoc.ErrDocumentNotFound)
}
