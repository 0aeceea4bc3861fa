package main

import (
	"fmt"
	"io"
	"time"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/query"
	"github.com/taskmd/taskmd/subagent"
)

func cmdArchive(e *env, args []string) error {
	pos, err := parseN(e.flags("archive"), args, "DOC")
	if err != nil {
		return err
	}
	doc, err := document(pos[0])
	if err != nil {
		return err
	}
	ws, err := e.workspace()
	if err != nil {
		return err
	}
	name, err := subagent.New(ws).Archive(e.ctx, doc)
	if err != nil {
		return err
	}
	return e.print(archived{name}, func(w io.Writer) { fmt.Fprintf(w, "archived to %s\n", name) })
}

// archivesCommands are the subcommands of "taskmd archives".
var archivesCommands = map[string]func(*env, []string) error{
	"list": archivesList,
	"show": archivesShow,
}

func cmdArchives(e *env, args []string) error {
	return e.subOr("archives", archivesCommands, "list", args)
}

// archives is what archives list prints: the coordinator lists, newest
// first, and the documents archived by hand.
type archives struct {
	Lists     []coordinator.Archived `json:"lists"`
	Documents []query.Document       `json:"documents"`
}

func archivesList(e *env, args []string) error {
	if _, err := parseN(e.flags("archives list"), args); err != nil {
		return err
	}
	ws, err := e.workspace()
	if err != nil {
		return err
	}
	var res archives
	if res.Lists, err = coordinator.New(ws).Archives(e.ctx); err != nil {
		return err
	}
	if res.Documents, err = query.ArchivedDocuments(e.ctx, ws); err != nil {
		return err
	}
	return e.print(res, func(w io.Writer) {
		var rows [][]string
		for _, a := range res.Lists {
			rows = append(rows, []string{a.Name, a.Time.UTC().Format(time.RFC3339)})
		}
		for _, d := range res.Documents {
			rows = append(rows, []string{d.File, countsLine(d.Counts)})
		}
		table(w, rows)
	})
}

// archivedFile is an archive's text, as archives show prints it.
type archivedFile struct {
	Name    string `json:"name"`
	Content string `json:"content"`
}

func archivesShow(e *env, args []string) error {
	pos, err := parseN(e.flags("archives show"), args, "NAME")
	if err != nil {
		return err
	}
	ws, err := e.workspace()
	if err != nil {
		return err
	}
	b, err := query.ReadArchived(e.ctx, ws, pos[0])
	if err != nil {
		return err
	}
	return e.print(archivedFile{Name: pos[0], Content: string(b)}, func(w io.Writer) { w.Write(b) })
}
