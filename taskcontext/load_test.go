package taskcontext_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskcontext"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

func TestLoad(t *testing.T) {
	files := map[string]string{
		"workflows/orchestrate.md": "# Orchestrate\n",
		"workflows/tdd.md":         "---\ntitle: TDD\n---\n# TDD\n",
		"docs/a.md":                "# A\n\nSee @/b.md\n",
		"docs/b.md":                "# B\n",
		"docs/spec.md":             "# Spec\n\n## Tokens\n\nShort-lived.\n\n## Other\n",
	}
	ws := loadWorkspace(t, files)
	ctx := context.Background()
	task := parseTask(t, "- Status: pending\n- workflow:  tdd \n\nDo it. See @/a.md, @/spec.md#tokens and @/gone.md.\n")

	tc, err := taskcontext.Load(ctx, ws, taskcontext.Request{Task: task, MainWorkflow: " orchestrate ", Depth: 2})
	require.NoError(t, err)
	require.NotNil(t, tc.MainWorkflow)
	assert.Equal(t, taskcontext.Workflow{Name: "orchestrate", Content: files["workflows/orchestrate.md"]}, *tc.MainWorkflow)
	require.NotNil(t, tc.Workflow)
	assert.Equal(t, taskcontext.Workflow{Name: "tdd", Content: files["workflows/tdd.md"], Title: "TDD"}, *tc.Workflow)
	assert.Equal(t, []string{"1:/a.md", "2:/b.md", "1:/spec.md#tokens"}, paths(tc.References))
	assert.Equal(t, "## Tokens\n\nShort-lived.\n", tc.References[1].Content)
	assert.Equal(t, []string{"@/gone.md"}, tc.Missing)

	t.Run("missing in order: Main-Workflow, Workflow, references", func(t *testing.T) {
		task := parseTask(t, "- Workflow: nowf\n\n@/gone.md @/a.md @/spec.md#nowhere\n")
		tc, err := taskcontext.Load(ctx, ws, taskcontext.Request{Task: task, MainWorkflow: "nomain", Depth: 1})
		require.NoError(t, err)
		assert.Nil(t, tc.MainWorkflow)
		assert.Nil(t, tc.Workflow)
		assert.Equal(t, []string{"1:/a.md"}, paths(tc.References))
		assert.Equal(t, []string{"nomain", "nowf", "@/gone.md", "@/spec.md#nowhere"}, tc.Missing)
	})
	t.Run("a nil task loads only the Main-Workflow", func(t *testing.T) {
		tc, err := taskcontext.Load(ctx, ws, taskcontext.Request{MainWorkflow: "orchestrate", Depth: 3})
		require.NoError(t, err)
		assert.Equal(t, &taskcontext.Context{MainWorkflow: &taskcontext.Workflow{Name: "orchestrate", Content: files["workflows/orchestrate.md"]}}, tc)
	})
	t.Run("a blank Workflow field and depth 0 load nothing", func(t *testing.T) {
		task := parseTask(t, "- Workflow:   \n\n@/a.md @/gone.md\n")
		tc, err := taskcontext.Load(ctx, ws, taskcontext.Request{Task: task})
		require.NoError(t, err)
		assert.Equal(t, &taskcontext.Context{}, tc)
	})
	t.Run("a Workflow named like the Main-Workflow is read once", func(t *testing.T) {
		task := parseTask(t, "- Workflow: tdd\n")
		tc, err := taskcontext.Load(ctx, ws, taskcontext.Request{Task: task, MainWorkflow: "tdd"})
		require.NoError(t, err)
		require.NotNil(t, tc.MainWorkflow)
		require.NotNil(t, tc.Workflow)
		assert.Equal(t, *tc.MainWorkflow, *tc.Workflow)
		assert.NotSame(t, tc.MainWorkflow, tc.Workflow)

		task = parseTask(t, "- Workflow: nowf\n")
		tc, err = taskcontext.Load(ctx, ws, taskcontext.Request{Task: task, MainWorkflow: "nowf"})
		require.NoError(t, err)
		assert.Equal(t, []string{"nowf"}, tc.Missing)
	})
}

// TestLoadMissingOrError pins the package's one rule: each way a workflow
// or a reference can fail to load is either listed in Missing or an error
// naming it, for both alike.
func TestLoadMissingOrError(t *testing.T) {
	big := "# Big\n\n" + strings.Repeat("Lorem ipsum dolor sit amet.\n", 8)
	tests := []struct {
		name    string
		task    string            // the task's metadata and body
		files   map[string]string // root-relative
		linkIn  map[string]string // link name -> root-relative target
		linkOut map[string]string // link name -> target relative to a folder outside the root
		maxSize int64
		cancel  bool

		missing  []string     // when the load succeeds
		code     taskdoc.Code // when it fails
		line     int          // the failure's line, when it has one
		mentions string       // what the error names
	}{
		{name: "workflow absent", task: "- Workflow: tdd\n", missing: []string{"tdd"}},
		{name: "workflow name with a folder", task: "- Workflow: ../docs/spec\n",
			files: map[string]string{"docs/spec.md": "# Spec\n"}, missing: []string{"../docs/spec"}},
		{name: "workflow name ..", task: "- Workflow: ..\n", missing: []string{".."}},
		{name: "workflow name with a section: a file name like any other", task: "- Workflow: tdd#red\n",
			files: map[string]string{"workflows/tdd.md": "# TDD\n\n## Red\n"}, missing: []string{"tdd#red"}},
		{name: "workflow linked to a file inside the root", task: "- Workflow: tdd\n",
			files: map[string]string{"docs/tdd.md": "# TDD\n"}, linkIn: map[string]string{"workflows/tdd.md": "docs/tdd.md"},
			code: taskdoc.CodeSymlink, mentions: `workflow "tdd"`},
		{name: "workflow linked to a file outside the root", task: "- Workflow: tdd\n",
			linkOut: map[string]string{"workflows/tdd.md": "tdd.md"},
			code:    taskdoc.CodeSymlink, mentions: `workflow "tdd"`},
		{name: "workflow in a linked folder outside the root", task: "- Workflow: tdd\n",
			linkOut: map[string]string{"workflows": "."},
			code:    taskdoc.CodeOutsideRoot, mentions: `workflow "tdd"`},
		{name: "workflow not UTF-8", task: "- Workflow: tdd\n",
			files: map[string]string{"workflows/tdd.md": "# TDD\n\nRed \xff\n"},
			code:  taskdoc.CodeInvalidUTF8, line: 3, mentions: `workflow "tdd"`},
		{name: "workflow over the size limit", task: "- Workflow: tdd\n",
			files: map[string]string{"workflows/tdd.md": big}, maxSize: 64,
			code: taskdoc.CodeFileTooLarge, mentions: `workflow "tdd"`},
		{name: "workflow with the context cancelled", task: "- Workflow: tdd\n",
			files: map[string]string{"workflows/tdd.md": "# TDD\n"}, cancel: true,
			code: taskdoc.CodeIO, mentions: `workflow "tdd"`},

		{name: "reference absent", task: "See @/spec.md\n", missing: []string{"@/spec.md"}},
		{name: "reference path leaving docs/", task: "See @/../spec.md\n",
			files: map[string]string{"spec.md": "# Spec\n"}, missing: []string{"@/../spec.md"}},
		{name: "reference to a missing section", task: "See @/spec.md#nowhere\n",
			files: map[string]string{"docs/spec.md": "# Spec\n\n## Somewhere\n"}, missing: []string{"@/spec.md#nowhere"}},
		{name: "reference linked to a file inside the root", task: "See @/spec.md\n",
			files: map[string]string{"notes/spec.md": "# Spec\n"}, linkIn: map[string]string{"docs/spec.md": "notes/spec.md"},
			code: taskdoc.CodeSymlink, mentions: "@/spec.md"},
		{name: "reference linked to a file outside the root", task: "See @/spec.md\n",
			linkOut: map[string]string{"docs/spec.md": "spec.md"},
			code:    taskdoc.CodeSymlink, mentions: "@/spec.md"},
		{name: "reference in a linked folder outside the root", task: "See @/ext/spec.md\n",
			linkOut: map[string]string{"docs/ext": "."},
			code:    taskdoc.CodeOutsideRoot, mentions: "@/ext/spec.md"},
		{name: "reference not UTF-8", task: "See @/spec.md#a\n",
			files: map[string]string{"docs/spec.md": "# Spec\n\n## A\n\n\xff\n"},
			code:  taskdoc.CodeInvalidUTF8, line: 5, mentions: "@/spec.md#a"},
		{name: "reference over the size limit", task: "See @/spec.md\n",
			files: map[string]string{"docs/spec.md": big}, maxSize: 64,
			code: taskdoc.CodeFileTooLarge, mentions: "@/spec.md"},
		{name: "reference too complex to parse", task: "See @/spec.md\n",
			files: map[string]string{"docs/spec.md": "# Spec\n\n" + strings.Repeat(">", taskdoc.MaxNesting+1) + " deep\n"},
			code:  taskdoc.CodeTooComplex, line: 3, mentions: "@/spec.md"},
		{name: "reference with the context cancelled", task: "See @/spec.md\n",
			files: map[string]string{"docs/spec.md": "# Spec\n"}, cancel: true,
			code: taskdoc.CodeIO, mentions: "@/spec.md"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var opts []workspace.Option
			if tt.maxSize > 0 {
				opts = append(opts, workspace.WithMaxFileSize(tt.maxSize))
			}
			ws := loadWorkspace(t, tt.files, opts...)
			for name, target := range tt.linkIn {
				symlink(t, ws, name, filepath.Join(ws.Root(), filepath.FromSlash(target)))
			}
			outside := t.TempDir()
			writeFiles(t, outside, map[string]string{"tdd.md": "# TDD\n", "spec.md": "# Spec\n"})
			for name, target := range tt.linkOut {
				symlink(t, ws, name, filepath.Join(outside, filepath.FromSlash(target)))
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.cancel {
				cancel()
			}

			tc, err := taskcontext.Load(ctx, ws, taskcontext.Request{Task: parseTask(t, tt.task), Depth: 1})
			if tt.code == "" {
				require.NoError(t, err)
				assert.Equal(t, &taskcontext.Context{Missing: tt.missing}, tc)
				return
			}
			assert.Nil(t, tc)
			var e *taskdoc.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, tt.code, e.Code)
			assert.Equal(t, tt.line, e.Line)
			assert.Contains(t, e.Msg, tt.mentions)
			assert.NotNil(t, errors.Unwrap(err), "the cause is kept")
			assert.Equal(t, tt.cancel, errors.Is(err, context.Canceled))
		})
	}
}

func TestRequestInputs(t *testing.T) {
	const body = "- Status: pending\n- Workflow: tdd\n\nSee @/a.md and @/b.md#x.\n"
	base := taskcontext.Request{Task: parseTask(t, body), MainWorkflow: "orchestrate", Depth: 2}
	with := func(change func(*taskcontext.Request)) taskcontext.Request {
		r := base
		change(&r)
		return r
	}
	differ := map[string]taskcontext.Request{
		"another Workflow":  with(func(r *taskcontext.Request) { r.Task = parseTask(t, strings.Replace(body, "tdd", "spec", 1)) }),
		"no Workflow":       with(func(r *taskcontext.Request) { r.Task = parseTask(t, strings.Replace(body, "- Workflow: tdd\n", "", 1)) }),
		"another reference": with(func(r *taskcontext.Request) { r.Task = parseTask(t, strings.Replace(body, "@/a.md", "@/c.md", 1)) }),
		"another section":   with(func(r *taskcontext.Request) { r.Task = parseTask(t, strings.Replace(body, "#x", "#y", 1)) }),
		"references in another order": with(func(r *taskcontext.Request) {
			r.Task = parseTask(t, strings.Replace(body, "@/a.md and @/b.md#x", "@/b.md#x and @/a.md", 1))
		}),
		"a reference fewer":     with(func(r *taskcontext.Request) { r.Task = parseTask(t, strings.Replace(body, " and @/b.md#x", "", 1)) }),
		"another Main-Workflow": with(func(r *taskcontext.Request) { r.MainWorkflow = "plan" }),
		"no Main-Workflow":      with(func(r *taskcontext.Request) { r.MainWorkflow = "" }),
		"another depth":         with(func(r *taskcontext.Request) { r.Depth = 3 }),
		"depth 0":               with(func(r *taskcontext.Request) { r.Depth = 0 }),
		"no task":               with(func(r *taskcontext.Request) { r.Task = nil }),
		"the workflows swapped": with(func(r *taskcontext.Request) {
			r.MainWorkflow = "tdd"
			r.Task = parseTask(t, strings.Replace(body, "tdd", "orchestrate", 1))
		}),
	}
	equal := map[string]taskcontext.Request{
		"the same request": base,
		"an equal task":    with(func(r *taskcontext.Request) { r.Task = parseTask(t, body) }),
		"another status and text": with(func(r *taskcontext.Request) {
			r.Task = parseTask(t, strings.Replace(body, "pending\n", "in_progress\n", 1)+"\nMore words.\n")
		}),
		"spaces around the names": with(func(r *taskcontext.Request) {
			r.MainWorkflow = "  orchestrate "
			r.Task = parseTask(t, strings.Replace(body, "Workflow: tdd", "WORKFLOW:   tdd  ", 1))
		}),
		"a repeated reference": with(func(r *taskcontext.Request) { r.Task = parseTask(t, body+"\nAgain @/a.md.\n") }),
	}
	for name, r := range differ {
		assert.NotEqual(t, base.Inputs(), r.Inputs(), name)
	}
	for name, r := range equal {
		assert.Equal(t, base.Inputs(), r.Inputs(), name)
	}

	// What Load does not read does not count: references when no level is
	// followed, the depth when there is nothing to follow.
	none := taskcontext.Request{Task: parseTask(t, "- Workflow: tdd\n"), Depth: 0}
	assert.Equal(t, none.Inputs(), taskcontext.Request{Task: parseTask(t, "- Workflow: tdd\n\n@/a.md\n"), Depth: 0}.Inputs())
	assert.Equal(t, none.Inputs(), taskcontext.Request{Task: parseTask(t, "- Workflow: tdd\n"), Depth: -1}.Inputs())
	assert.Equal(t, none.Inputs(), taskcontext.Request{Task: parseTask(t, "- Workflow: tdd\n"), Depth: 5}.Inputs())
}

// A referenced document whose front matter does not decode is served whole:
// taskdoc keeps such front matter as opaque bytes, and a task's reader
// needs the text.
func TestReferenceWithUndecodableFrontMatterLoads(t *testing.T) {
	const spec = "---\ntitle: [unclosed\n---\n# Spec\n\nRS256.\n"
	ws := loadWorkspace(t, map[string]string{"docs/spec.md": spec})
	tc, err := taskcontext.Load(context.Background(), ws, taskcontext.Request{Task: parseTask(t, "See @/spec.md\n"), Depth: 1})
	require.NoError(t, err)
	require.Len(t, tc.References, 1)
	assert.Equal(t, spec, tc.References[0].Content)
	assert.Empty(t, tc.Missing)
}
