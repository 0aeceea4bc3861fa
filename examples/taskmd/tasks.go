package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/subagent"
	"github.com/taskmd/taskmd/taskdoc"
)

// documentTasks is the tasks of one document, as list and show print them.
type documentTasks struct {
	Document string   `json:"document"`
	Tasks    []taskAt `json:"tasks"`
}

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

func (e *env) subagents() (*subagent.Tasks, error) {
	ws, err := e.workspace()
	if err != nil {
		return nil, err
	}
	return subagent.New(ws, e.options()...), nil
}

// listDocument lists the tasks of one document.
func (e *env) listDocument(doc string, only []taskdoc.Status) error {
	doc, err := document(doc)
	if err != nil {
		return err
	}
	s, err := e.subagents()
	if err != nil {
		return err
	}
	tasks, err := s.List(e.ctx, doc, only...)
	if err != nil {
		return err
	}
	res := documentTasks{Document: doc, Tasks: at(doc, tasks)}
	return e.print(res, func(w io.Writer) { table(w, taskRows(res.Tasks)) })
}

func cmdShow(e *env, args []string) error {
	pos, err := parseN(e.flags("show"), args, "ADDRESS")
	if err != nil {
		return err
	}
	a, err := taskdoc.ParseAddress(pos[0])
	if err != nil {
		return err
	}
	s, err := e.subagents()
	if err != nil {
		return err
	}
	var slugs []string
	if a.Slug != "" {
		slugs = []string{a.Slug}
	}
	tasks, err := s.View(e.ctx, a.Path, slugs...)
	if err != nil {
		return err
	}
	res := documentTasks{Document: a.Path, Tasks: at(a.Path, tasks)}
	return e.print(res, func(w io.Writer) {
		for i, t := range res.Tasks {
			if i > 0 {
				fmt.Fprintln(w)
			}
			writeTask(w, t)
		}
	})
}

// content reads --content or --content-file (a file name, or - for stdin).
func (e *env) content(text, file string) (string, error) {
	if file == "" {
		return text, nil
	}
	if text != "" {
		return "", usagef("--content and --content-file exclude each other")
	}
	var b []byte
	var err error
	if file == "-" {
		b, err = io.ReadAll(e.stdin)
	} else {
		b, err = os.ReadFile(file)
	}
	if err != nil {
		return "", &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Msg: "--content-file", Err: err}
	}
	return string(b), nil
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
	res := documentTasks{Document: doc, Tasks: at(doc, tasks)}
	return e.print(res, func(w io.Writer) {
		for _, t := range res.Tasks {
			fmt.Fprintf(w, "created %s\n", t.Address)
		}
	})
}

func cmdStart(e *env, args []string) error {
	pos, err := parseN(e.flags("start"), args, "ADDRESS")
	if err != nil {
		return err
	}
	s, err := e.subagents()
	if err != nil {
		return err
	}
	st, err := s.Start(e.ctx, pos[0])
	if err != nil {
		return err
	}
	return e.print(st, func(w io.Writer) {
		writeTask(w, taskAt{Address: taskdoc.Address{Path: st.Document, Slug: st.Task.Slug}.String(), Task: st.Task})
		writeContext(w, st.Workflow, st.References, st.Missing)
	})
}

func cmdComplete(e *env, args []string) error {
	fs := e.flags("complete")
	note := fs.String("note", "", "")
	var c claimFlags
	c.add(fs)
	pos, err := parseN(fs, args, "ADDRESS --note N [--agent A --token N]")
	if err != nil {
		return err
	}
	if c.agent != "" {
		return e.setStatus(pos[0], c, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Outcome: *note})
	}
	s, err := e.subagents()
	if err != nil {
		return err
	}
	done, err := s.Complete(e.ctx, pos[0], *note)
	if err != nil {
		return err
	}
	return e.print(done, func(w io.Writer) {
		addr := taskdoc.Address{Path: done.Document, Slug: done.Task.Slug}.String()
		fmt.Fprintf(w, "completed %s %s\n", addr, done.Date)
	})
}

func cmdStatus(e *env, args []string) error {
	fs := e.flags("status")
	var u plan.StatusUpdate
	fs.StringVar(&u.Error, "error", "", "")
	fs.StringVar(&u.Outcome, "outcome", "", "")
	var c claimFlags
	c.add(fs)
	pos, err := parseN(fs, args, "ADDRESS STATUS")
	if err != nil {
		return err
	}
	if u.Status, err = taskdoc.ParseStatus(pos[1]); err != nil {
		return err
	}
	return e.setStatus(pos[0], c, u)
}

// setStatus moves a task as an agent reports it (plan.UpdateStatus),
// fenced by the claim when --agent is given.
func (e *env) setStatus(address string, c claimFlags, u plan.StatusUpdate) error {
	p, err := e.plans()
	if err != nil {
		return err
	}
	t, err := p.UpdateStatus(e.ctx, address, c.claimant(), u)
	if err != nil {
		return err
	}
	a, err := taskdoc.ParseAddress(address)
	if err != nil {
		return err
	}
	res := taskAt{Address: taskdoc.Address{Path: a.Path, Slug: t.Slug}.String(), Task: t}
	return e.print(res, func(w io.Writer) { fmt.Fprintf(w, "%s %s\n", res.Task.Status, res.Address) })
}

func cmdList(e *env, args []string) error {
	fs := e.flags("list")
	only := fs.String("status", "", "")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return usagef("usage: taskmd list [DOC|FOLDER] [--status s,...]")
	}
	st, err := statuses(*only)
	if err != nil {
		return err
	}
	if len(pos) == 1 && strings.HasSuffix(pos[0], ".md") {
		return e.listDocument(pos[0], st)
	}
	return usagef("list needs DOC")
}
