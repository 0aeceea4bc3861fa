package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/taskmd/taskmd/checkpoint"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/worker"
)

// The worker's side of pivots and clarifications: a worker run from the
// command line acknowledges the pivot asked of it (pivot acknowledge),
// asks what it cannot decide alone and waits the brief poll (ask), and,
// suspended, resumes from the answer (resume-brief --worker ID).

// listFlag is a flag given once per item: --completed A --completed B.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ", ") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

// checkpointFlags give a worker checkpoint: its sections one flag each, in
// the words of the MCP tools (--completed, --in-progress, --remaining, ...,
// list flags repeated once per item), or the whole checkpoint in a file
// (--checkpoint-file F, "-" for stdin) in the Markdown or JSON form package
// checkpoint reads ("taskmd checkpoint show" prints the Markdown one).
type checkpointFlags struct {
	file                                                string
	originalTask, notes, resume                         string
	completed, inProgress, remaining, blocked, parallel listFlag
	files, decisions                                    listFlag
}

func (c *checkpointFlags) add(fs *flag.FlagSet) {
	fs.StringVar(&c.file, "checkpoint-file", "", "")
	fs.StringVar(&c.originalTask, "original-task", "", "")
	fs.Var(&c.completed, "completed", "")
	fs.Var(&c.inProgress, "in-progress", "")
	fs.Var(&c.remaining, "remaining", "")
	fs.Var(&c.blocked, "blocked", "")
	fs.Var(&c.parallel, "parallel-work-available", "")
	fs.Var(&c.files, "files-changed", "")
	fs.Var(&c.decisions, "decisions", "")
	fs.StringVar(&c.notes, "notes", "", "")
	fs.StringVar(&c.resume, "resume-instructions", "", "")
}

// checkpointUsage names the flags of a checkpoint in usage lines.
const checkpointUsage = "[--completed S]... [--in-progress S]... [--remaining S]... [--files-changed PATH]... [--decisions S]... [--resume-instructions S] | --checkpoint-file F|-"

// sections reports whether a section flag was given.
func (c *checkpointFlags) sections() bool {
	return c.originalTask != "" || c.notes != "" || c.resume != "" ||
		len(c.completed)+len(c.inProgress)+len(c.remaining)+len(c.blocked)+len(c.parallel)+len(c.files)+len(c.decisions) > 0
}

// checkpoint returns the checkpoint of worker the flags give, and whether
// they give one. A file must hold at least one section and may name no
// other worker; its time and sequence are the store's to set.
func (c *checkpointFlags) checkpoint(e *env, worker string) (checkpoint.Checkpoint, bool, error) {
	if c.file == "" {
		cp := checkpoint.Checkpoint{OriginalTask: c.originalTask, Completed: c.completed, InProgress: c.inProgress,
			Remaining: c.remaining, Blocked: c.blocked, ParallelWork: c.parallel, Decisions: c.decisions,
			Notes: c.notes, Resumption: c.resume}
		for _, f := range c.files {
			cp.FilesChanged = append(cp.FilesChanged, checkpoint.FileChange{Path: f})
		}
		return cp, c.sections(), nil
	}
	if c.sections() {
		return checkpoint.Checkpoint{}, false, usagef("--checkpoint-file and the section flags (--completed, --remaining, ...) exclude each other")
	}
	src, err := e.readInput("--checkpoint-file", c.file)
	if err != nil {
		return checkpoint.Checkpoint{}, false, err
	}
	var cp checkpoint.Checkpoint
	if bytes.HasPrefix(bytes.TrimLeft(src, "\uFEFF \t\r\n"), []byte("{")) {
		cp, err = checkpoint.ParseJSON(src)
	} else {
		cp, err = checkpoint.Parse(src)
	}
	if err != nil {
		return checkpoint.Checkpoint{}, false, err
	}
	if cp.Worker != "" && cp.Worker != worker {
		return checkpoint.Checkpoint{}, false, &taskdoc.Error{Code: taskdoc.CodeInvalidArguments,
			Msg: fmt.Sprintf("the checkpoint in %s is worker %s's, not %s's: give your own", c.file, cp.Worker, worker)}
	}
	if empty(cp) {
		return checkpoint.Checkpoint{}, false, &taskdoc.Error{Code: taskdoc.CodeInvalidArguments,
			Msg: fmt.Sprintf("%s has no checkpoint section: write Markdown sections (## Completed, ## In Progress, ## Remaining, ...) as taskmd checkpoint show prints them, or the JSON form", c.file)}
	}
	cp.Time, cp.Sequence = time.Time{}, 0
	return cp, true, nil
}

// empty reports whether c has nothing in any section.
func empty(c checkpoint.Checkpoint) bool {
	return c.OriginalTask == "" && c.Notes == "" && c.Resumption == "" && len(c.Extra) == 0 &&
		len(c.Completed)+len(c.InProgress)+len(c.Remaining)+len(c.Blocked)+len(c.ParallelWork)+len(c.FilesChanged)+len(c.Decisions) == 0
}

// pivotAcknowledge carries out the pivot asked of a worker, as the holder
// of the pivoted task's claim (--token), with its checkpoint.
func pivotAcknowledge(e *env, args []string) error {
	fs := e.flags("pivot acknowledge")
	id := fs.String("worker", "", "")
	token := fs.Int64("token", 0, "")
	var c checkpointFlags
	c.add(fs)
	if _, err := parseN(fs, args); err != nil {
		return err
	}
	if *id == "" {
		return usagef("usage: taskmd pivot acknowledge --worker ID [--token N] " + checkpointUsage)
	}
	cp, given, err := c.checkpoint(e, *id)
	if err != nil {
		return err
	}
	p, err := e.pivots()
	if err != nil {
		return err
	}
	pending, err := p.Pending(e.ctx, *id)
	if err != nil {
		return err
	}
	if pending != nil && pending.Mode != checkpoint.PivotHard && !given {
		return &taskdoc.Error{Code: taskdoc.CodeInvalidArguments,
			Msg: fmt.Sprintf("a %s pivot is acknowledged with your checkpoint: give --completed, --in-progress, --remaining, --files-changed, --resume-instructions ... or --checkpoint-file F|-", pending.Mode)}
	}
	ack, err := p.Acknowledge(e.ctx, *id, plan.Claimant{Agent: *id, Token: *token}, cp)
	if err != nil {
		var te *taskdoc.Error
		if errors.As(err, &te) && te.Code == plan.CodeStaleClaim && pending != nil && pending.Task != "" {
			return &taskdoc.Error{Code: te.Code, Path: te.Path, Slug: te.Slug,
				Msg: fmt.Sprintf("%v; give --token N, the token of your claim on %s (taskmd claim %s --agent %s prints it again)", err, pending.Task, pending.Task, *id)}
		}
		return err
	}
	return e.print(ack, func(w io.Writer) {
		fmt.Fprintf(w, "acknowledged pivot %s of %s (%s)\n", ack.ID, ack.Worker, ack.Mode)
		if ack.Checkpoint != "" {
			fmt.Fprintf(w, "checkpoint: %s\n", ack.Checkpoint)
		}
		if ack.Task != "" {
			fmt.Fprintf(w, "let go of %s\n", ack.Task)
		}
		if ack.NewClaim != nil {
			fmt.Fprintf(w, "claimed %s token %d\n", ack.NewClaim.Task, ack.NewClaim.Token)
		} else if ack.NewTask != "" {
			fmt.Fprintf(w, "new task: %s\n", ack.NewTask)
		}
	})
}

// asked is the result of ask: the request, and the answer when it came
// within the brief poll.
type asked struct {
	// Status is asked (--wait 0), answered, or suspended (the checkpoint
	// is saved: exit 6).
	Status        string               `json:"status"`
	Clarification worker.Clarification `json:"clarification"`
	Answer        *worker.Answer       `json:"answer,omitempty"`
}

// cmdAsk records a worker's clarification request and waits the brief
// poll for the answer; without one, the worker's checkpoint is saved and
// the command ends SUSPENDED (exit 6).
func cmdAsk(e *env, args []string) error {
	fs := e.flags("ask")
	id := fs.String("worker", "", "")
	task := fs.String("task", "", "")
	wait := fs.Duration("wait", worker.DefaultPollDuration, "")
	var n worker.Needed
	fs.StringVar(&n.ID, "id", "", "")
	fs.StringVar(&n.BlockedAt, "blocked-at", "", "")
	fs.StringVar(&n.Reason, "reason", "", "")
	var c checkpointFlags
	c.add(fs)
	questions, err := parse(fs, args)
	if err != nil {
		return err
	}
	if *id == "" || len(questions) == 0 {
		return usagef("usage: taskmd ask --worker ID [--id ID] [--task ADDRESS] [--blocked-at S] [--reason R] [--wait 60s] " + checkpointUsage + " QUESTION...")
	}
	if *wait < 0 {
		return &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Msg: fmt.Sprintf("--wait %v: give 0 (do not wait) or more", *wait)}
	}
	cp, given, err := c.checkpoint(e, *id)
	if err != nil {
		return err
	}
	if *wait > 0 && !given {
		return &taskdoc.Error{Code: taskdoc.CodeInvalidArguments,
			Msg: "give your checkpoint, saved if no answer comes within --wait: --completed, --in-progress, --remaining, ... or --checkpoint-file F|- (or --wait 0 to ask only)"}
	}
	if *task != "" {
		cp.Task = *task
	}
	for _, q := range questions {
		n.Questions = append(n.Questions, worker.Question{Text: q})
	}
	n.ParallelWork, n.WorkContinues, n.PollDuration = c.parallel, len(c.parallel) > 0, *wait
	cl, err := e.clarifications()
	if err != nil {
		return err
	}
	out := asked{Status: "asked"}
	if *wait == 0 {
		if out.Clarification, err = cl.Ask(e.ctx, *id, n); err != nil {
			return err
		}
		return e.print(out, func(w io.Writer) { fmt.Fprintf(w, "asked %s of %s\n", out.Clarification.ID, *id) })
	}
	req, answer, err := cl.AskAndAwait(e.ctx, *id, n, cp, worker.PollOptions{Duration: *wait, Interval: min(*wait, worker.DefaultPollInterval)})
	if taskdoc.CodeOf(err) == worker.CodeSuspended {
		out.Status, out.Clarification = "suspended", req
		if perr := e.print(out, func(w io.Writer) {
			fmt.Fprintf(w, "suspended: %s of %s has no answer yet; checkpoint %s\n", req.ID, *id, req.CheckpointInfo.CheckpointPath)
			fmt.Fprintf(w, "stop now; once taskmd answer --worker %s --id %s has answered, resume with taskmd resume-brief --worker %s\n", *id, req.ID, *id)
		}); perr != nil {
			return perr
		}
		return err
	}
	if err != nil {
		return err
	}
	out.Status, out.Clarification, out.Answer = "answered", req, &answer
	return e.print(out, func(w io.Writer) {
		fmt.Fprintf(w, "answered %s of %s\n", req.ID, *id)
		for _, r := range answer.Responses {
			fmt.Fprintf(w, "%s: %s\n", r.QuestionID, r.Answer)
		}
		if t := answer.ResumeInstructions.Text; t != "" {
			fmt.Fprintf(w, "\n%s\n", strings.TrimRight(t, "\n"))
		}
	})
}

// resumePrompt prints the prompt a worker suspended for a clarification
// resumes with, once the answer is in: its state and the answers.
func (e *env) resumePrompt(id string) error {
	cl, err := e.clarifications()
	if err != nil {
		return err
	}
	text, err := cl.ResumePrompt(e.ctx, id)
	if err != nil {
		return err
	}
	return e.print(struct {
		Worker string `json:"worker_id"`
		Prompt string `json:"resume_prompt"`
	}{id, text}, func(w io.Writer) { fmt.Fprint(w, text) })
}
