package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/taskmd/taskmd/query"
	"github.com/taskmd/taskmd/taskdoc"
)

// print writes v as one line of JSON with --json, and calls text
// otherwise.
func (e *env) print(v any, text func(w io.Writer)) error {
	if e.json {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(e.stdout, "%s\n", b)
		return err
	}
	text(e.stdout)
	return nil
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
