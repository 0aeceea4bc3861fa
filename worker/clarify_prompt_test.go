package worker_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/checkpoint"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/worker"
)

// The resume prompt of the checkpoint-resume protocol, written by hand.
const wantResumePrompt = "## RESUME FROM CLARIFICATION\n" +
	"\n" +
	"You were waiting for clarification and checkpointed your state.\n" +
	"\n" +
	"- Worker: `task_bg_a7e4d2`\n" +
	"- Task: `/actors/watcher.md#supervision`\n" +
	"- Checkpoint: `checkpoints/workers/task_bg_a7e4d2/000001.md`\n" +
	"- Clarification: `clarif_xyz789`\n" +
	"- Blocked at: Supervision pattern selection\n" +
	"\n" +
	"### Previous State\n" +
	"\n" +
	"Original task:\n" +
	"\n" +
	"Implement file watcher with supervision\n" +
	"\n" +
	"Completed:\n" +
	"\n" +
	"- [x] Read session logs\n" +
	"- [x] Created initial design\n" +
	"\n" +
	"In progress:\n" +
	"\n" +
	"- [ ] Supervision pattern implementation\n" +
	"\n" +
	"Blocked:\n" +
	"\n" +
	"- Supervision pattern selection (needs Q1 answer)\n" +
	"- Actor lifecycle integration (needs Q2 answer)\n" +
	"\n" +
	"Parallel work available:\n" +
	"\n" +
	"- File watching logic (independent)\n" +
	"\n" +
	"### Clarification Responses\n" +
	"\n" +
	"**Q1.** One-for-one or one-for-all supervision?\n" +
	"\n" +
	"One-for-one: the watchers are independent.\n" +
	"\n" +
	"**Q2.** Should the watcher actor restart on file system errors?\n" +
	"\n" +
	"Yes, with exponential backoff.\n" +
	"Give up after 5 restarts.\n" +
	"\n" +
	"### Resume Instructions\n" +
	"\n" +
	"Start with the supervisor.\n" +
	"\n" +
	"Next phase: implementation\n" +
	"\n" +
	"### Next Steps\n" +
	"\n" +
	"1. Apply clarification responses to blocked work\n" +
	"2. Continue implementation with answers\n" +
	"3. Complete remaining work:\n" +
	"   - [ ] Actor lifecycle integration\n" +
	"   - [ ] Tests\n" +
	"\n" +
	"### Context Preserved\n" +
	"\n" +
	"- Checkpoint: `checkpoints/workers/task_bg_a7e4d2/000001.md` (sequence 1)\n" +
	"- Decisions made: 1 recorded\n" +
	"  - Actors over goroutines with channels\n" +
	"- Files changed: `file-watcher.spec.md` (new), `src/actors/file-watcher-actor.ts` (new)\n" +
	"- Notes: in the checkpoint\n" +
	"\n" +
	"## Continue Work\n"

func TestClarifyResumePromptGolden(t *testing.T) {
	e := clSetup(t)
	ctx := clCtx(t, 10*time.Second)
	w := "task_bg_a7e4d2"
	_, err := e.cl.Ask(ctx, w, supervision)
	require.NoError(t, err)

	// Not suspended yet: no prompt.
	_, err = e.cl.ResumePrompt(ctx, w)
	assert.ErrorIs(t, err, taskdoc.ErrDocumentNotFound)

	_, err = e.cl.WithTimer(&clTimer{fire: true}).Await(ctx, w, "clarif_xyz789", checkpoint.Checkpoint{
		Task:         "/actors/watcher.md#supervision",
		OriginalTask: "Implement file watcher with supervision",
		Completed:    []string{"Read session logs", "Created initial design"},
		InProgress:   []string{"Supervision pattern implementation"},
		Remaining:    []string{"Actor lifecycle integration", "Tests"},
		Blocked:      []string{"Supervision pattern selection (needs Q1 answer)", "Actor lifecycle integration (needs Q2 answer)"},
		ParallelWork: []string{"File watching logic (independent)"},
		FilesChanged: []checkpoint.FileChange{{Path: "file-watcher.spec.md", Note: "new"}, {Path: "src/actors/file-watcher-actor.ts", Note: "new"}},
		Decisions:    []string{"Actors over goroutines with channels"},
		Notes:        "The session context is long.",
		Resumption:   "Next phase: implementation",
	}, worker.PollOptions{Duration: time.Second})
	require.ErrorIs(t, err, worker.ErrSuspended)

	// Suspended, no answer yet.
	_, err = e.cl.ResumePrompt(ctx, w)
	assert.Equal(t, taskdoc.CodeInvalidArguments, taskdoc.CodeOf(err))

	_, err = e.cl.Respond(ctx, w, "clarif_xyz789", worker.Answer{
		Responses: []worker.Response{
			{QuestionID: "Q2", Answer: "Yes, with exponential backoff.\r\nGive up after 5 restarts.\n"},
			{QuestionID: "Q1", Answer: "One-for-one: the watchers are independent."},
		},
		ResumeSignal:       true,
		ResumeInstructions: worker.ResumeInstructions{Text: "Start with the supervisor."},
	})
	require.NoError(t, err)
	got, err := e.cl.ResumePrompt(ctx, w)
	require.NoError(t, err)
	assert.Equal(t, wantResumePrompt, got)

	// Resumed and working again: no prompt.
	_, err = e.cl.Workers().Save(ctx, checkpoint.Checkpoint{Worker: w, Phase: "working"})
	require.NoError(t, err)
	_, err = e.cl.ResumePrompt(ctx, w)
	assert.Equal(t, taskdoc.CodeInvalidArguments, taskdoc.CodeOf(err))
}

// A minimal checkpoint gives the minimal prompt.
func TestClarifyResumePromptMinimal(t *testing.T) {
	e := clSetup(t)
	ctx := clCtx(t, 10*time.Second)
	_, err := e.cl.Ask(ctx, "w1", worker.Needed{ID: "c1", Questions: []worker.Question{{ID: "color", Text: "Which `color`?"}}})
	require.NoError(t, err)
	_, err = e.cl.WithTimer(&clTimer{fire: true}).Await(ctx, "w1", "c1", checkpoint.Checkpoint{}, worker.PollOptions{Duration: time.Second})
	require.ErrorIs(t, err, worker.ErrSuspended)
	_, err = e.cl.Respond(ctx, "w1", "c1", worker.Answer{Responses: []worker.Response{{QuestionID: "color", Answer: "Blue"}}, ResumeSignal: true})
	require.NoError(t, err)
	got, err := e.cl.ResumePrompt(ctx, "w1")
	require.NoError(t, err)
	assert.Equal(t, `## RESUME FROM CLARIFICATION

You were waiting for clarification and checkpointed your state.

- Worker: `+"`w1`"+`
- Checkpoint: `+"`checkpoints/workers/w1/000001.md`"+`
- Clarification: `+"`c1`"+`

### Previous State

### Clarification Responses

**color.** Which `+"`color`"+`?

Blue

### Next Steps

1. Apply clarification responses to blocked work
2. Continue implementation with answers
3. Complete remaining work

### Context Preserved

- Checkpoint: `+"`checkpoints/workers/w1/000001.md`"+` (sequence 1)
- Decisions made: 0 recorded
- Files changed: none

## Continue Work
`, got)
}
