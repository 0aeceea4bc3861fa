package subagent_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/taskcontext"
	"github.com/taskmd/taskmd/taskdoc"
)

// The ad-hoc scenario: three tasks created in one document, then started
// and completed by address, out of order, with the document on disk checked
// after every step. The expected texts are written out in full: they are
// the file format users and other tools see.
func TestAdHocScenario(t *testing.T) {
	ctx := context.Background()
	tasks, root := setup(t, scenarioFiles)
	const doc = "/api/authentication.md"
	const file = "docs/api/authentication.md"

	// 1. Create three tasks: the document does not exist yet.
	created, err := tasks.Create(ctx, doc, scenarioTasks...)
	require.NoError(t, err)
	assert.Equal(t, []string{"implement-jwt-signing", "add-token-validation", "handle-token-refresh"}, slugs(created))
	afterCreate := `# Authentication

## Tasks

### Implement JWT signing

- Status: pending
- Workflow: tdd-incremental-orchestration

Implement token signing logic

@/specs/jwt-spec.md

### Add token validation

- Status: pending

Validate tokens in middleware

### Handle token refresh

- Status: pending

Implement refresh token endpoint
`
	assert.Equal(t, afterCreate, filetest.Read(t, root, file))

	// 2. Start one task by address: it is marked in progress and comes with
	// its Workflow and its references, followed one level further.
	started, err := tasks.Start(ctx, doc+"#implement-jwt-signing")
	require.NoError(t, err)
	assert.Equal(t, doc, started.Document)
	assert.Equal(t, "Implement JWT signing", started.Task.Title)
	assert.Equal(t, taskdoc.StatusInProgress, started.Task.Status)
	require.NotNil(t, started.Workflow)
	assert.Equal(t, taskcontext.Workflow{Name: "tdd-incremental-orchestration", Content: scenarioFiles["workflows/tdd-incremental-orchestration.md"]}, *started.Workflow)
	assert.Empty(t, started.Missing)
	require.Len(t, started.References, 1)
	assert.Equal(t, "/specs/jwt-spec.md", started.References[0].Path)
	assert.Equal(t, "JWT spec", started.References[0].Title)
	assert.Equal(t, scenarioFiles["docs/specs/jwt-spec.md"], started.References[0].Content)
	require.Len(t, started.References[0].Children, 1)
	assert.Equal(t, taskcontext.LoadedDocument{Path: "/specs/keys.md#rotation", Title: "Rotation", Content: "## Rotation\n\nMonthly.\n", Depth: 2},
		started.References[0].Children[0])
	afterStart := strings.Replace(afterCreate, "- Status: pending\n- Workflow", "- Status: in_progress\n- Workflow", 1)
	assert.Equal(t, afterStart, filetest.Read(t, root, file))

	// 3. The subagent completes it: a confirmation, no next task.
	done, err := tasks.Complete(ctx, doc+"#implement-jwt-signing", "JWT signing implemented using RS256 algorithm")
	require.NoError(t, err)
	assert.Equal(t, doc, done.Document)
	assert.Equal(t, "2025-10-14", done.Date)
	assert.Equal(t, "JWT signing implemented using RS256 algorithm", done.Note)
	assert.Equal(t, taskdoc.StatusCompleted, done.Task.Status)
	afterComplete := strings.Replace(afterCreate, "- Status: pending\n- Workflow: tdd-incremental-orchestration\n",
		"- Status: completed\n- Workflow: tdd-incremental-orchestration\n- Completed: 2025-10-14\n- Note: JWT signing implemented using RS256 algorithm\n", 1)
	assert.Equal(t, afterComplete, filetest.Read(t, root, file))

	// 4. The coordinator reviews the document.
	all, err := tasks.View(ctx, doc)
	require.NoError(t, err)
	assert.Equal(t, []taskdoc.Status{taskdoc.StatusCompleted, taskdoc.StatusPending, taskdoc.StatusPending},
		[]taskdoc.Status{all[0].Status, all[1].Status, all[2].Status})
	note, _ := all[0].Field("Note")
	assert.Equal(t, "JWT signing implemented using RS256 algorithm", note)

	// 5. Any task, in any order: the last one next.
	started, err = tasks.Start(ctx, doc+"#handle-token-refresh")
	require.NoError(t, err)
	assert.Equal(t, "Handle token refresh", started.Task.Title)
	assert.Nil(t, started.Workflow)
	assert.Empty(t, started.References)
	afterSecondStart := strings.Replace(afterComplete, "- Status: pending\n\nImplement refresh", "- Status: in_progress\n\nImplement refresh", 1)
	assert.Equal(t, afterSecondStart, filetest.Read(t, root, file))

	pending, err := tasks.List(ctx, doc, taskdoc.StatusPending)
	require.NoError(t, err)
	assert.Equal(t, []string{"add-token-validation"}, slugs(pending))
}
