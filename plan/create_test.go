package plan_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
)

// TestCreateAndSetPlanGolden: the text Create and SetPlan write, in full,
// as written by hand (a task as taskdoc.Document.AddTask lays it out: a
// blank line under its heading); their retries write nothing.
func TestCreateAndSetPlanGolden(t *testing.T) {
	c := newClock()
	p, root := setup(t, c, map[string]string{"docs/other.md": otherPlan})

	sum, err := p.Create(ctx, plan.NewPlan{Name: "  Auth\nService ", Summary: "\r\nStateless auth for the API.\r\n\r\nKeys come from the vault.\r\n\r\n"})
	require.NoError(t, err)
	assert.Equal(t, plan.Summary{ID: "/auth-service.md", Title: "Auth Service", Status: taskdoc.StatusPlanning, Counts: counts(nil)}, sum)
	const created = "# Auth Service\n" +
		"\n" +
		"Stateless auth for the API.\n" +
		"\n" +
		"Keys come from the vault.\n" +
		"\n" +
		"## Tasks\n"
	assert.Equal(t, created, filetest.Read(t, root, "docs/auth-service.md"))

	before := freeze(t, root)
	again, err := p.Create(ctx, plan.NewPlan{Name: "Auth Service", Summary: "another summary is not a conflict"})
	require.NoError(t, err)
	assert.Equal(t, sum, again)
	requireUntouched(t, root, before, "a retried Create")

	tasks := []plan.PlannedTask{
		{Title: "Setup OAuth", Description: "\nInstall the provider.\n\nRegister the app.\n\n"},
		{Title: "Implement JWT\nsigning", DependsOn: []string{"Setup OAuth"}, Workflow: " tdd ", Description: "Sign with RS256."},
		{Title: "Write docs", DependsOn: []string{"#setup-oauth", " implement jwt signing ", "/other.md#done-thing"}},
	}
	got, err := p.SetPlan(ctx, "/auth-service.md", tasks)
	require.NoError(t, err)
	const planned = "# Auth Service\n" +
		"\n" +
		"Stateless auth for the API.\n" +
		"\n" +
		"Keys come from the vault.\n" +
		"\n" +
		"## Tasks\n" +
		"\n" +
		"### Setup OAuth\n" +
		"\n" +
		"- Status: pending\n" +
		"\n" +
		"Install the provider.\n" +
		"\n" +
		"Register the app.\n" +
		"\n" +
		"### Implement JWT signing\n" +
		"\n" +
		"- Status: pending\n" +
		"- Depends-On: #setup-oauth\n" +
		"- Workflow: tdd\n" +
		"\n" +
		"Sign with RS256.\n" +
		"\n" +
		"### Write docs\n" +
		"\n" +
		"- Status: pending\n" +
		"- Depends-On: #setup-oauth, #implement-jwt-signing, /other.md#done-thing\n"
	assert.Equal(t, planned, filetest.Read(t, root, "docs/auth-service.md"))
	require.Len(t, got, 3)
	assert.Equal(t, []string{"Setup OAuth", "Implement JWT signing", "Write docs"}, []string{got[0].Title, got[1].Title, got[2].Title})
	assert.Equal(t, []string{"setup-oauth", "implement-jwt-signing", "write-docs"}, []string{got[0].Slug, got[1].Slug, got[2].Slug})
	for _, tk := range got {
		assert.Equal(t, taskdoc.StatusPending, tk.Status)
	}

	// The retry, as the caller sent it, writes nothing and answers the same.
	before = freeze(t, root)
	retried, err := p.SetPlan(ctx, "/auth-service.md", tasks)
	require.NoError(t, err)
	assert.Equal(t, got, retried)
	requireUntouched(t, root, before, "a retried SetPlan")
	// So does a retry of part of it.
	part, err := p.SetPlan(ctx, "/auth-service.md", tasks[2:])
	require.NoError(t, err)
	assert.Equal(t, got[2:], part)
	requireUntouched(t, root, before, "a retried part of a SetPlan")

	// A task of the same title and another content is DUPLICATE_TASK.
	_, err = p.SetPlan(ctx, "/auth-service.md", []plan.PlannedTask{{Title: "Setup OAuth", Description: "something else"}})
	requireCode(t, err, taskdoc.CodeDuplicateTask)
	requireUntouched(t, root, before, "a duplicate task")

	// More tasks go at the end, depending on tasks already there.
	_, err = p.SetPlan(ctx, "/auth-service.md", []plan.PlannedTask{{Title: "Release", DependsOn: []string{"Write docs"}}})
	require.NoError(t, err)
	assert.Equal(t, planned+"\n### Release\n\n- Status: pending\n- Depends-On: #write-docs\n", filetest.Read(t, root, "docs/auth-service.md"))

	sum, err = p.Create(ctx, plan.NewPlan{Name: "Auth Service"})
	require.NoError(t, err)
	assert.Equal(t, plan.Summary{ID: "/auth-service.md", Title: "Auth Service", Status: taskdoc.StatusPending, Total: 4,
		Counts: counts(map[taskdoc.Status]int{taskdoc.StatusPending: 4})}, sum, "a retried Create answers the plan as it is now")
}

// TestSetPlanCreatesPlan: SetPlan on a plan that does not exist creates it,
// titled from its file name.
func TestSetPlanCreatesPlan(t *testing.T) {
	c := newClock()
	p, root := setup(t, c, nil)
	_, err := p.SetPlan(ctx, "/api/user-management.md", []plan.PlannedTask{{Title: "Add users"}, {Title: "Remove users", DependsOn: []string{"Add users"}}})
	require.NoError(t, err)
	const want = "# User Management\n" +
		"\n" +
		"## Tasks\n" +
		"\n" +
		"### Add users\n" +
		"\n" +
		"- Status: pending\n" +
		"\n" +
		"### Remove users\n" +
		"\n" +
		"- Status: pending\n" +
		"- Depends-On: #add-users\n"
	assert.Equal(t, want, filetest.Read(t, root, "docs/api/user-management.md"))
}

// A planned task's Fields are written after its own, in order; the same
// call again is a retry that writes nothing, one with another value is
// DUPLICATE_TASK; a field the task systems keep, a key that would not
// read back, a key given twice and an empty value are refused, and
// nothing is written.
func TestSetPlanFields(t *testing.T) {
	c := newClock()
	p, root := setup(t, c, nil)
	tasks := []plan.PlannedTask{{Title: "Add users", Workflow: "tdd",
		Fields: []taskdoc.Field{{Key: "Complexity", Value: "low"}, {Key: "Files", Value: "users.go"}}}}
	_, err := p.SetPlan(ctx, "/users.md", tasks)
	require.NoError(t, err)
	want := "# Users\n\n## Tasks\n\n### Add users\n\n- Status: pending\n- Workflow: tdd\n- Complexity: low\n- Files: users.go\n"
	assert.Equal(t, want, filetest.Read(t, root, "docs/users.md"))

	_, err = p.SetPlan(ctx, "/users.md", tasks)
	require.NoError(t, err, "the same call again is a retry")
	assert.Equal(t, want, filetest.Read(t, root, "docs/users.md"))
	tasks[0].Fields[0].Value = "high"
	_, err = p.SetPlan(ctx, "/users.md", tasks)
	requireCode(t, err, taskdoc.CodeDuplicateTask)

	before := freeze(t, root)
	for _, f := range [][]taskdoc.Field{
		{{Key: "Assignee", Value: "w1"}},
		{{Key: "status", Value: "completed"}},
		{{Key: "Bad:Key", Value: "v"}},
		{{Key: "-lead", Value: "v"}},
		{{Key: "Owner", Value: "a"}, {Key: "owner", Value: "b"}},
		{{Key: "Owner", Value: " "}},
	} {
		_, err := p.SetPlan(ctx, "/users.md", []plan.PlannedTask{{Title: "Remove users", Fields: f}})
		requireCode(t, err, taskdoc.CodeInvalidArguments)
	}
	requireUntouched(t, root, before, "a refused field")
}

// TestCreateRefusals: a conflicting Create is CONFLICT, a summary that
// would open a Tasks section or hold tasks and a name that gives no file
// name are INVALID_ARGUMENTS; nothing is written.
func TestCreateRefusals(t *testing.T) {
	c := newClock()
	p, root := setup(t, c, map[string]string{"docs/auth.md": authPlan})
	before := freeze(t, root)

	_, err := p.Create(ctx, plan.NewPlan{Path: "/auth.md", Name: "Authentication"})
	requireCode(t, err, taskdoc.CodeConflict)
	assert.Contains(t, err.Error(), `"Auth"`, "the error says what the plan there is called")
	requireUntouched(t, root, before, "a conflicting Create")

	for _, tc := range []struct {
		name string
		np   plan.NewPlan
		code taskdoc.Code
	}{
		{"tasks heading", plan.NewPlan{Name: "New", Summary: "Intro.\n\n## Tasks\n\n### Sneaky\n- Status: pending\n"}, taskdoc.CodeInvalidArguments},
		{"tasks heading alone", plan.NewPlan{Name: "New", Summary: "## Tasks"}, taskdoc.CodeInvalidArguments},
		{"tasks heading level 1", plan.NewPlan{Name: "New", Summary: "# Tasks\n\nwhat to do"}, taskdoc.CodeInvalidArguments},
		{"empty name", plan.NewPlan{Name: " \n "}, taskdoc.CodeInvalidArguments},
		{"name without a slug", plan.NewPlan{Name: "!!!"}, taskdoc.CodeInvalidArguments},
		{"NUL in the name", plan.NewPlan{Name: "x\x00y"}, taskdoc.CodeControlCharacter},
		{"NUL in the name of a plan at a path", plan.NewPlan{Path: "/new.md", Name: "New\x00"}, taskdoc.CodeControlCharacter},
		{"vertical tab in the name", plan.NewPlan{Name: "New\vPlan"}, taskdoc.CodeControlCharacter},
		{"C1 control in the name", plan.NewPlan{Name: "New\u0085Plan"}, taskdoc.CodeControlCharacter},
		{"name not UTF-8", plan.NewPlan{Name: "New \xff"}, taskdoc.CodeInvalidUTF8},
		{"escape in the summary", plan.NewPlan{Name: "New", Summary: "\x1b[31mred"}, taskdoc.CodeControlCharacter},
		{"path of a task", plan.NewPlan{Path: "/new.md#x", Name: "New"}, taskdoc.CodeInvalidAddress},
		{"path outside docs", plan.NewPlan{Path: "/../new.md", Name: "New"}, taskdoc.CodeInvalidAddress},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := p.Create(ctx, tc.np)
			requireCode(t, err, tc.code)
			requireUntouched(t, root, before, tc.name)
		})
	}
}

// Create refuses a document that is not a plan.
func TestCreateOverANonPlanDocument(t *testing.T) {
	p, root := setup(t, newClock(), map[string]string{"docs/notes.md": "# Notes\n\nJust notes.\n"})
	before := filetest.Snapshot(t, root)
	_, err := p.Create(ctx, plan.NewPlan{Path: "/notes.md", Name: "Notes"})
	assert.Equal(t, taskdoc.CodeConflict, taskdoc.CodeOf(err))
	assert.Equal(t, before, filetest.Snapshot(t, root))
}
