package plan_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskcontext"
	"github.com/taskmd/taskmd/taskdoc"
)

// TestJSONNames pins the JSON form of the plan results, the names of the
// agent protocol's tools (task_id, agent_id, dependencies_completed, ...). A renamed
// field fails here.
func TestJSONNames(t *testing.T) {
	at := time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC)
	claim := &plan.Claim{Task: "/a.md#x", Agent: "ag_1", Token: 7, Claimed: at, TookOverFrom: "ag_0"}
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"claim result", plan.ClaimResult{Success: true, Claim: claim},
			`{"success":true,"claim":{"task_id":"/a.md#x","agent_id":"ag_1","token":7,"claimed":"2026-11-22T09:30:00Z","took_over_from":"ag_0"}}`},
		{"claimed already", plan.ClaimResult{AlreadyClaimedBy: "ag_2"}, `{"success":false,"already_claimed_by":"ag_2"}`},
		{"next task", plan.NextTask{ID: "/a.md#y", Title: "Y", Status: taskdoc.StatusPending, DependsOn: []string{"#x"},
			DependenciesCompleted: true, CanParallelize: true, Stranded: true, PreviousHolder: "ag_0"},
			`{"id":"/a.md#y","title":"Y","status":"pending","depends_on":["#x"],"dependencies_completed":true,"can_parallelize":true,
			"stranded":true,"previous_holder":"ag_0"}`},
		{"progress", plan.Progress{Plan: "/a.md", Title: "A", Status: taskdoc.StatusInProgress, Total: 2,
			Counts: map[taskdoc.Status]int{taskdoc.StatusCompleted: 1, taskdoc.StatusInProgress: 1}, Percent: 50,
			Current: []plan.TaskState{{ID: "/a.md#y", Title: "Y", Status: taskdoc.StatusInProgress, Holder: "ag_1", HolderOnline: true}}},
			`{"workflow_id":"/a.md","title":"A","status":"in_progress","total":2,"counts":{"completed":1,"in_progress":1},
			"percent_complete":50,"current_tasks":[{"id":"/a.md#y","title":"Y","status":"in_progress","holder":"ag_1","holder_online":true}]}`},
		{"summary", plan.Summary{ID: "/a.md", Title: "A", Status: taskdoc.StatusPending, Total: 0, Counts: map[taskdoc.Status]int{}},
			`{"id":"/a.md","title":"A","status":"pending","total":0,"counts":{}}`},
		{"task context", plan.TaskContext{
			Plan:        plan.PlanContext{ID: "/a.md", Title: "A"},
			CurrentTask: plan.CurrentTask{ID: "/a.md#x", Title: "X", Status: taskdoc.StatusInProgress, Text: "do", Checkpoints: []plan.ContextCheckpoint{}},
			PriorTasks:  []plan.Text{}, DependencyOutcomes: []plan.Text{{ID: "/a.md#w", Text: "done"}}, References: []plan.Text{},
			Tokens: 10, MaxTokens: 100, Cut: []taskcontext.Cut{{Kind: "reference", Name: "/b.md", Tokens: 40}}},
			`{"workflow":{"id":"/a.md","title":"A"},"current_task":{"id":"/a.md#x","title":"X","status":"in_progress","text":"do","checkpoints":[]},
			"prior_tasks":[],"dependency_outcomes":[{"id":"/a.md#w","text":"done"}],"references":[],"tokens":10,"max_tokens":100,
			"cut":[{"kind":"reference","name":"/b.md","tokens":40,"shortened":false}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.in)
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(got))
		})
	}
}
