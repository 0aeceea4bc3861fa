package main

import (
	"fmt"
	"io"
	"os"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/query"
	"github.com/taskmd/taskmd/subagent"
	"github.com/taskmd/taskmd/taskdoc"
)

// document reads a document address ("/api/auth.md"), refusing a task
// address.
func document(s string) (string, error) {
	a, err := taskdoc.ParseAddress(s)
	if err != nil {
		return "", err
	}
	if a.Slug != "" {
		return "", &taskdoc.Error{Code: taskdoc.CodeInvalidAddress, Path: s, Msg: "a document address has no #slug: " + s}
	}
	return a.Path, nil
}

// coordinatorTask reads a task address and reports whether it names a
// task of the coordinator list, which is changed through package
// coordinator by its plain slug.
func coordinatorTask(s string) (taskdoc.Address, bool, error) {
	a, err := taskdoc.ParseAddress(s)
	if err != nil {
		return a, false, err
	}
	return a, a.Path == coordinator.Address && a.Slug != "", nil
}

func (e *env) subagents() (*subagent.Tasks, error) {
	ws, err := e.workspace()
	if err != nil {
		return nil, err
	}
	return subagent.New(ws, subagent.WithClock(e.now), subagent.WithOverride(e.override)), nil
}

// printTasks prints tasks as a list (status, address, title) or, full, as
// Markdown.
func (e *env) printTasks(tasks []query.Match, full bool) error {
	if tasks == nil {
		tasks = []query.Match{}
	}
	return e.print(tasksOf(tasks), func(w io.Writer) {
		if !full {
			table(w, taskRows(tasks))
			return
		}
		for i, t := range tasks {
			if i > 0 {
				fmt.Fprintln(w)
			}
			writeTask(w, t)
		}
	})
}

func cmdShow(e *env, args []string) error {
	pos, err := parseN(e.flags("show"), args, "ADDRESS|DOC")
	if err != nil {
		return err
	}
	a, err := taskdoc.ParseAddress(pos[0])
	if err != nil {
		return err
	}
	var slugs []string
	if a.Slug != "" {
		slugs = []string{a.Slug}
	}
	var tasks []taskdoc.Task
	if a.Path == coordinator.Address {
		c, err := e.coordinator()
		if err != nil {
			return err
		}
		tasks, err = c.View(e.ctx, slugs...)
		if err != nil {
			return err
		}
	} else {
		s, err := e.subagents()
		if err != nil {
			return err
		}
		if tasks, err = s.View(e.ctx, a.Path, slugs...); err != nil {
			return err
		}
	}
	return e.printTasks(at(a.Path, tasks), true)
}

// content reads --content or --content-file (a file name, or - for stdin).
func (e *env) content(text, file string) (string, error) {
	if file == "" {
		return text, nil
	}
	if text != "" {
		return "", usagef("--content and --content-file exclude each other")
	}
	b, err := e.readInput("--content-file", file)
	return string(b), err
}

// readInput reads the file a flag names, or stdin for "-".
func (e *env) readInput(flag, file string) ([]byte, error) {
	var b []byte
	var err error
	if file == "-" {
		b, err = io.ReadAll(e.stdin)
	} else {
		b, err = os.ReadFile(file)
	}
	if err != nil {
		return nil, &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Msg: flag, Err: err}
	}
	return b, nil
}

// created prints the tasks a create made.
func (e *env) created(tasks []query.Match) error {
	return e.print(tasksOf(tasks), func(w io.Writer) {
		for _, t := range tasks {
			fmt.Fprintf(w, "created %s\n", t.Address)
		}
	})
}

func cmdCreate(e *env, args []string) error {
	fs := e.flags("create")
	title := fs.String("title", "", "")
	text := fs.String("content", "", "")
	file := fs.String("content-file", "", "")
	after := fs.String("after", "", "")
	pos, err := parseN(fs, args, "DOC --title T [--content C | --content-file F|-] [--after SLUG]")
	if err != nil {
		return err
	}
	if *title == "" {
		return usagef("create needs --title")
	}
	body, err := e.content(*text, *file)
	if err != nil {
		return err
	}
	doc, err := document(pos[0])
	if err != nil {
		return err
	}
	s, err := e.subagents()
	if err != nil {
		return err
	}
	tasks, err := s.Create(e.ctx, doc, taskdoc.NewTask{Title: *title, Content: body, After: *after})
	if err != nil {
		return err
	}
	return e.created(at(doc, tasks))
}

func cmdStart(e *env, args []string) error {
	fs := e.flags("start")
	forced := e.forceFlag(fs)
	pos, err := parseN(fs, args, "ADDRESS [--force]")
	if err != nil {
		return err
	}
	forced()
	s, err := e.subagents()
	if err != nil {
		return err
	}
	st, err := s.Start(e.ctx, pos[0])
	if err != nil {
		return err
	}
	out := struct {
		Task taskJSON `json:"task"`
		*subagent.Started
	}{taskOf(st.Document, st.Task), st}
	return e.print(out, func(w io.Writer) {
		writeTask(w, at(st.Document, []taskdoc.Task{st.Task})[0])
		writeContext(w, st.Workflow, st.References, st.Missing)
	})
}

func cmdComplete(e *env, args []string) error {
	fs := e.flags("complete")
	note := fs.String("note", "", "")
	var c claimFlags
	c.add(fs)
	forced := e.forceFlag(fs)
	pos, err := parseN(fs, args, "ADDRESS --note N [--agent A --token N | --force]")
	if err != nil {
		return err
	}
	forced()
	if c.agent != "" {
		return e.updateStatus(pos[0], c, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: *note})
	}
	return e.complete(pos[0], *note)
}

// complete completes the task at address with note, as a person.
func (e *env) complete(address, note string) error {
	s, err := e.subagents()
	if err != nil {
		return err
	}
	done, err := s.Complete(e.ctx, address, note)
	if err != nil {
		return err
	}
	out := struct {
		Task taskJSON `json:"task"`
		*subagent.Completed
	}{taskOf(done.Document, done.Task), done}
	return e.print(out, func(w io.Writer) {
		addr := taskdoc.Address{Path: done.Document, Slug: done.Task.Slug}.String()
		fmt.Fprintf(w, "completed %s %s\n", addr, done.Date)
	})
}

// cmdStatus sets a task's status: by hand (block, unblock, reopen, fail,
// any move of the status machine; completed is a completion with --note,
// or --outcome, the agent protocol's name for it), or, with --agent, as
// the claim holder reports it (fenced).
func cmdStatus(e *env, args []string) error {
	fs := e.flags("status")
	reason := fs.String("reason", "", "")
	errText := fs.String("error", "", "")
	note := fs.String("note", "", "")
	fs.StringVar(note, "outcome", "", "") // the agent protocol's name for the note
	var c claimFlags
	c.add(fs)
	forced := e.forceFlag(fs)
	pos, err := parseN(fs, args, "ADDRESS", "STATUS [--reason R | --error E | --note N] [--agent A --token N | --force]")
	if err != nil {
		return err
	}
	forced()
	status, err := taskdoc.ParseStatus(pos[1])
	if err != nil {
		return err
	}
	if *reason != "" && *errText != "" {
		return usagef("--reason and --error exclude each other")
	}
	if *note != "" && status != taskdoc.StatusCompleted {
		return usagef("--note (--outcome) goes with status completed, not %s", status)
	}
	if c.agent != "" {
		return e.updateStatus(pos[0], c, plan.StatusUpdate{Status: status, Note: *note, Error: *errText + *reason})
	}
	a, inList, err := coordinatorTask(pos[0])
	if err != nil {
		return err
	}
	if status == taskdoc.StatusCompleted {
		if inList {
			return e.completeListTask(a, *note)
		}
		return e.complete(pos[0], *note)
	}
	var t taskdoc.Task
	if inList {
		c, err := e.coordinator()
		if err != nil {
			return err
		}
		t, err = c.SetStatus(e.ctx, a.Slug, status, *reason+*errText)
		if err != nil {
			return err
		}
	} else {
		s, err := e.subagents()
		if err != nil {
			return err
		}
		if t, err = s.SetStatus(e.ctx, pos[0], status, *reason+*errText); err != nil {
			return err
		}
	}
	return e.printStatus(at(a.Path, []taskdoc.Task{t})[0])
}

// completeListTask completes the coordinator task a with note through
// coordinator Complete, which completes the list's current task: a must
// be that task (INVALID_TRANSITION naming it otherwise), checked under the
// list's lock (CompleteOptions.Slug). A task already completed with that
// note is a retry, answered without writing.
func (e *env) completeListTask(a taskdoc.Address, note string) error {
	c, err := e.coordinator()
	if err != nil {
		return err
	}
	done, err := c.Complete(e.ctx, note, coordinator.CompleteOptions{Slug: a.Slug})
	if err != nil {
		return err
	}
	return e.printStatus(at(a.Path, []taskdoc.Task{done.Task})[0])
}

// updateStatus moves a task as its claim holder reports it
// (plan.UpdateStatus), fenced by the claim.
func (e *env) updateStatus(address string, c claimFlags, u plan.StatusUpdate) error {
	p, err := e.plans()
	if err != nil {
		return err
	}
	if e.override != "" {
		return usagef("--force is a person's override of an agent's claim: an agent (--agent) writes through its own claim")
	}
	t, err := p.UpdateStatus(e.ctx, address, c.claimant(), u)
	if err != nil {
		return err
	}
	a, err := taskdoc.ParseAddress(address)
	if err != nil {
		return err
	}
	return e.printStatus(at(a.Path, []taskdoc.Task{t})[0])
}

func (e *env) printStatus(m query.Match) error {
	return e.print(oneTask{taskOf(m.Document, m.Task)}, func(w io.Writer) { fmt.Fprintf(w, "%s %s\n", m.Task.Status, m.Address) })
}

func cmdRemove(e *env, args []string) error {
	fs := e.flags("rm")
	var r taskdoc.Removal
	forced := e.forceFlag(fs)
	fs.StringVar(&r.IfVersion, "if-version", "", "")
	pos, err := parseN(fs, args, "ADDRESS [--force] [--if-version V]")
	if err != nil {
		return err
	}
	forced()
	r.Force = e.override != ""
	a, inList, err := coordinatorTask(pos[0])
	if err != nil {
		return err
	}
	var t taskdoc.Task
	if inList {
		c, err := e.coordinator()
		if err != nil {
			return err
		}
		if t, err = c.Remove(e.ctx, a.Slug, r); err != nil {
			return err
		}
	} else {
		s, err := e.subagents()
		if err != nil {
			return err
		}
		if t, err = s.Remove(e.ctx, pos[0], r); err != nil {
			return err
		}
	}
	m := at(a.Path, []taskdoc.Task{t})[0]
	return e.print(oneTask{taskOf(m.Document, m.Task)}, func(w io.Writer) { fmt.Fprintf(w, "removed %s\n", m.Address) })
}
