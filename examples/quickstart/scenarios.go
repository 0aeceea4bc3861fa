package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/subagent"
	"github.com/taskmd/taskmd/taskcontext"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// coordinatorScenario is scenario 1: the coordinator's sequential list, used
// in place of a to-do list that a context compression would lose.
func coordinatorScenario(ctx context.Context, ws *workspace.Workspace, out io.Writer) error {
	fmt.Fprintln(out, "\n== scenario 1: coordinator, sequential ==")
	list := coordinator.New(ws)
	created, err := list.Create(ctx,
		taskdoc.NewTask{Title: "Research authentication approaches", Content: "- Status: pending\n- Main-Workflow: tdd-incremental-orchestration\n- Workflow: multi-option-tradeoff\n\nCompare JWT vs session-based auth\n\n@/specs/security-requirements.md"},
		taskdoc.NewTask{Title: "Implement chosen auth system", Content: "- Status: pending\n\nBuild authentication system based on research"},
		taskdoc.NewTask{Title: "Write integration tests", Content: "- Status: pending\n- Workflow: code-review-issue-based\n\nEnsure auth system works end-to-end"},
	)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "create: %d tasks in %s\n", len(created), coordinator.Address)

	first, err := list.Start(ctx, coordinator.StartOptions{})
	if err != nil {
		return err
	}
	describe(out, "start", first.Task, first.MainWorkflow, first.Workflow, first.References, first.Missing)
	if err := check(first.MainWorkflow != nil, "the first start carries no Main-Workflow"); err != nil {
		return err
	}
	resumed, err := list.Start(ctx, coordinator.StartOptions{FullContext: true})
	if err != nil {
		return err
	}
	describe(out, "start after a compression", resumed.Task, resumed.MainWorkflow, resumed.Workflow, resumed.References, resumed.Missing)
	if err := check(resumed.Task.Slug == first.Task.Slug && resumed.MainWorkflow != nil, "the resume returned %q without Main-Workflow", resumed.Task.Slug); err != nil {
		return err
	}

	notes := []string{
		"Decided on JWT with refresh tokens. Created spec document.",
		"Auth system implemented with all tests passing",
		"Integration tests complete. Feature ready for review.",
	}
	for i, note := range notes {
		done, err := list.Complete(ctx, note, coordinator.CompleteOptions{})
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "complete %q on %s: %s\n", done.Task.Slug, done.Date, done.Note)
		last := i == len(notes)-1
		if err := check(last == (done.Next == nil) && last == (done.ArchivedTo != ""), "complete %d returned next=%v archive=%q", i+1, done.Next != nil, done.ArchivedTo); err != nil {
			return err
		}
		if done.Next != nil {
			describe(out, "  next", done.Next.Task, done.Next.MainWorkflow, done.Next.Workflow, done.Next.References, done.Next.Missing)
		} else {
			fmt.Fprintf(out, "  every task is completed: the list moved to %s\n", done.ArchivedTo)
		}
	}
	return nil
}

// subagentScenario is scenario 2: tasks in a document,
// handed to subagents one at a time, in any order.
func subagentScenario(ctx context.Context, ws *workspace.Workspace, out io.Writer) error {
	fmt.Fprintln(out, "\n== scenario 2: subagent, ad hoc ==")
	const doc = "/api/authentication.md"
	tasks := subagent.New(ws)
	created, err := tasks.Create(ctx, doc,
		taskdoc.NewTask{Title: "Implement JWT signing", Content: "- Status: pending\n- Workflow: tdd-incremental-orchestration\n\nImplement token signing logic\n\n@/specs/jwt-spec.md"},
		taskdoc.NewTask{Title: "Add token validation", Content: "- Status: pending\n\nValidate tokens in middleware"},
		taskdoc.NewTask{Title: "Handle token refresh", Content: "- Status: pending\n\nImplement refresh token endpoint"},
	)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "create: %d tasks in %s\n", len(created), doc)

	// A subagent task is named by its address, document#slug: starting
	// the document alone is refused, and the quickstart shows how.
	_, err = tasks.Start(ctx, doc)
	if err := check(taskdoc.CodeOf(err) == taskdoc.CodeSubagentRequiresSlug, "got %v", err); err != nil {
		return err
	}
	fmt.Fprintf(out, "start %s without #slug: refused, as expected (%s: %v)\n", doc, taskdoc.CodeOf(err), err)
	order := []struct{ slug, note string }{
		{"implement-jwt-signing", "JWT signing implemented using RS256 algorithm"},
		{"handle-token-refresh", "Refresh endpoint rotates the refresh token on every use"},
		{"add-token-validation", "Middleware rejects expired and badly signed tokens"},
	}
	for _, step := range order {
		if err := startAndComplete(ctx, tasks, doc+"#"+step.slug, step.note, out); err != nil {
			return err
		}
		if err := review(ctx, tasks, doc, out); err != nil {
			return err
		}
	}
	return nil
}

// startAndComplete runs one subagent assignment.
func startAndComplete(ctx context.Context, tasks *subagent.Tasks, address, note string, out io.Writer) error {
	st, err := tasks.Start(ctx, address)
	if err != nil {
		return err
	}
	describe(out, "start "+address, st.Task, nil, st.Workflow, st.References, st.Missing)
	if err := check(st.Task.Status == taskdoc.StatusInProgress && len(st.Missing) == 0, "start left %s, missing %v", st.Task.Status, st.Missing); err != nil {
		return err
	}
	done, err := tasks.Complete(ctx, address, note)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "complete %s on %s: %s\n", address, done.Date, done.Note)
	return check(done.Task.Status == taskdoc.StatusCompleted, "complete left %s", done.Task.Status)
}

// review is the coordinator looking at the document between assignments.
func review(ctx context.Context, tasks *subagent.Tasks, doc string, out io.Writer) error {
	all, err := tasks.List(ctx, doc)
	if err != nil {
		return err
	}
	var states []string
	for _, t := range all {
		states = append(states, t.Slug+"="+string(t.Status))
	}
	fmt.Fprintf(out, "  review %s: %s\n", doc, strings.Join(states, ", "))
	return nil
}

// describe prints what a start returned.
func describe(out io.Writer, step string, task taskdoc.Task, main, wf *taskcontext.Workflow, refs []taskcontext.LoadedDocument, missing []string) {
	fmt.Fprintf(out, "%s: %q (%s)\n", step, task.Title, task.Status)
	if main != nil {
		fmt.Fprintf(out, "  main workflow: %s\n", main.Name)
	}
	if wf != nil {
		fmt.Fprintf(out, "  workflow: %s\n", wf.Name)
	}
	printReferences(out, refs)
	if len(missing) > 0 {
		fmt.Fprintf(out, "  missing: %s\n", strings.Join(missing, ", "))
	}
}

func printReferences(out io.Writer, refs []taskcontext.LoadedDocument) {
	for _, r := range refs {
		fmt.Fprintf(out, "  %sreference %s (%q)\n", strings.Repeat("  ", r.Depth-1), r.Path, r.Title)
		printReferences(out, r.Children)
	}
}
