package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/query"
	"github.com/taskmd/taskmd/taskdoc"
)

// schemaVersion is the version of the JSON the tool prints, described by
// docs/schema/taskmd.schema.json: every answer and every error is one
// object that carries it.
const schemaVersion = 1

// print writes v as one line of JSON with --json, and calls text
// otherwise.
func (e *env) print(v any, text func(w io.Writer)) error {
	if e.json {
		b, err := versioned(v)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(e.stdout, "%s\n", b)
		return err
	}
	text(e.stdout)
	return nil
}

// versioned is v as a JSON object that starts with "schema_version"; a
// value that is not an object goes under "items".
func versioned(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	head := fmt.Sprintf(`{"schema_version":%d`, schemaVersion)
	switch {
	case bytes.Equal(b, []byte("{}")):
		return []byte(head + "}"), nil
	case len(b) > 0 && b[0] == '{':
		return append([]byte(head+","), b[1:]...), nil
	}
	return []byte(head + `,"items":` + string(b) + "}"), nil
}

// taskJSON is a task as every --json answer prints it, alone ("task") or
// in a list ("tasks"): its address first, its document, then the task's
// own fields. Answers that say more of a task (ready, next, progress) add
// their fields beside these.
type taskJSON struct {
	Address  string `json:"address"`
	Document string `json:"document"`
	taskdoc.Task
}

// taskOf is the task of document as --json prints it.
func taskOf(document string, t taskdoc.Task) taskJSON {
	return taskJSON{Address: taskdoc.Address{Path: document, Slug: t.Slug}.String(), Document: document, Task: t}
}

// tasksJSON is an answer that is a list of tasks.
type tasksJSON struct {
	Tasks []taskJSON `json:"tasks"`
}

func tasksOf(list []query.Match) tasksJSON {
	out := tasksJSON{Tasks: make([]taskJSON, 0, len(list))}
	for _, m := range list {
		out.Tasks = append(out.Tasks, taskJSON{Address: m.Address, Document: m.Document, Task: m.Task})
	}
	return out
}

// oneTask is an answer that is one task.
type oneTask struct {
	Task taskJSON `json:"task"`
}

// table writes rows as columns separated by two spaces, without trailing
// blanks.
func table(w io.Writer, rows [][]string) {
	var b bytes.Buffer
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	tw.Flush()
	for _, line := range strings.SplitAfter(b.String(), "\n") {
		if line != "" {
			fmt.Fprintln(w, strings.TrimRight(line, " \n"))
		}
	}
}

// at gives each task of document its address, as query.Find does.
func at(document string, tasks []taskdoc.Task) []query.Match {
	out := make([]query.Match, 0, len(tasks))
	for _, t := range tasks {
		out = append(out, query.Match{Address: taskdoc.Address{Path: document, Slug: t.Slug}.String(), Document: document, Task: t})
	}
	return out
}

// taskRows are the lines of a task list: status, address, title.
func taskRows(tasks []query.Match) [][]string {
	rows := make([][]string, 0, len(tasks))
	for _, t := range tasks {
		rows = append(rows, []string{string(t.Task.Status), t.Address, t.Task.Title})
	}
	return rows
}

// writeTask writes a task as Markdown, as it reads in its document,
// under its address.
func writeTask(w io.Writer, t query.Match) {
	level := max(t.Task.Level, 1)
	fmt.Fprintf(w, "%s\n%s %s\n\n%s\n", t.Address, strings.Repeat("#", level), t.Task.Title, strings.TrimRight(t.Task.Content(), "\n"))
}

// splitList splits a comma-separated flag value, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// statuses reads a --status value: statuses separated by commas.
func statuses(s string) ([]taskdoc.Status, error) {
	var out []taskdoc.Status
	for _, p := range splitList(s) {
		st, err := taskdoc.ParseStatus(p)
		if err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	return out, nil
}

// ok is the result of a command that has nothing else to say.
type ok struct {
	OK bool `json:"ok"`
}

// readyTask is a task that can be taken now, as ready and next print it:
// the task, and beside it why it is offered.
type readyTask struct {
	taskJSON
	DependenciesCompleted bool   `json:"dependencies_completed"`
	CanParallelize        bool   `json:"can_parallelize"`
	Stranded              bool   `json:"stranded,omitempty"`
	PreviousHolder        string `json:"previous_holder,omitempty"`
}

// holdTask is a task of a plan in progress, as progress prints it: the
// task, and beside it who holds it.
type holdTask struct {
	taskJSON
	Holder       string `json:"holder,omitempty"`
	HolderOnline bool   `json:"holder_online,omitempty"`
}

// taskAt returns a lookup of tasks by address that reads each document
// once.
func (e *env) taskAt() func(address string) (taskJSON, error) {
	read := map[string]map[string]query.Match{}
	return func(address string) (taskJSON, error) {
		a, err := taskdoc.ParseAddress(address)
		if err != nil {
			return taskJSON{}, err
		}
		tasks, ok := read[a.Path]
		if !ok {
			ws, err := e.workspace()
			if err != nil {
				return taskJSON{}, err
			}
			found, err := query.Find(e.ctx, ws, query.Filter{Document: a.Path})
			if err != nil {
				return taskJSON{}, err
			}
			tasks = map[string]query.Match{}
			for _, m := range found {
				tasks[m.Address] = m
			}
			read[a.Path] = tasks
		}
		m, ok := tasks[a.String()]
		if !ok { // removed since: as the lookup reported it
			return taskJSON{}, &taskdoc.Error{Code: taskdoc.CodeTaskNotFound, Path: a.Path, Slug: a.Slug, Msg: "task not found: " + address}
		}
		return taskJSON{Address: m.Address, Document: m.Document, Task: m.Task}, nil
	}
}

// readyTasks are the tasks of next as ready and next print them.
func (e *env) readyTasks(next []plan.NextTask) (any, error) {
	at := e.taskAt()
	out := make([]readyTask, 0, len(next))
	for _, n := range next {
		t, err := at(n.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, readyTask{taskJSON: t, DependenciesCompleted: n.DependenciesCompleted, CanParallelize: n.CanParallelize, Stranded: n.Stranded, PreviousHolder: n.PreviousHolder})
	}
	return struct {
		Tasks []readyTask `json:"tasks"`
	}{out}, nil
}

// progressOf is pr as progress prints it: its current tasks as tasks.
func (e *env) progressOf(pr plan.Progress) (any, error) {
	at := e.taskAt()
	current := make([]holdTask, 0, len(pr.Current))
	for _, c := range pr.Current {
		t, err := at(c.ID)
		if err != nil {
			return nil, err
		}
		current = append(current, holdTask{taskJSON: t, Holder: c.Holder, HolderOnline: c.HolderOnline})
	}
	return struct {
		plan.Progress
		Current []holdTask `json:"current_tasks"`
	}{pr, current}, nil
}

// coordStartedJSON is a coordinator start as --json prints it.
type coordStartedJSON struct {
	Task taskJSON `json:"task"`
	*coordinator.Started
}

func coordStarted(st *coordinator.Started) *coordStartedJSON {
	if st == nil {
		return nil
	}
	return &coordStartedJSON{taskOf(coordinator.Address, st.Task), st}
}

// coordCompleted is a coordinator completion as --json prints it.
func coordCompleted(done *coordinator.Completed) any {
	out := struct {
		Task         taskJSON          `json:"task"`
		Note         string            `json:"note"`
		Date         string            `json:"completed_date"`
		Next         *coordStartedJSON `json:"next_task,omitempty"`
		ArchivedTo   string            `json:"archived_to,omitempty"`
		Blocked      []string          `json:"blocked,omitempty"`
		Replayed     bool              `json:"replayed,omitempty"`
		ArchiveError string            `json:"archive_error,omitempty"`
	}{Task: taskOf(coordinator.Address, done.Task), Note: done.Note, Date: done.Date, Next: coordStarted(done.Next),
		ArchivedTo: done.ArchivedTo, Blocked: done.Blocked, Replayed: done.Replayed}
	if done.ArchiveError != nil {
		out.ArchiveError = done.ArchiveError.Error()
	}
	return out
}
