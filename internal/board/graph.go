package board

import (
	"net/http"
	"slices"
	"sort"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/taskdoc"
)

// graphPage is the data of "/graph": a plan's tasks laid out left to right
// by the depth of their dependencies.
type graphPage struct {
	Document      string
	Title         string
	Width, Height int
	Nodes         []graphNode
	Edges         []graphEdge
	Legend        []string
	Days          []dayCount // completions per day, when the tasks record them
	DayWidth      int
	Checkpoints   []checkpointMark
}

type graphNode struct {
	Address, Title, Label string
	Status                taskdoc.Status
	Class                 string // done, doing, ready, blocked: the legend's names
	X, Y                  int
	External              []string // dependencies in other documents
}

type graphEdge struct{ X1, Y1, X2, Y2, MX int }

type dayCount struct {
	Day   string
	Count int // completed that day
	Total int // completed by the end of that day
	X, H  int
}

type checkpointMark struct {
	Time, Worker, Task string
	Sequence           int
}

const (
	nodeW, nodeH = 190, 34
	colGap       = 60
	rowGap       = 14
	margin       = 10
)

func (s *Server) graphPage(r *http.Request, v *view) (string, error) {
	ctx := r.Context()
	doc := r.URL.Query().Get("doc")
	a, err := taskdoc.ParseAddress(doc)
	if err != nil {
		return "", err
	}
	if a.Slug != "" || a.Path == coordinator.Address {
		return "", &taskdoc.Error{Code: taskdoc.CodeInvalidAddress, Path: doc, Msg: "a graph is of a plan: a document address without #slug, not the coordinator list"}
	}
	if _, err := s.refresh(ctx); err != nil {
		return "", err
	}
	d := s.model.doc(a.Path)
	if d == nil {
		return "", &taskdoc.Error{Code: taskdoc.CodeDocumentNotFound, Path: a.Path, Msg: "no document " + a.Path}
	}
	if d.Err != "" {
		return "", &taskdoc.Error{Code: d.Code, Path: a.Path, Msg: d.Err}
	}
	next, err := s.plans.NextTasks(ctx, a.Path)
	if err != nil {
		return "", err
	}
	ready := map[string]bool{}
	for _, n := range next {
		ready[n.ID] = true
	}
	p := graphPage{Document: a.Path, Title: d.Title, Legend: []string{"done", "doing", "ready", "blocked"}}
	p.layout(d.Tasks, ready)
	p.progress(d.Tasks)
	if cps, err := s.pivots.Workers().ListAll(ctx, 20); err == nil {
		for _, c := range cps {
			if t, err := taskdoc.ParseAddress(c.Task); err == nil && t.Path == a.Path {
				p.Checkpoints = append(p.Checkpoints, checkpointMark{Time: c.Time.UTC().Format("2006-01-02 15:04Z"), Worker: c.Worker, Task: c.Task, Sequence: c.Sequence})
			}
		}
		sort.Slice(p.Checkpoints, func(i, j int) bool { return p.Checkpoints[i].Time > p.Checkpoints[j].Time })
	}
	v.Title, v.Nav, v.Page = "Graph of "+a.Path, "plans", p
	return "graph", nil
}

// layout places the tasks: a task's column is one more than its deepest
// dependency in the document.
func (p *graphPage) layout(tasks []taskdoc.Task, ready map[string]bool) {
	index := map[string]int{}
	for i, t := range tasks {
		index[t.Slug] = i
	}
	depth := make([]int, len(tasks))
	state := make([]int, len(tasks)) // 0 new, 1 on the path, 2 done
	var visit func(i int) int
	visit = func(i int) int {
		if state[i] == 2 {
			return depth[i]
		}
		if state[i] == 1 {
			return 0 // a cycle written by hand: cut it here
		}
		state[i] = 1
		for _, dep := range tasks[i].ValidDependencies() {
			if j, ok := index[dep.Slug]; ok && dep.Document == "" {
				depth[i] = max(depth[i], visit(j)+1)
			}
		}
		state[i] = 2
		return depth[i]
	}
	rows := map[int]int{}
	pos := make([][2]int, len(tasks))
	for i, t := range tasks {
		col := visit(i)
		row := rows[col]
		rows[col]++
		x, y := margin+col*(nodeW+colGap), margin+row*(nodeH+rowGap)
		pos[i] = [2]int{x, y}
		addr := taskdoc.Address{Path: p.Document, Slug: t.Slug}.String()
		n := graphNode{Address: addr, Title: t.Title, Label: short(t.Title, 26), Status: t.Status, X: x, Y: y, Class: nodeClass(t.Status, ready[addr])}
		for _, dep := range t.ValidDependencies() {
			if dep.Document != "" {
				n.External = append(n.External, dep.String())
			}
		}
		p.Nodes = append(p.Nodes, n)
		p.Width = max(p.Width, x+nodeW+margin)
		p.Height = max(p.Height, y+nodeH+margin)
	}
	for i, t := range tasks {
		for _, dep := range t.ValidDependencies() {
			if j, ok := index[dep.Slug]; ok && dep.Document == "" {
				x1, y1 := pos[j][0]+nodeW, pos[j][1]+nodeH/2
				x2, y2 := pos[i][0], pos[i][1]+nodeH/2
				p.Edges = append(p.Edges, graphEdge{X1: x1, Y1: y1, X2: x2, Y2: y2, MX: (x1 + x2) / 2})
			}
		}
	}
}

// nodeClass is a task's colour: done, doing (under way), ready (the plan
// offers it: Plans.NextTasks) or blocked (blocked, failed, or waiting for
// its dependencies).
func nodeClass(st taskdoc.Status, offered bool) string {
	switch column(st) {
	case "done":
		return "done"
	case "doing":
		return "doing"
	case "blocked":
		return "blocked"
	}
	if offered {
		return "ready"
	}
	return "blocked"
}

// progress counts completions per day from the tasks' Completed fields.
func (p *graphPage) progress(tasks []taskdoc.Task) {
	per := map[string]int{}
	for _, t := range tasks {
		if d, ok := t.Field(taskdoc.KeyCompleted); ok && d != "" {
			per[d]++
		}
	}
	days := make([]string, 0, len(per))
	for d := range per {
		days = append(days, d)
	}
	slices.Sort(days)
	total := 0
	p.DayWidth = 40
	for i, d := range days {
		total += per[d]
		h := 0
		if len(tasks) > 0 {
			h = total * 100 / len(tasks)
		}
		p.Days = append(p.Days, dayCount{Day: d, Count: per[d], Total: total, X: i * p.DayWidth, H: h})
	}
}

// short cuts s to n runes with an ellipsis.
func short(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
