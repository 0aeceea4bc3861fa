package mcptools

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
)

// A client written for the agent protocol's own server, with its names and
// call shapes (workflow_create {name, source_type, source_content},
// workflow_set_plan {id, plan: {summary, tasks}}, an object-valued
// task_set_plan plan, task_update_status {id}, task_release {task_id,
// agent_id}, agent_unregister {id}), drives a whole plan; the files say
// what each call did.
func TestProtocolCallShapesDriveAPlan(t *testing.T) {
	root := t.TempDir()
	s := serveSessions(t, root, newManualClock().Now, 1)[0]
	me := s.register("worker-1")

	var created workflowSummaryJSON
	s.ok("workflow_create", map[string]any{"name": "Google OAuth", "source_type": "prompt",
		"source_content": "Add sign-in with Google accounts."}, &created)
	require.Equal(t, "/google-oauth.md", created.ID)
	doc := filetest.Read(t, root, "docs/google-oauth.md")
	assert.Equal(t, "# Google OAuth\n\nAdd sign-in with Google accounts.\n\n## Tasks\n", doc)

	s.ok("workflow_set_plan", map[string]any{"id": created.ID, "plan": map[string]any{
		"summary": "Google sign-in in two steps",
		"tasks": []map[string]any{
			{"name": "Setup OAuth", "description": "Install passport.", "parallel_group": "auth",
				"estimated_complexity": "low", "files_likely_affected": []string{"package.json", "src/auth.ts"},
				"repository_path": "/repo/web"},
			{"name": "Implement callback", "depends_on": []string{"Setup OAuth"}},
		},
	}}, nil)
	var next nextJSON
	s.ok("workflow_next_tasks", map[string]any{"workflow_id": created.ID}, &next)
	require.Equal(t, []string{"/google-oauth.md#setup-oauth"}, next.ids())
	task := next.ids()[0]

	var claim struct {
		Success bool `json:"success"`
	}
	s.ok("task_claim", map[string]any{"task_id": task, "agent_id": me}, &claim)
	require.True(t, claim.Success)
	s.ok("task_set_plan", map[string]any{"id": task, "plan": map[string]any{
		"approach":        "passport with the Google strategy",
		"steps":           []string{"install passport", "write the config"},
		"files_to_modify": []string{"package.json"},
		"files_to_create": []string{"src/auth/passport.ts"},
	}}, nil)
	s.ok("task_update_status", map[string]any{"id": task, "status": "in_progress"}, nil)
	s.ok("checkpoint_add", map[string]any{"task_id": task, "type": "progress", "summary": "passport installed",
		"files_changed": []string{"package.json"}}, nil)
	s.ok("agent_heartbeat", map[string]any{"agent_id": me, "current_task_id": task, "status": "busy"}, nil)

	doc = filetest.Read(t, root, "docs/google-oauth.md")
	assert.Contains(t, doc, "- Plan: passport with the Google strategy; steps: 1) install passport 2) write the config; files to modify: package.json; files to create: src/auth/passport.ts\n")
	assert.Contains(t, doc, "- Status: in_progress\n")
	assert.NotContains(t, doc, "two steps", "the protocol's plan.summary is not written")
	assert.Contains(t, doc, "- Complexity: low\n- Files: package.json, src/auth.ts\n- Parallel-Group: auth\n- Repository: /repo/web\n",
		"the protocol's task fields are the task's fields")
	journal := filetest.Read(t, root, "checkpoints/tasks/google-oauth.md/setup-oauth.md")
	assert.Contains(t, journal, "passport installed")

	// A second claim, released: task_release with the protocol's agent_id.
	s.ok("task_update_status", map[string]any{"id": task, "status": "completed", "outcome": "passport set up"}, nil)
	s.ok("workflow_next_tasks", map[string]any{"workflow_id": created.ID}, &next)
	require.Equal(t, []string{"/google-oauth.md#implement-callback"}, next.ids())
	callback := next.ids()[0]
	s.ok("task_claim", map[string]any{"task_id": callback, "agent_id": me}, &claim)
	require.True(t, claim.Success)
	s.ok("task_release", map[string]any{"task_id": callback, "agent_id": me}, nil)
	s.ok("agent_unregister", map[string]any{"id": me}, nil)

	doc = filetest.Read(t, root, "docs/google-oauth.md")
	setup, callbackText, _ := strings.Cut(doc, "### Implement callback")
	assert.Contains(t, setup, "- Status: completed\n")
	assert.Contains(t, setup, "- Note: passport set up\n")
	assert.Contains(t, callbackText, "- Status: pending\n")
	assert.NotContains(t, callbackText, "Assignee", "the released task is held by no one")
}

// Every alias of the table names the same argument as the tool's own name:
// the call made with either writes the same files. Each alias has a case
// here.
func TestArgumentAliases(t *testing.T) {
	const plan = "/auth.md"
	type step struct {
		tool string
		args map[string]any
	}
	// A document of ad-hoc tasks, not a plan.
	notes := step{"subagent_task", map[string]any{"document": "/notes.md",
		"operations": []any{map[string]any{"operation": "create", "title": "Write"}}}}
	claimNotes := step{"task_claim", map[string]any{"task_id": "/notes.md#write"}}
	// setup runs before the call, on a fresh workspace with the plan.
	cases := []struct {
		tool, alias string
		setup       []step
		args        func(agent string) map[string]any // with the alias
	}{
		{"task_update_status", "id", []step{{"task_claim", nil}}, func(string) map[string]any {
			return map[string]any{"id": plan + "#first", "status": "in_progress"}
		}},
		{"task_set_plan", "id", []step{{"task_claim", nil}}, func(string) map[string]any {
			return map[string]any{"id": plan + "#first", "plan": "one step at a time"}
		}},
		{"agent_unregister", "id", nil, func(agent string) map[string]any { return map[string]any{"id": agent} }},
		{"workflow_set_plan", "id", nil, func(string) map[string]any {
			return map[string]any{"id": plan, "tasks": []map[string]any{{"name": "Third"}}}
		}},
		{"task_remove", "task", nil, func(string) map[string]any { return map[string]any{"task": plan + "#second"} }},
		{"task_set_status", "task", nil, func(string) map[string]any {
			return map[string]any{"task": plan + "#second", "status": "blocked", "reason": "waits for keys"}
		}},
		{"start_subagent_task", "task_id", []step{notes, claimNotes}, func(string) map[string]any { return map[string]any{"task_id": "/notes.md#write"} }},
		{"complete_subagent_task", "task_id", []step{notes, claimNotes, {"start_subagent_task", map[string]any{"document": "/notes.md#write"}}},
			func(string) map[string]any { return map[string]any{"task_id": "/notes.md#write", "note": "done"} }},
	}
	covered := map[string]bool{}
	for _, c := range cases {
		covered[c.tool+" "+c.alias] = true
	}
	for tool, tr := range argumentTable {
		for alias := range tr.aliases {
			assert.True(t, covered[tool+" "+alias], "no case for the alias %s of %s", alias, tool)
		}
	}

	// run makes the call on a fresh workspace and returns its files.
	run := func(t *testing.T, tool string, setup []step, args func(string) map[string]any, rename bool) map[string]string {
		root := t.TempDir()
		s := serveSessions(t, root, newManualClock().Now, 1)[0]
		me := s.register("worker-1")
		s.ok("workflow_create", map[string]any{"name": "Auth", "path": plan}, nil)
		s.ok("workflow_set_plan", map[string]any{"workflow_id": plan, "tasks": []map[string]any{{"name": "First"}, {"name": "Second"}}}, nil)
		for _, st := range setup {
			a := st.args
			if st.tool == "task_claim" {
				a = map[string]any{"task_id": plan + "#first", "agent_id": me}
				if st.args != nil {
					a["task_id"] = st.args["task_id"]
				}
			}
			s.ok(st.tool, a, nil)
		}
		a := args(me)
		if rename {
			for alias, name := range argumentTable[tool].aliases {
				if v, ok := a[alias]; ok {
					delete(a, alias)
					a[name] = v
				}
			}
		}
		s.ok(tool, a, nil)
		// The agent's id differs from run to run.
		files := map[string]string{}
		for name, text := range filetest.Snapshot(t, root) {
			files[strings.ReplaceAll(name, me, "AGENT")] = strings.ReplaceAll(text, me, "AGENT")
		}
		return files
	}
	for _, c := range cases {
		t.Run(c.tool+"/"+c.alias, func(t *testing.T) {
			byAlias := run(t, c.tool, c.setup, c.args, false)
			byName := run(t, c.tool, c.setup, c.args, true)
			assert.Equal(t, byName, byAlias)
		})
	}
}

// A call that gives an argument twice, by its name and an alias, with two
// values, or a protocol shape with a bad part, is refused with
// INVALID_ARGUMENTS, and nothing is written; the same value twice is one
// argument.
func TestArgumentRefusals(t *testing.T) {
	root := t.TempDir()
	sessions := serveSessions(t, root, newManualClock().Now, 2)
	s, other := sessions[0], sessions[1]
	me := s.register("worker-1")
	someone := other.register("worker-2")
	const plan = "/auth.md"
	s.ok("workflow_create", map[string]any{"name": "Auth", "path": plan}, nil)
	s.ok("workflow_set_plan", map[string]any{"workflow_id": plan, "tasks": []map[string]any{{"name": "First"}}}, nil)
	task := plan + "#first"
	s.ok("task_claim", map[string]any{"task_id": task, "agent_id": me}, nil)
	before := filetest.Snapshot(t, root)

	for _, c := range []struct {
		tool string
		args map[string]any
		says string
	}{
		{"task_update_status", map[string]any{"id": task, "task_id": plan + "#other", "status": "in_progress"}, "give task_id alone"},
		{"agent_unregister", map[string]any{"id": someone, "agent_id": me}, "give agent_id alone"},
		{"workflow_set_plan", map[string]any{"id": "/other.md", "workflow_id": plan, "tasks": []map[string]any{{"name": "X"}}}, "give workflow_id alone"},
		{"workflow_set_plan", map[string]any{"id": plan, "plan": map[string]any{"tasks": []map[string]any{{"name": "X"}}, "steps": []string{}}}, "plan.steps"},
		{"workflow_set_plan", map[string]any{"id": plan, "plan": "two tasks"}, "plan \"two tasks\""},
		{"workflow_set_plan", map[string]any{"workflow_id": plan, "tasks": []map[string]any{{"name": "X"}}, "plan": map[string]any{"tasks": []map[string]any{{"name": "Y"}}}}, "give tasks alone"},
		{"workflow_create", map[string]any{"name": "Billing", "source_type": "email", "source_content": "x"}, "source_type \"email\""},
		{"workflow_create", map[string]any{"name": "Billing", "source_type": "prompt", "source_content": "x", "description": "y"}, "give description alone"},
		{"workflow_create", map[string]any{"name": "Billing", "source_content": 7}, "source_content 7"},
		{"task_set_plan", map[string]any{"task_id": task, "plan": map[string]any{"steps": []string{"a"}}}, "plan.approach"},
		{"task_set_plan", map[string]any{"task_id": task, "plan": map[string]any{"approach": "a", "steps": "a then b"}}, "plan.steps"},
		{"task_set_plan", map[string]any{"task_id": task, "plan": map[string]any{"approach": "a", "risk": "low"}}, "plan.risk"},
		{"start_subagent_task", map[string]any{"document": task, "task_id": plan + "#second"}, "give document alone"},
		{"task_release", map[string]any{"task_id": task, "agent_id": someone}, "acts only as it"},
		{"workflow_set_plan", map[string]any{"id": plan, "plan": map[string]any{"tasks": []map[string]any{{"name": "X", "estimated_complexity": "huge"}}}}, "tasks[0].estimated_complexity \"huge\""},
		{"workflow_set_plan", map[string]any{"id": plan, "plan": map[string]any{"tasks": []map[string]any{{"name": "X", "files_likely_affected": "a.ts"}}}}, "give a list of paths"},
		{"workflow_set_plan", map[string]any{"workflow_id": plan, "tasks": []map[string]any{{"name": "X", "parallel_group": "g", "fields": map[string]any{"Parallel-Group": "h"}}}}, "give Parallel-Group alone"},
		{"workflow_set_plan", map[string]any{"workflow_id": plan, "tasks": []map[string]any{{"name": "X", "fields": map[string]any{"Status": "done"}}}}, "the task systems' own"},
		{"workflow_set_plan", map[string]any{"workflow_id": plan, "tasks": []map[string]any{{"name": "X", "fields": map[string]any{"Bad:Key": "v"}}}}, "field key"},
	} {
		_, toolErr, err := s.try(c.tool, c.args)
		require.NoError(t, err)
		assert.True(t, strings.HasPrefix(toolErr, "INVALID_ARGUMENTS: "), "%s %v: %s", c.tool, c.args, toolErr)
		assert.Contains(t, toolErr, c.says, c.tool)
		assert.Equal(t, before, filetest.Snapshot(t, root), "%s %v wrote", c.tool, c.args)
	}

	// The same value under both names is one argument.
	s.ok("task_set_plan", map[string]any{"id": task, "task_id": task, "plan": "one step"}, nil)
	assert.Contains(t, filetest.Read(t, root, "docs/auth.md"), "- Plan: one step\n")
	// An alias belongs to its tools: task_claim has no id.
	assert.Equal(t, "INVALID_ARGUMENTS", s.fail("task_claim", map[string]any{"id": task, "agent_id": me}))
}
