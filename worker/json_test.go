package worker_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/checkpoint"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/worker"
)

// TestJSONNames pins the JSON form of the worker's arguments and results:
// the names of the pivot and clarification files, a checkpoint in the
// checkpoint-resume protocol's form.
func TestJSONNames(t *testing.T) {
	at := time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC)
	cp := checkpoint.Checkpoint{Worker: "w1", Status: "PARTIAL", Time: at, Sequence: 1}
	cpJSON := `{"agentId":"w1","timestamp":"2026-11-22T09:30:00Z",
		"workState":{"completed":[],"inProgress":[],"blocked":[],"parallelWorkAvailable":[]},"context":{},
		"metadata":{"status":"PARTIAL","sequence":1}}`
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"pivot", worker.Pivot{Mode: checkpoint.PivotMode("hard"), Reason: "priorities", NewTask: "/b.md#y", Task: "/a.md#x"},
			`{"mode":"hard","reason":"priorities","new_task":"/b.md#y","task":"/a.md#x"}`},
		{"needed", worker.Needed{ID: "q1", BlockedAt: "step 2", Reason: "which key?",
			Questions: []worker.Question{{ID: "Q1", Text: "RSA or EC?"}}, WorkContinues: true,
			ParallelWork: []string{"docs"}, PollDuration: 30 * time.Second},
			`{"id":"q1","blocked_at":"step 2","reason":"which key?","questions":[{"question_id":"Q1","text":"RSA or EC?"}],
			"work_continues":true,"parallel_work_available":["docs"],"poll_duration_ns":30000000000}`},
		{"paused", worker.Paused{Task: "/a.md#x", Title: "X", CheckpointPath: "checkpoints/workers/w1/000001.md", Checkpoint: &cp},
			`{"task_id":"/a.md#x","title":"X","checkpoint_path":"checkpoints/workers/w1/000001.md","checkpoint":` + cpJSON + `}`},
		{"suspended", worker.Suspended{Worker: "w1", Checkpoint: cp,
			Clarification: worker.Clarification{ID: "q1", AgentID: "w1", Timestamp: at, Questions: []worker.Question{{ID: "Q1", Text: "?"}},
				CheckpointInfo: worker.CheckpointInfo{BriefPollDuration: "60s", WillExitAfterPoll: true, ResumeRequired: true}},
			Answer: worker.Answer{RequestID: "q1", AgentID: "w1", Timestamp: at, Responses: []worker.Response{{QuestionID: "Q1", Answer: "EC"}},
				ResumeSignal: true}},
			`{"worker":"w1","checkpoint":` + cpJSON + `,
			"clarification":{"id":"q1","agent_id":"w1","timestamp":"2026-11-22T09:30:00Z","questions":[{"question_id":"Q1","text":"?"}],
				"checkpoint_info":{"brief_poll_duration":"60s","agent_will_exit_after_poll":true,"resume_required":true},"work_continues":false},
			"answer":{"request_id":"q1","agent_id":"w1","timestamp":"2026-11-22T09:30:00Z","responses":[{"question_id":"Q1","answer":"EC"}],
				"resume_signal":true,"resume_instructions":{"use_task_resume":false}}}`},
		{"resumed", worker.Resumed{Claim: plan.ClaimResult{Success: true},
			Task:  taskdoc.Task{Title: "X", Slug: "x", Level: 3, Status: taskdoc.StatusInProgress, Line: 4, Span: taskdoc.Span{End: 9}, Version: "v"},
			Brief: "go"},
			`{"claim":{"success":true},"task":{"title":"X","slug":"x","level":3,"status":"in_progress","line":4,"version":"v"},"brief":"go"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.in)
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(got))
		})
	}
}
