package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/taskdoc"
)

// coordinatorCommands are the subcommands of "taskmd coordinator".
var coordinatorCommands = map[string]func(*env, []string) error{
	"list":     coordList,
	"create":   coordCreate,
	"start":    coordStart,
	"complete": coordComplete,
	"view":     coordView,
	"archive":  coordArchive,
	"clear":    coordClear,
	"recover":  coordRecover,
}

func cmdCoordinator(e *env, args []string) error {
	return e.sub("coordinator", coordinatorCommands, args)
}

// sub runs the subcommand args[0] of group.
func (e *env) sub(group string, cmds map[string]func(*env, []string) error, args []string) error {
	return e.subOr(group, cmds, "", args)
}

// subOr runs the subcommand of group named after the global flags
// ("agent --json list"), or def when none is named and def is not "".
func (e *env) subOr(group string, cmds map[string]func(*env, []string) error, def string, args []string) error {
	fs := e.flags(group)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return &helpAsked{path: group, cmds: cmds}
		}
		return usagef("%s: %v", group, err)
	}
	args = fs.Args()
	if len(args) == 0 && def != "" {
		args = []string{def}
	}
	if len(args) == 0 {
		return usagef("usage: taskmd %s %s", group, names(cmds))
	}
	cmd, ok := cmds[args[0]]
	if !ok {
		return usagef("unknown command %q; usage: taskmd %s %s", group+" "+args[0], group, names(cmds))
	}
	return cmd(e, args[1:])
}

func (e *env) coordinator() (*coordinator.List, error) {
	ws, err := e.workspace()
	if err != nil {
		return nil, err
	}
	return coordinator.New(ws, coordinator.WithClock(e.now)), nil
}

func coordList(e *env, args []string) error {
	fs := e.flags("coordinator list")
	only := fs.String("status", "", "")
	if _, err := parseN(fs, args); err != nil {
		return err
	}
	st, err := statuses(*only)
	if err != nil {
		return err
	}
	c, err := e.coordinator()
	if err != nil {
		return err
	}
	tasks, err := c.List(e.ctx, st...)
	if err != nil {
		return err
	}
	return e.printTasks(at(coordinator.Address, tasks), false)
}

func coordView(e *env, args []string) error {
	slugs, err := parse(e.flags("coordinator view"), args)
	if err != nil {
		return err
	}
	c, err := e.coordinator()
	if err != nil {
		return err
	}
	tasks, err := c.View(e.ctx, slugs...)
	if err != nil {
		return err
	}
	return e.printTasks(at(coordinator.Address, tasks), true)
}

func coordCreate(e *env, args []string) error {
	fs := e.flags("coordinator create")
	title := fs.String("title", "", "")
	text := fs.String("content", "", "")
	file := fs.String("content-file", "", "")
	after := fs.String("after", "", "")
	if _, err := parseN(fs, args); err != nil {
		return err
	}
	if *title == "" {
		return usagef("coordinator create needs --title")
	}
	body, err := e.content(*text, *file)
	if err != nil {
		return err
	}
	c, err := e.coordinator()
	if err != nil {
		return err
	}
	tasks, err := c.Create(e.ctx, taskdoc.NewTask{Title: *title, Content: body, After: *after})
	if err != nil {
		return err
	}
	return e.created(at(coordinator.Address, tasks))
}

func coordStart(e *env, args []string) error {
	fs := e.flags("coordinator start")
	full := fs.Bool("full-context", false, "")
	force := fs.Bool("force", false, "")
	if _, err := parseN(fs, args); err != nil {
		return err
	}
	c, err := e.coordinator()
	if err != nil {
		return err
	}
	st, err := c.Start(e.ctx, coordinator.StartOptions{FullContext: *full, Force: *force})
	if err != nil {
		return err
	}
	return e.print(coordStarted(st), func(w io.Writer) { writeStarted(w, st) })
}

func writeStarted(w io.Writer, st *coordinator.Started) {
	writeTask(w, at(coordinator.Address, []taskdoc.Task{st.Task})[0])
	if st.MainWorkflow != nil {
		fmt.Fprintf(w, "\nmain workflow: %s\n", st.MainWorkflow.Name)
	}
	writeContext(w, st.Workflow, st.References, st.Missing)
}

func coordComplete(e *env, args []string) error {
	fs := e.flags("coordinator complete")
	note := fs.String("note", "", "")
	key := fs.String("request-key", "", "")
	full := fs.Bool("full-context", false, "")
	if _, err := parseN(fs, args); err != nil {
		return err
	}
	c, err := e.coordinator()
	if err != nil {
		return err
	}
	done, err := c.Complete(e.ctx, *note, coordinator.CompleteOptions{IncludeFullWorkflow: *full, RequestKey: *key})
	if err != nil {
		return err
	}
	return e.print(coordCompleted(done), func(w io.Writer) {
		fmt.Fprintf(w, "completed %s %s\n", taskdoc.Address{Path: coordinator.Address, Slug: done.Task.Slug}, done.Date)
		switch {
		case done.ArchivedTo != "":
			fmt.Fprintf(w, "archived to %s\n", done.ArchivedTo)
		case done.ArchiveError != nil:
			fmt.Fprintf(w, "archive pending: %v\n", done.ArchiveError)
		case len(done.Blocked) > 0:
			fmt.Fprintf(w, "blocked: %v\n", done.Blocked)
		}
		if done.Next != nil {
			fmt.Fprint(w, "\nnext, in progress:\n")
			writeStarted(w, done.Next)
		}
	})
}

// archived is the result of an archive command.
type archived struct {
	ArchivedTo string `json:"archived_to"`
}

func coordArchive(e *env, args []string) error {
	if _, err := parseN(e.flags("coordinator archive"), args); err != nil {
		return err
	}
	c, err := e.coordinator()
	if err != nil {
		return err
	}
	name, err := c.Archive(e.ctx)
	if err != nil {
		return err
	}
	return e.print(archived{name}, func(w io.Writer) { fmt.Fprintf(w, "archived to %s\n", name) })
}

// cleared is the result of coordinator clear.
type cleared struct {
	Removed int `json:"removed"`
}

func coordClear(e *env, args []string) error {
	if _, err := parseN(e.flags("coordinator clear"), args); err != nil {
		return err
	}
	c, err := e.coordinator()
	if err != nil {
		return err
	}
	n, err := c.Clear(e.ctx)
	if err != nil {
		return err
	}
	return e.print(cleared{n}, func(w io.Writer) { fmt.Fprintf(w, "removed %d completed tasks\n", n) })
}

func coordRecover(e *env, args []string) error {
	if _, err := parseN(e.flags("coordinator recover"), args); err != nil {
		return err
	}
	c, err := e.coordinator()
	if err != nil {
		return err
	}
	if err := c.Recover(e.ctx); err != nil {
		return err
	}
	return e.print(ok{true}, func(w io.Writer) { fmt.Fprintln(w, "ok") })
}
