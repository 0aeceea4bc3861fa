package main

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/taskdoc"
)

// The result types of the tests are written from the tool documentation
// (the field names agents know), not taken from the server, so that a
// renamed or extra field fails the decoding in client.ok.

type mcpTask struct {
	Slug  string `json:"slug"`
	Title string `json:"title"`
}

type summaryJSON struct {
	Slug   string `json:"slug"`
	Title  string `json:"title"`
	Status string `json:"status"`
}

type operationJSON struct {
	Operation string        `json:"operation"`
	Status    string        `json:"status"`
	Task      *mcpTask      `json:"task"`
	Count     *int          `json:"count"`
	Tasks     []summaryJSON `json:"tasks"`
	Removed   *int          `json:"removed"`
	Error     string        `json:"error"`
}

type batchJSON struct {
	Success             bool            `json:"success"`
	Document            string          `json:"document"`
	OperationsCompleted int             `json:"operations_completed"`
	Results             []operationJSON `json:"results"`
	Timestamp           string          `json:"timestamp"`
}

type workflowJSON struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Content     string   `json:"content"`
	WhenToUse   []string `json:"whenToUse"`
}

type referenceJSON struct {
	Path      string          `json:"path"`
	Title     string          `json:"title"`
	Content   string          `json:"content"`
	Depth     int             `json:"depth"`
	Namespace string          `json:"namespace"`
	Children  []referenceJSON `json:"children"`
}

type startJSON struct {
	Mode     string `json:"mode"`
	Document string `json:"document"`
	Task     struct {
		Slug                string          `json:"slug"`
		Title               string          `json:"title"`
		Content             string          `json:"content"`
		Status              string          `json:"status"`
		FullPath            string          `json:"full_path"`
		Workflow            *workflowJSON   `json:"workflow"`
		MainWorkflow        *workflowJSON   `json:"main_workflow"`
		ReferencedDocuments []referenceJSON `json:"referenced_documents"`
		Missing             []string        `json:"missing"`
	} `json:"task"`
}

type completedJSON struct {
	Slug          string `json:"slug"`
	Title         string `json:"title"`
	Note          string `json:"note"`
	CompletedDate string `json:"completed_date"`
}

type completeSubagentJSON struct {
	Document      string        `json:"document"`
	CompletedTask completedJSON `json:"completed_task"`
	Timestamp     string        `json:"timestamp"`
}

type completeCoordinatorJSON struct {
	Mode          string        `json:"mode"`
	Document      string        `json:"document"`
	CompletedTask completedJSON `json:"completed_task"`
	NextTask      *struct {
		Slug                string          `json:"slug"`
		Title               string          `json:"title"`
		Workflow            *workflowJSON   `json:"workflow"`
		ReferencedDocuments []referenceJSON `json:"referenced_documents"`
	} `json:"next_task"`
	Archived   bool     `json:"archived"`
	ArchivedTo string   `json:"archived_to"`
	Blocked    []string `json:"blocked"`
	Timestamp  string   `json:"timestamp"`
}

type viewJSON struct {
	Document string `json:"document"`
	Count    int    `json:"count"`
	Tasks    []struct {
		Slug             string `json:"slug"`
		Title            string `json:"title"`
		Status           string `json:"status"`
		Content          string `json:"content"`
		FullPath         string `json:"full_path"`
		WordCount        int    `json:"word_count"`
		Version          string `json:"version"`
		HasWorkflow      bool   `json:"has_workflow"`
		WorkflowName     string `json:"workflow_name"`
		MainWorkflowName string `json:"main_workflow_name"`
	} `json:"tasks"`
}

// Workflow and reference texts of the task systems' scenarios.
const (
	tddWorkflow      = "# TDD incremental orchestration\n\nRed, green, refactor; one task at a time.\n"
	tradeoffWorkflow = "---\ndescription: \"Choose between approaches\"\nwhenToUse:\n  - \"Several valid designs\"\n---\n# Multi-option trade-off\n\nList the options, score them, pick one.\n"
	reviewWorkflow   = "# Code review, issue based\n\nFile one issue per finding.\n"
	securitySpec     = "# Security Requirements\n\nTokens expire after 15 minutes.\n"
	jwtSpec          = "# JWT Spec\n\nSign with RS256.\n\n@/specs/security-requirements.md\n"
)

func scenarioFiles() map[string]string {
	return map[string]string{
		"workflows/tdd-incremental-orchestration.md": tddWorkflow,
		"workflows/multi-option-tradeoff.md":         tradeoffWorkflow,
		"workflows/code-review-issue-based.md":       reviewWorkflow,
		"docs/specs/security-requirements.md":        securitySpec,
		"docs/specs/jwt-spec.md":                     jwtSpec,
	}
}

func create(title, content string) map[string]any {
	return map[string]any{"operation": "create", "title": title, "content": content}
}

// Scenario 1 of the design: the coordinator's sequential list, from its
// creation through a compression to its archive.
func TestCoordinatorScenario(t *testing.T) {
	root := newRoot(t, scenarioFiles())
	c := startServer(t, root)

	var created batchJSON
	c.ok("coordinator_task", map[string]any{"operations": []any{
		create("Research authentication approaches", "- Status: pending\n- Main-Workflow: tdd-incremental-orchestration\n- Workflow: multi-option-tradeoff\n\nCompare JWT vs session-based auth\n\n@/specs/security-requirements.md"),
		create("Implement chosen auth system", "- Status: pending\n\nBuild authentication system based on research"),
		create("Write integration tests", "- Status: pending\n- Workflow: code-review-issue-based\n\nEnsure auth system works end-to-end"),
	}}, &created)
	assert.Equal(t, 3, created.OperationsCompleted)
	require.Len(t, created.Results, 3)
	assert.Equal(t, &mcpTask{Slug: "research-authentication-approaches", Title: "Research authentication approaches"}, created.Results[0].Task)
	assert.Equal(t, "implement-chosen-auth-system", created.Results[1].Task.Slug)
	assert.Equal(t, "write-integration-tests", created.Results[2].Task.Slug)
	assert.True(t, created.Success)
	assert.Equal(t, "/coordinator/active.md", created.Document)
	assert.Equal(t, "created", created.Results[0].Status)
	assert.Equal(t, today(), created.Timestamp)

	// The first start brings the Main-Workflow, the task's Workflow and its
	// references.
	var first startJSON
	c.ok("start_coordinator_task", map[string]any{}, &first)
	assert.Equal(t, "sequential", first.Mode)
	assert.Equal(t, "/coordinator/active.md", first.Document)
	assert.Equal(t, "research-authentication-approaches", first.Task.Slug)
	assert.Equal(t, "/coordinator/active.md#research-authentication-approaches", first.Task.FullPath)
	assert.Equal(t, "in_progress", first.Task.Status)
	assert.Contains(t, first.Task.Content, "Compare JWT vs session-based auth")
	assert.Equal(t, &workflowJSON{Name: "tdd-incremental-orchestration", Content: tddWorkflow}, first.Task.MainWorkflow)
	assert.Equal(t, &workflowJSON{Name: "multi-option-tradeoff", Description: "Choose between approaches",
		Content: tradeoffWorkflow, WhenToUse: []string{"Several valid designs"}}, first.Task.Workflow)
	require.Len(t, first.Task.ReferencedDocuments, 1)
	assert.Equal(t, "/specs/security-requirements.md", first.Task.ReferencedDocuments[0].Path)
	assert.Equal(t, securitySpec, first.Task.ReferencedDocuments[0].Content)

	// Starting again resumes the same task, without the Main-Workflow; after
	// a compression the agent asks for it again.
	var again, resumed startJSON
	c.ok("start_coordinator_task", map[string]any{}, &again)
	assert.Equal(t, "research-authentication-approaches", again.Task.Slug)
	assert.Nil(t, again.Task.MainWorkflow)
	c.ok("start_coordinator_task", map[string]any{"return_task_context": true}, &resumed)
	assert.Equal(t, "research-authentication-approaches", resumed.Task.Slug)
	assert.Equal(t, &workflowJSON{Name: "tdd-incremental-orchestration", Content: tddWorkflow}, resumed.Task.MainWorkflow)

	var done1, done2, done3 completeCoordinatorJSON
	c.ok("complete_coordinator_task", map[string]any{"note": "Decided on JWT with refresh tokens. Created spec document."}, &done1)
	assert.Equal(t, completedJSON{
		Slug: "research-authentication-approaches", Title: "Research authentication approaches",
		Note: "Decided on JWT with refresh tokens. Created spec document.", CompletedDate: today(),
	}, done1.CompletedTask)
	assert.Equal(t, "sequential", done1.Mode)
	assert.Equal(t, today(), done1.Timestamp)
	require.NotNil(t, done1.NextTask)
	assert.Equal(t, "implement-chosen-auth-system", done1.NextTask.Slug)
	assert.False(t, done1.Archived)
	assert.Empty(t, done1.ArchivedTo)

	c.ok("complete_coordinator_task", map[string]any{"note": "Auth system implemented with all tests passing", "include_full_workflow": true}, &done2)
	require.NotNil(t, done2.NextTask)
	assert.Equal(t, "write-integration-tests", done2.NextTask.Slug)
	assert.Equal(t, &workflowJSON{Name: "code-review-issue-based", Content: reviewWorkflow}, done2.NextTask.Workflow)

	c.ok("complete_coordinator_task", map[string]any{"note": "Integration tests complete. Feature ready for review."}, &done3)
	assert.Equal(t, "write-integration-tests", done3.CompletedTask.Slug)
	assert.Nil(t, done3.NextTask)
	assert.True(t, done3.Archived)
	assert.Regexp(t, regexp.MustCompile(`^/archived/coordinator/active-\d{4}-\d{2}-\d{2}-\d{6}(-\d+)?\.md$`), done3.ArchivedTo)

	// On disk: the list is gone, and the archive holds every task with its
	// note and date.
	files := filetest.Snapshot(t, root)
	assert.NotContains(t, files, "coordinator/active.md")
	archived, ok := files[done3.ArchivedTo[1:]]
	require.True(t, ok, "no archive at %s; files: %v", done3.ArchivedTo, keys(files))
	doc, err := taskdoc.Parse([]byte(archived))
	require.NoError(t, err)
	notes := map[string]string{
		"research-authentication-approaches": "Decided on JWT with refresh tokens. Created spec document.",
		"implement-chosen-auth-system":       "Auth system implemented with all tests passing",
		"write-integration-tests":            "Integration tests complete. Feature ready for review.",
	}
	require.Len(t, doc.Tasks, 3)
	for _, task := range doc.Tasks {
		assert.Equal(t, taskdoc.StatusCompleted, task.Status, task.Slug)
		assertField(t, task, "Note", notes[task.Slug])
		assertField(t, task, "Completed", today())
	}
	assertField(t, doc.Tasks[0], "Main-Workflow", "tdd-incremental-orchestration")

	// The list is ready for the next feature: a new create starts a fresh
	// one, again with a Main-Workflow; clear drops what is done.
	var next batchJSON
	c.ok("coordinator_task", map[string]any{"operations": []any{
		create("Plan the next feature", "- Main-Workflow: tdd-incremental-orchestration\n\nScope it."),
		create("Ship it", "Release."),
	}}, &next)
	assert.Equal(t, 2, next.OperationsCompleted)
	var planned completeCoordinatorJSON
	c.ok("complete_coordinator_task", map[string]any{"note": "Scoped.", "document": "/coordinator/active.md"}, &planned)
	assert.Equal(t, "plan-the-next-feature", planned.CompletedTask.Slug)
	var cleared batchJSON
	c.ok("coordinator_task", map[string]any{"operations": []any{
		map[string]any{"operation": "clear"},
		map[string]any{"operation": "list"},
	}}, &cleared)
	require.Len(t, cleared.Results, 2)
	assert.Equal(t, 1, *cleared.Results[0].Removed)
	assert.Equal(t, []summaryJSON{{Slug: "ship-it", Title: "Ship it", Status: "in_progress"}}, cleared.Results[1].Tasks)
	var view viewJSON
	c.ok("view_coordinator_task", map[string]any{"slugs": []string{"ship-it"}}, &view)
	require.Equal(t, 1, view.Count)
	assert.Equal(t, "/coordinator/active.md#ship-it", view.Tasks[0].FullPath)
	assert.Contains(t, view.Tasks[0].Content, "Main-Workflow: tdd-incremental-orchestration", "clear keeps the list's Main-Workflow")
}

// Scenario 2 of the design: ad-hoc tasks in a document,
// started and completed by address in any order.
func TestSubagentScenario(t *testing.T) {
	root := newRoot(t, scenarioFiles())
	c := startServer(t, root)
	const document = "/api/authentication.md"

	var created batchJSON
	c.ok("subagent_task", map[string]any{"document": document, "operations": []any{
		create("Implement JWT signing", "- Status: pending\n- Workflow: tdd-incremental-orchestration\n\nImplement token signing logic\n\n@/specs/jwt-spec.md"),
		create("Add token validation", "- Status: pending\n\nValidate tokens in middleware"),
		create("Handle token refresh", "- Status: pending\n\nImplement refresh token endpoint"),
	}}, &created)
	assert.Equal(t, 3, created.OperationsCompleted)
	require.Len(t, created.Results, 3)
	for i, slug := range []string{"implement-jwt-signing", "add-token-validation", "handle-token-refresh"} {
		assert.Equal(t, "create", created.Results[i].Operation)
		assert.Equal(t, slug, created.Results[i].Task.Slug)
	}

	// Start brings the task's Workflow and its references, recursively, and
	// never a Main-Workflow.
	var started startJSON
	c.ok("start_subagent_task", map[string]any{"document": document + "#implement-jwt-signing"}, &started)
	assert.Equal(t, document, started.Document)
	assert.Equal(t, "Implement JWT signing", started.Task.Title)
	assert.Equal(t, document+"#implement-jwt-signing", started.Task.FullPath)
	assert.Equal(t, "in_progress", started.Task.Status)
	assert.Contains(t, started.Task.Content, "Implement token signing logic")
	assert.Equal(t, &workflowJSON{Name: "tdd-incremental-orchestration", Content: tddWorkflow}, started.Task.Workflow)
	assert.Nil(t, started.Task.MainWorkflow)
	require.Len(t, started.Task.ReferencedDocuments, 1)
	jwt := started.Task.ReferencedDocuments[0]
	assert.Equal(t, "adhoc", started.Mode)
	assert.Equal(t, referenceJSON{Path: "/specs/jwt-spec.md", Title: "JWT Spec", Content: jwtSpec, Depth: 1, Namespace: "specs", Children: jwt.Children}, jwt)
	require.Len(t, jwt.Children, 1)
	assert.Equal(t, referenceJSON{
		Path: "/specs/security-requirements.md", Title: "Security Requirements", Content: securitySpec,
		Depth: 2, Namespace: "specs", Children: []referenceJSON{},
	}, jwt.Children[0], "children is [] when there are none, never null or missing")

	var done completeSubagentJSON
	c.ok("complete_subagent_task", map[string]any{"document": document + "#implement-jwt-signing", "note": "JWT signing implemented using RS256 algorithm"}, &done)
	assert.Equal(t, completeSubagentJSON{Document: document, CompletedTask: completedJSON{
		Slug: "implement-jwt-signing", Title: "Implement JWT signing",
		Note: "JWT signing implemented using RS256 algorithm", CompletedDate: today(),
	}, Timestamp: today()}, done)

	// The coordinator reviews the document, then assigns another task out
	// of order.
	var view viewJSON
	c.ok("view_subagent_task", map[string]any{"document": document}, &view)
	assert.Equal(t, 3, view.Count)
	require.Len(t, view.Tasks, 3)
	assert.Equal(t, "completed", view.Tasks[0].Status)
	assert.Contains(t, view.Tasks[0].Content, "JWT signing implemented using RS256 algorithm")
	assert.Equal(t, "pending", view.Tasks[2].Status)
	assert.Equal(t, document+"#handle-token-refresh", view.Tasks[2].FullPath)

	var one viewJSON
	c.ok("view_subagent_task", map[string]any{"document": document + "#implement-jwt-signing"}, &one)
	require.Equal(t, 1, one.Count)
	assert.Equal(t, "implement-jwt-signing", one.Tasks[0].Slug)

	var refresh startJSON
	c.ok("start_subagent_task", map[string]any{"document": document + "#handle-token-refresh"}, &refresh)
	assert.Equal(t, "handle-token-refresh", refresh.Task.Slug)

	var listed batchJSON
	c.ok("subagent_task", map[string]any{"document": document, "operations": []any{
		map[string]any{"operation": "list", "status": "in_progress"},
		map[string]any{"operation": "edit", "task": "#add-token-validation", "title": "Validate tokens"},
		map[string]any{"operation": "list"},
	}}, &listed)
	assert.Equal(t, 3, listed.OperationsCompleted)
	require.Len(t, listed.Results, 3)
	assert.Equal(t, []summaryJSON{{Slug: "handle-token-refresh", Title: "Handle token refresh", Status: "in_progress"}}, listed.Results[0].Tasks)
	assert.Equal(t, 1, *listed.Results[0].Count)
	assert.Equal(t, &mcpTask{Slug: "validate-tokens", Title: "Validate tokens"}, listed.Results[1].Task)
	assert.Equal(t, 3, *listed.Results[2].Count)

	// On disk: a document titled after its file, each task in the state the
	// tools reported.
	source := filetest.Read(t, root, "docs/api/authentication.md")
	doc, err := taskdoc.Parse([]byte(source))
	require.NoError(t, err)
	assert.Equal(t, "Authentication", doc.Title())
	require.Len(t, doc.Tasks, 3)
	assert.Equal(t, taskdoc.StatusCompleted, doc.Tasks[0].Status)
	assertField(t, doc.Tasks[0], "Note", "JWT signing implemented using RS256 algorithm")
	assertField(t, doc.Tasks[0], "Completed", today())
	assert.Equal(t, "validate-tokens", doc.Tasks[1].Slug)
	assert.Equal(t, taskdoc.StatusPending, doc.Tasks[1].Status)
	assert.Equal(t, taskdoc.StatusInProgress, doc.Tasks[2].Status)
}

func assertField(t *testing.T, task taskdoc.Task, key, want string) {
	t.Helper()
	got, ok := task.Field(key)
	assert.True(t, ok, "task %s has no %s field", task.Slug, key)
	assert.Equal(t, want, got, "task %s, field %s", task.Slug, key)
}

func keys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
