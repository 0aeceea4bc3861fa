package main

import (
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/query"
	"github.com/taskmd/taskmd/taskdoc"
)

// cmdList lists the tasks of a document (DOC ends in .md), or the
// documents of a folder with their counts per status, or, with --status,
// the tasks in those statuses across a folder ("/" when none is given).
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
	where := "/"
	if len(pos) == 1 {
		where = pos[0]
	}
	st, err := statuses(*only)
	if err != nil {
		return err
	}
	if strings.HasSuffix(where, ".md") || len(st) > 0 {
		return e.find(query.Filter{Document: folder(where), Statuses: st}, false)
	}
	docs, err := e.documents(folder(where))
	if err != nil {
		return err
	}
	return e.print(struct {
		Documents []query.Document `json:"documents"`
	}{docs}, func(w io.Writer) {
		rows := make([][]string, 0, len(docs))
		for _, d := range docs {
			if d.Error != "" {
				name := d.Address
				if name == "" {
					name = d.File // no address names it
				}
				rows = append(rows, []string{name, "-", string(d.Code) + ": " + d.Error})
				continue
			}
			rows = append(rows, []string{d.Address, strconv.Itoa(d.Tasks), countsLine(d.Counts), d.Title})
		}
		table(w, rows)
	})
}

// folder reads a DOC|FOLDER argument as query.Filter.Document reads it:
// a document ("/api/auth.md", "api/auth.md") stays a document, anything
// else is a folder ending in "/" and starting with one ("api", "api/" and
// "/api" are all "/api/").
func folder(s string) string {
	if strings.HasSuffix(s, ".md") {
		return s
	}
	if !strings.HasPrefix(s, "/") {
		s = "/" + s
	}
	if !strings.HasSuffix(s, "/") {
		s += "/"
	}
	return s
}

// documents returns the documents in dir ("/" for all, "/api/" for a
// folder, as folder writes it): those whose file is in the folder's
// folder, so that a document no address can name, listed by
// query.Documents with its error and no address, is listed too.
func (e *env) documents(dir string) ([]query.Document, error) {
	in := ""
	if dir != "/" {
		a, err := taskdoc.ParseAddress(dir + "x.md")
		if err != nil || !strings.HasPrefix(dir, "/") || !strings.HasSuffix(dir, "/") {
			return nil, &taskdoc.Error{Code: taskdoc.CodeInvalidAddress, Path: dir, Msg: "not a folder address, like /api/: " + dir}
		}
		in = path.Dir(a.File()) + "/"
	}
	ws, err := e.workspace()
	if err != nil {
		return nil, err
	}
	all, err := query.Documents(e.ctx, ws, query.WithIndex()) // each run is a new process
	if err != nil {
		return nil, err
	}
	out := []query.Document{}
	for _, d := range all {
		if strings.HasPrefix(d.File, in) {
			out = append(out, d)
		}
	}
	return out, nil
}

func (e *env) find(f query.Filter, full bool) error {
	ws, err := e.workspace()
	if err != nil {
		return err
	}
	found, err := query.Find(e.ctx, ws, f)
	if err != nil {
		return err
	}
	return e.printTasks(found, full)
}

func cmdFind(e *env, args []string) error {
	fs := e.flags("find")
	var f query.Filter
	only := fs.String("status", "", "")
	fs.StringVar(&f.Document, "in", "", "")
	fs.StringVar(&f.Workflow, "workflow", "", "")
	fs.StringVar(&f.Holder, "holder", "", "")
	fs.StringVar(&f.DependsOn, "depends-on", "", "")
	fs.IntVar(&f.Limit, "limit", 0, "")
	fs.Func("field", "", func(s string) error {
		k, v, ok := strings.Cut(s, "=")
		if !ok {
			return fmt.Errorf("--field wants KEY=VALUE, not %q", s)
		}
		if f.Fields == nil {
			f.Fields = map[string]string{}
		}
		f.Fields[k] = v
		return nil
	})
	text, err := parse(fs, args)
	if err != nil {
		return err
	}
	if f.Statuses, err = statuses(*only); err != nil {
		return err
	}
	if f.Document != "" {
		f.Document = folder(f.Document)
	}
	f.Text = strings.Join(text, " ")
	return e.find(f, false)
}

func cmdWorkflows(e *env, args []string) error {
	if _, err := parseN(e.flags("workflows"), args); err != nil {
		return err
	}
	ws, err := e.workspace()
	if err != nil {
		return err
	}
	list, err := query.Workflows(e.ctx, ws)
	if err != nil {
		return err
	}
	return e.print(struct {
		Workflows []query.Workflow `json:"workflows"`
	}{list}, func(w io.Writer) {
		rows := make([][]string, 0, len(list))
		for _, wf := range list {
			about := wf.Description
			if wf.Error != "" {
				about = string(wf.Code) + ": " + wf.Error
			}
			rows = append(rows, []string{wf.Name, wf.Title, about})
		}
		table(w, rows)
	})
}

// cmdReady lists the tasks that can be taken now in every document of a
// folder (all by default) or in one document: plan.NextTasks of each, so
// pending tasks whose dependencies are done and no online agent holds,
// and stranded work.
func cmdReady(e *env, args []string) error {
	pos, err := parse(e.flags("ready"), args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return usagef("usage: taskmd ready [DOC|FOLDER]")
	}
	where := "/"
	if len(pos) == 1 {
		where = folder(pos[0])
	}
	docs := []string{where}
	if !strings.HasSuffix(where, ".md") {
		list, err := e.documents(where)
		if err != nil {
			return err
		}
		docs = docs[:0]
		for _, d := range list {
			// The coordinator list is sequential: its next task is
			// coordinator start's. Broken documents have no tasks to offer.
			if d.Error == "" && d.Address != coordinator.Address && d.Counts[taskdoc.StatusPending]+d.Counts[taskdoc.StatusInProgress]+d.Counts[taskdoc.StatusPlanning] > 0 {
				docs = append(docs, d.Address)
			}
		}
	}
	p, err := e.plans()
	if err != nil {
		return err
	}
	ready := []plan.NextTask{}
	for _, d := range docs {
		next, err := p.NextTasks(e.ctx, d)
		if err != nil {
			return err
		}
		ready = append(ready, next...)
	}
	out, err := e.readyTasks(ready)
	if err != nil {
		return err
	}
	return e.print(out, func(w io.Writer) { table(w, nextRows(ready)) })
}
