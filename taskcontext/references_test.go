package taskcontext_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskcontext"
	"github.com/taskmd/taskmd/taskdoc"
)

func TestLoadReferencesShapes(t *testing.T) {
	files := map[string]string{
		"docs/a.md":      "# A\n\nSee @/b.md.\n",
		"docs/b.md":      "# B\n\nSee @/c.md and @/a.md.\n",
		"docs/c.md":      "# C\n\nSee @/d.md\n",
		"docs/d.md":      "# D\n",
		"docs/loop.md":   "# Loop\n\n@/loop.md\n",
		"docs/x.md":      "# X\n\n@/shared.md\n",
		"docs/y.md":      "# Y\n\n@/shared.md\n",
		"docs/shared.md": "# Shared\n",
		"docs/plain.md":  "no heading, so the title comes from the file name\n",
		"docs/prose.md":  "# Prose\n\nMail me@/x.md, read (@/d.md). Never @/../secret.md or @/docs/../../secret.md.\n",
		"secret.md":      "# Outside docs\n",
	}
	ws := loadWorkspace(t, files)
	tests := []struct {
		name    string
		refs    []taskdoc.Reference
		depth   int
		want    []string
		missing []string
	}{
		{"depth 0 loads nothing", []taskdoc.Reference{ref("@/a.md", "/a.md", "")}, 0, nil, nil},
		{"depth 1 loads the direct references only", []taskdoc.Reference{ref("@/a.md", "/a.md", "")}, 1, []string{"1:/a.md"}, nil},
		{"a chain stops at the depth limit", []taskdoc.Reference{ref("@/a.md", "/a.md", "")}, 3,
			[]string{"1:/a.md", "2:/b.md", "3:/c.md"}, nil},
		{"a cycle back to a loaded document is cut", []taskdoc.Reference{ref("@/a.md", "/a.md", "")}, 10,
			[]string{"1:/a.md", "2:/b.md", "3:/c.md", "4:/d.md"}, nil},
		{"a document referencing itself is loaded once", []taskdoc.Reference{ref("@/loop.md", "/loop.md", "")}, 3,
			[]string{"1:/loop.md"}, nil},
		{"a document referenced twice is loaded under the first", []taskdoc.Reference{ref("@/x.md", "/x.md", ""), ref("@/y.md", "/y.md", "")}, 3,
			[]string{"1:/x.md", "2:/shared.md", "1:/y.md"}, nil},
		{"a direct reference wins over a deeper one", []taskdoc.Reference{ref("@/x.md", "/x.md", ""), ref("@/shared.md", "/shared.md", "")}, 3,
			[]string{"1:/x.md", "1:/shared.md"}, nil},
		{"a repeated reference is loaded once", []taskdoc.Reference{ref("@/d.md", "/d.md", ""), ref("@/d.md", "/d.md", "")}, 3,
			[]string{"1:/d.md"}, nil},
		{"missing documents are listed once, in order", []taskdoc.Reference{ref("@/gone.md", "/gone.md", ""), ref("@/d.md", "/d.md", ""), ref("@/nested/gone.md", "/nested/gone.md", ""), ref("@/gone.md", "/gone.md", "")}, 3,
			[]string{"1:/d.md"}, []string{"@/gone.md", "@/nested/gone.md"}},
		{"references in running text; paths that leave docs/ name nothing", []taskdoc.Reference{ref("@/prose.md", "/prose.md", "")}, 2,
			[]string{"1:/prose.md", "2:/d.md"}, []string{"@/../secret.md", "@/docs/../../secret.md"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			docs, missing, err := taskcontext.LoadReferences(context.Background(), ws, tt.refs, tt.depth)
			require.NoError(t, err)
			assert.Equal(t, tt.want, paths(docs))
			assert.Equal(t, tt.missing, missing)
		})
	}

	docs, _, err := taskcontext.LoadReferences(context.Background(), ws, []taskdoc.Reference{ref("@/plain.md", "/plain.md", ""), ref("@/a.md", "/a.md", "")}, 1)
	require.NoError(t, err)
	require.Len(t, docs, 2)
	assert.Equal(t, taskcontext.LoadedDocument{Path: "/plain.md", Title: "Plain", Content: files["docs/plain.md"], Depth: 1}, docs[0])
	assert.Equal(t, taskcontext.LoadedDocument{Path: "/a.md", Title: "A", Content: files["docs/a.md"], Depth: 1}, docs[1])
}

func TestLoadReferencesSections(t *testing.T) {
	spec := "# Security\n\nIntro @/intro.md\n\n## Sessions\n\nRevocable.\n\n## Token lifetime\n\nFifteen minutes, see @/clock.md.\n\n### Refresh\n\nThirty days.\n\n## Setup\n\nFirst.\n\n## Setup\n\nSecond.\n"
	ws := loadWorkspace(t, map[string]string{
		"docs/spec.md":  spec,
		"docs/clock.md": "# Clock\n\nSee @/spec.md#sessions\n",
		"docs/intro.md": "# Intro\n",
	})
	ctx := context.Background()

	docs, missing, err := taskcontext.LoadReferences(ctx, ws, []taskdoc.Reference{ref("@/spec.md#token-lifetime", "/spec.md", "token-lifetime")}, 3)
	require.NoError(t, err)
	assert.Empty(t, missing)
	require.Len(t, docs, 1)
	assert.Equal(t, "/spec.md#token-lifetime", docs[0].Path)
	assert.Equal(t, "Token lifetime", docs[0].Title)
	assert.Equal(t, "## Token lifetime\n\nFifteen minutes, see @/clock.md.\n\n### Refresh\n\nThirty days.\n", docs[0].Content)
	// Only the section's own references are followed: not @/intro.md, which
	// is in the document outside the section.
	assert.Equal(t, []string{"1:/spec.md#token-lifetime", "2:/clock.md", "3:/spec.md#sessions"}, paths(docs))
	assert.Equal(t, "## Sessions\n\nRevocable.\n", docs[0].Children[0].Children[0].Content)

	// Repeated outline headings get GitHub's -1 suffix.
	docs, _, err = taskcontext.LoadReferences(ctx, ws, []taskdoc.Reference{ref("@/spec.md#setup-1", "/spec.md", "setup-1")}, 1)
	require.NoError(t, err)
	require.Len(t, docs, 1)
	assert.Equal(t, "## Setup\n\nSecond.\n", docs[0].Content)

	// A section of a document loaded whole is cut as a repeat.
	docs, _, err = taskcontext.LoadReferences(ctx, ws, []taskdoc.Reference{ref("@/spec.md", "/spec.md", ""), ref("@/spec.md#sessions", "/spec.md", "sessions")}, 1)
	require.NoError(t, err)
	assert.Equal(t, []string{"1:/spec.md"}, paths(docs))

	docs, missing, err = taskcontext.LoadReferences(ctx, ws, []taskdoc.Reference{ref("@/spec.md#nowhere", "/spec.md", "nowhere"), ref("@/spec.md#sessions", "/spec.md", "sessions")}, 1)
	require.NoError(t, err)
	assert.Equal(t, []string{"@/spec.md#nowhere"}, missing)
	assert.Equal(t, []string{"1:/spec.md#sessions"}, paths(docs))
}

func TestLoadReferencesErrors(t *testing.T) {
	ws := loadWorkspace(t, map[string]string{
		"docs/a.md":      "# A\n\n@/linked.md\n",
		"outside/x.md":   "# X\n",
		"docs/bad.md":    "# Bad\n\nnot UTF-8: \xff\n",
		"docs/fine.md":   "# Fine\n",
		"docs/refbad.md": "# Ref\n\n@/bad.md\n",
	})
	symlink(t, ws, "docs/linked.md", filepath.Join(ws.Root(), "outside/x.md"))
	ctx := context.Background()

	_, _, err := taskcontext.LoadReferences(ctx, ws, []taskdoc.Reference{ref("@/a.md", "/a.md", "")}, 2)
	var e *taskdoc.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, taskdoc.CodeSymlink, e.Code)
	assert.Equal(t, "/linked.md", e.Path)
	assert.Contains(t, err.Error(), "@/linked.md")

	_, _, err = taskcontext.LoadReferences(ctx, ws, []taskdoc.Reference{ref("@/refbad.md", "/refbad.md", "")}, 2)
	require.ErrorAs(t, err, &e)
	assert.Equal(t, taskdoc.CodeInvalidUTF8, e.Code)
	assert.Equal(t, "/bad.md", e.Path)
	assert.Equal(t, 3, e.Line)

	// The same depth that would reach the bad document stops before it.
	docs, _, err := taskcontext.LoadReferences(ctx, ws, []taskdoc.Reference{ref("@/refbad.md", "/refbad.md", "")}, 1)
	require.NoError(t, err)
	assert.Equal(t, []string{"1:/refbad.md"}, paths(docs))

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, _, err = taskcontext.LoadReferences(cancelled, ws, []taskdoc.Reference{ref("@/fine.md", "/fine.md", "")}, 1)
	assert.True(t, errors.Is(err, context.Canceled), "got %v", err)
	assert.NotEmpty(t, taskdoc.CodeOf(err))
}
