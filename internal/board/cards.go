package board

import (
	"bytes"
	"html/template"
	"net/url"
	"time"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/journal"
	"github.com/taskmd/taskmd/taskdoc"
)

// card is the data of one task's card.
type card struct {
	Address  string
	Order    int // the task's place in its document: a card that changes column goes in its place there
	Task     taskdoc.Task
	Holder   string
	ReadOnly bool
	Back     string
	Actions  []string       // the actions the card offers (the task page offers all)
	Workflow string         // the workflow prompt it follows, "" for none
	Since    string         // when its holder claimed it (RFC 3339, UTC), "" when none holds it
	Last     *journal.Entry // its newest checkpoint in its journal, nil for none
	Deps     []dep          // what it waits for
}

// dep is a dependency as a card shows it: done, or still waited for. One
// in another document shows its address only: its state is on that
// document's card.
type dep struct {
	Address string
	Label   string // the slug, or the address for another document's
	State   string // "done", "waiting", or "" for another document's
}

// deps are t's dependencies, with the states of those in its own
// document d, whose done tasks are done (by slug).
func deps(d *docView, done map[string]bool, t taskdoc.Task) []dep {
	var out []dep
	for _, x := range t.ValidDependencies() {
		if x.Document != "" && x.Document != d.Address {
			a := taskdoc.Address{Path: x.Document, Slug: x.Slug}.String()
			out = append(out, dep{Address: a, Label: a})
			continue
		}
		state := "waiting"
		if done[x.Slug] {
			state = "done"
		}
		out = append(out, dep{Address: taskdoc.Address{Path: d.Address, Slug: x.Slug}.String(), Label: "#" + x.Slug, State: state})
	}
	return out
}

// section is the data of one document's section.
type section struct {
	ID       string
	Doc      *docView
	Columns  []columnCards
	Sequence bool // the coordinator list
}

type columnCards struct {
	Name  string
	Cards []template.HTML
}

// renderDoc renders d's cards and section.
func (s *Server) renderDoc(d *docView) error {
	d.cards = make(map[string]template.HTML, len(d.Tasks))
	sec := section{ID: sectionID(d.Address), Doc: d, Sequence: d.Address == coordinator.Address}
	byColumn := map[string][]template.HTML{}
	var buf bytes.Buffer
	done := map[string]bool{}
	for _, t := range d.Tasks {
		if t.Status.Final() {
			done[t.Slug] = true
		}
	}
	for i, t := range d.Tasks {
		addr := taskdoc.Address{Path: d.Address, Slug: t.Slug}.String()
		holder, _ := t.Field(taskdoc.KeyAssignee)
		workflow, _ := t.Field(taskdoc.KeyWorkflow)
		c := card{Address: addr, Order: i, Task: t, Holder: holder, ReadOnly: s.opt.ReadOnly, Back: "/", Actions: cardActions(t.Status, holder),
			Workflow: workflow, Deps: deps(d, done, t)}
		if e, ok := d.Last[t.Slug]; ok {
			c.Last = &e
		}
		if r, ok := d.Claims[t.Slug]; ok && holder != "" && r.Agent == holder && !r.Claimed.IsZero() {
			c.Since = r.Claimed.UTC().Format(time.RFC3339)
		}
		buf.Reset()
		if err := s.tmpl.ExecuteTemplate(&buf, "card", c); err != nil {
			return err
		}
		h := template.HTML(buf.String())
		d.cards[addr] = h
		byColumn[column(t.Status)] = append(byColumn[column(t.Status)], h)
	}
	for _, name := range columns {
		sec.Columns = append(sec.Columns, columnCards{Name: name, Cards: byColumn[name]})
	}
	buf.Reset()
	if err := s.tmpl.ExecuteTemplate(&buf, "section", sec); err != nil {
		return err
	}
	d.section = template.HTML(buf.String())
	return nil
}

// cardActions are the actions a card offers for a task in status, held by
// holder: a short choice for a crowded board. Which moves the status
// machine allows is the library's to say: the task page offers every
// action and shows the library's refusal.
func cardActions(st taskdoc.Status, holder string) []string {
	switch column(st) {
	case "todo":
		return []string{"start", "block"}
	case "doing":
		if holder != "" {
			return []string{"complete", "block", "release"}
		}
		return []string{"complete", "block"}
	case "blocked":
		return []string{"unblock"}
	}
	return []string{"reopen"}
}

// allActions are the actions of the task page, in order.
var allActions = []string{"start", "complete", "block", "unblock", "reopen", "release"}

// urlQuery escapes s for a query value.
func urlQuery(s string) string { return url.QueryEscape(s) }
