package main

import (
	"fmt"
	"io"
	"time"

	"github.com/taskmd/taskmd/archive"
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
	name, err := archive.Document(e.ctx, ws, doc)
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
	if len(args) == 0 {
		return archivesList(e, args)
	}
	return e.sub("archives", archivesCommands, args)
}

func archivesList(e *env, args []string) error {
	if _, err := parseN(e.flags("archives list"), args); err != nil {
		return err
	}
	ws, err := e.workspace()
	if err != nil {
		return err
	}
	list, err := archive.List(e.ctx, ws)
	if err != nil {
		return err
	}
	return e.print(list, func(w io.Writer) {
		rows := make([][]string, 0, len(list))
		for _, a := range list {
			rows = append(rows, []string{a.Time.UTC().Format(time.RFC3339), a.Name})
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
	b, err := archive.Read(e.ctx, ws, pos[0])
	if err != nil {
		return err
	}
	return e.print(archivedFile{Name: pos[0], Content: string(b)}, func(w io.Writer) { w.Write(b) })
}
