package worker

import (
	"context"
	"fmt"
	"strings"

	"github.com/taskmd/taskmd/checkpoint"
)

// ResumePrompt renders the checkpoint-resume protocol's resume prompt for a suspended worker as
// Markdown, from its current checkpoint and the answer to the request it
// waits for: the previous state, the clarification responses, the resume
// instructions, the next steps and the context preserved. The parent
// resumes the worker with it. A worker whose current checkpoint does not
// wait for a clarification, or whose request has no final answer yet, is
// INVALID_ARGUMENTS; a worker without checkpoints is DOCUMENT_NOT_FOUND.
func (c *Clarifications) ResumePrompt(ctx context.Context, worker string) (string, error) {
	cp, err := c.workers.Get(ctx, worker, 0)
	if err != nil {
		return "", err
	}
	if cp.Phase != PhaseWaitingClarification || cp.Clarification == "" {
		return "", invalidArg(fmt.Sprintf("worker %s does not wait for a clarification: its checkpoint %d is in phase %q", worker, cp.Sequence, cp.Phase))
	}
	req, a, err := c.Get(ctx, worker, cp.Clarification)
	if err != nil {
		return "", err
	}
	if a == nil {
		return "", invalidArg(fmt.Sprintf("clarification %s of worker %s has no answer with the resume signal yet", cp.Clarification, worker))
	}
	return resumePrompt(cp, req, *a), nil
}

func resumePrompt(cp checkpoint.Checkpoint, req Clarification, a Answer) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("## RESUME FROM CLARIFICATION\n\n")
	p("You were waiting for clarification and checkpointed your state.\n\n")
	p("- Worker: %s\n", code(cp.Worker))
	if cp.Task != "" {
		p("- Task: %s\n", code(cp.Task))
	}
	p("- Checkpoint: %s\n", code(checkpoint.WorkerFile(cp.Worker, cp.Sequence)))
	p("- Clarification: %s\n", code(req.ID))
	if req.BlockedAt != "" {
		p("- Blocked at: %s\n", req.BlockedAt)
	}

	p("\n### Previous State\n")
	list := func(title, mark string, items []string) {
		if len(items) == 0 {
			return
		}
		p("\n%s:\n\n", title)
		for _, it := range items {
			p("- %s%s\n", mark, it)
		}
	}
	if cp.OriginalTask != "" {
		p("\nOriginal task:\n\n%s\n", cp.OriginalTask)
	}
	list("Completed", "[x] ", cp.Completed)
	list("In progress", "[ ] ", cp.InProgress)
	list("Blocked", "", cp.Blocked)
	list("Parallel work available", "", cp.ParallelWork)

	p("\n### Clarification Responses\n")
	answers := map[string]string{}
	for _, r := range a.Responses {
		answers[r.QuestionID] = r.Answer
	}
	for _, q := range req.Questions {
		p("\n**%s.** %s\n\n%s\n", q.ID, q.Text, answers[q.ID])
	}

	if a.ResumeInstructions.Text != "" || cp.Resumption != "" {
		p("\n### Resume Instructions\n")
		if a.ResumeInstructions.Text != "" {
			p("\n%s\n", a.ResumeInstructions.Text)
		}
		if cp.Resumption != "" {
			p("\n%s\n", cp.Resumption)
		}
	}

	p("\n### Next Steps\n\n")
	p("1. Apply clarification responses to blocked work\n")
	p("2. Continue implementation with answers\n")
	if len(cp.Remaining) == 0 {
		p("3. Complete remaining work\n")
	} else {
		p("3. Complete remaining work:\n")
		for _, it := range cp.Remaining {
			p("   - [ ] %s\n", it)
		}
	}

	p("\n### Context Preserved\n\n")
	p("- Checkpoint: %s (sequence %d)\n", code(checkpoint.WorkerFile(cp.Worker, cp.Sequence)), cp.Sequence)
	p("- Decisions made: %d recorded\n", len(cp.Decisions))
	for _, d := range cp.Decisions {
		p("  - %s\n", d)
	}
	if len(cp.FilesChanged) == 0 {
		p("- Files changed: none\n")
	} else {
		files := make([]string, len(cp.FilesChanged))
		for i, f := range cp.FilesChanged {
			files[i] = code(f.Path)
			if f.Note != "" {
				files[i] += " (" + f.Note + ")"
			}
		}
		p("- Files changed: %s\n", strings.Join(files, ", "))
	}
	if cp.Notes != "" {
		p("- Notes: in the checkpoint\n")
	}
	p("\n## Continue Work\n")
	return b.String()
}

// code writes s as a Markdown code span, delimited by one backtick more
// than its longest run of backticks.
func code(s string) string {
	run, longest := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if longest > 0 {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}
