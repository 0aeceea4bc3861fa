package board

import (
	"bytes"
	"errors"
	"html/template"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/taskmd/taskmd/agent"
	"github.com/taskmd/taskmd/checkpoint"
	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/journal"
	"github.com/taskmd/taskmd/query"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/worker"
)

// view is what every page's template gets.
type view struct {
	Title    string
	Nav      string // the page's name in the navigation
	Version  int64  // the board's version: body data-board-version
	ReadOnly bool
	Back     string // the page's own path and query, where its forms return
	View     string // the page's name in the "pages" event (viewsOf)
	Fragment bool   // the page's content only, for a live page (fragmentHeader)
	Refusal  *refusal
	Page     any // the page's own data
}

// refusal is a refused action shown on the page.
type refusal struct {
	Code    taskdoc.Code
	Message string
}

// pageFunc fills v for request r and returns the template to render.
type pageFunc func(r *http.Request, v *view) (string, error)

// page serves fn as a GET page.
func (s *Server) page(fn pageFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.render(w, r, fn, http.StatusOK, nil)
	}
}

// render renders fn's page with status, showing ref when it is set.
func (s *Server) render(w http.ResponseWriter, r *http.Request, fn pageFunc, status int, ref *refusal) {
	version, err := s.refresh(r.Context())
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	v := &view{Version: version, ReadOnly: s.opt.ReadOnly, Back: r.URL.RequestURI(), Refusal: ref,
		View: viewOfPath(r.URL.Path), Fragment: r.Header.Get(fragmentHeader) != ""}
	name, err := fn(r, v)
	if err != nil {
		status = statusOf(err)
		v.Refusal = refusalOf(err)
		name = "error"
	}
	if v.Fragment {
		name += "-main"
		w.Header().Set("X-Board-Version", strconv.FormatInt(version, 10))
	}
	w.Header().Set("Vary", fragmentHeader)
	var buf bytes.Buffer
	if err := s.tmpl.ExecuteTemplate(&buf, name, v); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// fragmentHeader asks a page for its content only (what <div id="page">
// holds), with its version in the X-Board-Version header: a live page
// fetches itself so when the "pages" event names it.
const fragmentHeader = "X-Board-Fragment"

// viewOfPath is the name of the page at path.
func viewOfPath(path string) string {
	switch path {
	case "/task":
		return viewTask
	case "/agents":
		return viewAgents
	case "/inbox":
		return viewInbox
	case "/graph":
		return viewGraph
	}
	return viewPlans
}

// refusalOf is err as a page shows it.
func refusalOf(err error) *refusal {
	var te *taskdoc.Error
	if errors.As(err, &te) {
		return &refusal{Code: te.Code, Message: te.Error()}
	}
	var f errForbidden
	if errors.As(err, &f) {
		return &refusal{Code: "FORBIDDEN", Message: f.Error()}
	}
	if errors.Is(err, errNotFound) {
		return &refusal{Code: taskdoc.CodeDocumentNotFound, Message: err.Error()}
	}
	return &refusal{Code: taskdoc.CodeIO, Message: err.Error()}
}

// statusOf is the HTTP status of a refused request.
func statusOf(err error) int {
	var f errForbidden
	if errors.As(err, &f) {
		return http.StatusForbidden
	}
	switch taskdoc.CodeOf(err) {
	case taskdoc.CodeTaskNotFound, taskdoc.CodeDocumentNotFound, agent.CodeAgentNotFound:
		return http.StatusNotFound
	case taskdoc.CodeConflict, taskdoc.CodeInvalidTransition, taskdoc.CodeTaskBlocked, "STALE_CLAIM", taskdoc.CodeDuplicateTask:
		return http.StatusConflict
	case taskdoc.CodeIO, taskdoc.CodeNotOpen:
		return http.StatusInternalServerError
	}
	if errors.Is(err, errNotFound) {
		return http.StatusNotFound
	}
	return http.StatusBadRequest
}

// indexPage is the data of "/": every document's section and the
// coordinator list's archives.
type indexPage struct {
	Sections []template.HTML
	Archives []coordinator.Archived
	Counts   map[string]int // tasks per column, across the workspace
	Columns  []string
}

func (s *Server) index(r *http.Request, v *view) (string, error) {
	docs, _ := s.model.snapshot()
	p := indexPage{Counts: map[string]int{}, Columns: columns}
	for _, d := range docs {
		p.Sections = append(p.Sections, d.section)
		for _, t := range d.Tasks {
			p.Counts[column(t.Status)]++
		}
	}
	archives, err := s.list.Archives(r.Context())
	if err != nil {
		return "", err
	}
	if len(archives) > 10 {
		archives = archives[:10]
	}
	p.Archives = archives
	v.Title, v.Nav, v.Page = "Plans", "plans", p
	return "index", nil
}

// taskPage is the data of "/task".
type taskPage struct {
	Address     string
	Document    string
	Task        taskdoc.Task
	Body        template.HTML
	Journal     []journal.Entry
	Checkpoints []workerCheckpoint
	Holder      *agent.Agent
}

// workerCheckpoint is a worker checkpoint of the task, with what changed
// since the worker's one before it.
type workerCheckpoint struct {
	checkpoint.Checkpoint
	Changes *checkpoint.Changes
}

func (s *Server) taskPage(r *http.Request, v *view) (string, error) {
	ctx := r.Context()
	a, err := taskdoc.ParseAddress(r.URL.Query().Get("address"))
	if err != nil {
		return "", err
	}
	if a.Slug == "" {
		return "", &taskdoc.Error{Code: taskdoc.CodeSubagentRequiresSlug, Path: a.Path, Msg: "a task page needs a task address (/doc.md#slug)"}
	}
	found, err := query.Find(ctx, s.ws, query.Filter{Document: a.Path})
	if err != nil {
		return "", err
	}
	i := slices.IndexFunc(found, func(m query.Match) bool { return m.Task.Slug == a.Slug })
	if i < 0 {
		return "", &taskdoc.Error{Code: taskdoc.CodeTaskNotFound, Path: a.Path, Slug: a.Slug, Msg: "no task " + a.String()}
	}
	m := found[i]
	p := taskPage{Address: m.Address, Document: m.Document, Task: m.Task, Body: s.markdown(m.Task.Body)}
	if p.Journal, err = s.plans.Journal().List(ctx, m.Address, journal.Query{}); err != nil {
		return "", err
	}
	if p.Checkpoints, err = s.taskCheckpoints(r, m.Address); err != nil {
		return "", err
	}
	if holder, ok := m.Task.Field(taskdoc.KeyAssignee); ok && holder != "" {
		if ag, err := s.plans.Agents().Get(ctx, holder); err == nil {
			p.Holder = &ag
		}
	}
	v.Title, v.Nav, v.Page = m.Task.Title, "plans", p
	return "task", nil
}

// taskCheckpoints are the worker checkpoints about task, newest first,
// each with its diff from the worker's one before.
func (s *Server) taskCheckpoints(r *http.Request, task string) ([]workerCheckpoint, error) {
	all, err := s.pivots.Workers().ListAll(r.Context(), 20)
	if err != nil {
		return nil, err
	}
	var out []workerCheckpoint
	for i, c := range all {
		if c.Task != task {
			continue
		}
		wc := workerCheckpoint{Checkpoint: c}
		if i+1 < len(all) && all[i+1].Worker == c.Worker {
			d := checkpoint.Diff(all[i+1], c)
			if !d.Empty() {
				wc.Changes = &d
			}
		}
		out = append(out, wc)
	}
	return out, nil
}

// agentRow is one agent on "/agents".
type agentRow struct {
	agent.Agent
	Age   string // since the last heartbeat
	Holds []query.Match
	Pivot *worker.Request // the pivot request waiting for its acknowledgement
}

func (s *Server) agentsPage(r *http.Request, v *view) (string, error) {
	ctx := r.Context()
	list, err := s.plans.Agents().List(ctx, agent.ListOptions{})
	if err != nil {
		return "", err
	}
	rows := make([]agentRow, 0, len(list))
	for _, a := range list {
		row := agentRow{Agent: a, Age: age(s.now(), a.LastHeartbeat)}
		if row.Holds, err = query.Find(ctx, s.ws, query.Filter{Holder: a.ID}); err != nil {
			return "", err
		}
		if row.Pivot, err = s.pivots.Pending(ctx, a.ID); err != nil {
			return "", err
		}
		rows = append(rows, row)
	}
	v.Title, v.Nav, v.Page = "Agents", "agents", struct {
		Agents []agentRow
		Modes  []checkpoint.PivotMode
	}{rows, checkpoint.PivotModes}
	return "agents", nil
}

// inboxPage is the data of "/inbox".
type inboxPage struct {
	Questions []worker.Clarification
	Pivots    []pivotRow
	Resume    []worker.Paused
}

// pivotRow is a worker's pivot: the request waiting, or the last one its
// checkpoints record as acknowledged.
type pivotRow struct {
	Worker  string
	Pending *worker.Request
	Latest  *checkpoint.Checkpoint // the worker's newest checkpoint, when it records a pivot
}

func (s *Server) inboxPage(r *http.Request, v *view) (string, error) {
	ctx := r.Context()
	var p inboxPage
	var err error
	if p.Questions, err = s.clar.Open(ctx); err != nil {
		return "", err
	}
	workers, err := s.pivots.Workers().ListWorkers(ctx)
	if err != nil {
		return "", err
	}
	agents, err := s.plans.Agents().List(ctx, agent.ListOptions{})
	if err != nil {
		return "", err
	}
	for _, a := range agents {
		if !slices.Contains(workers, a.ID) {
			workers = append(workers, a.ID)
		}
	}
	slices.Sort(workers)
	for _, id := range workers {
		row := pivotRow{Worker: id}
		if row.Pending, err = s.pivots.Pending(ctx, id); err != nil {
			continue // not a worker that can be pivoted
		}
		if cps, err := s.pivots.Workers().List(ctx, id, 1); err == nil && len(cps) == 1 && cps[0].PivotMode != "" {
			row.Latest = &cps[0]
		}
		if row.Pending != nil || row.Latest != nil {
			p.Pivots = append(p.Pivots, row)
		}
	}
	if p.Resume, err = s.pivots.ResumeQueue(ctx); err != nil {
		return "", err
	}
	v.Title, v.Nav, v.Page = "Inbox", "inbox", p
	return "inbox", nil
}

func (s *Server) now() time.Time {
	if s.opt.Now != nil {
		return s.opt.Now()
	}
	return time.Now()
}

// age says how long ago t was, in the largest whole unit.
func age(now, t time.Time) string {
	d := now.Sub(t)
	switch {
	case d < 0:
		return "just now"
	case d < time.Minute:
		return strconv.Itoa(int(d/time.Second)) + "s ago"
	case d < time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + "m ago"
	case d < 48*time.Hour:
		return strconv.Itoa(int(d/time.Hour)) + "h ago"
	}
	return strconv.Itoa(int(d/(24*time.Hour))) + "d ago"
}

// markdown renders a task's Markdown body as HTML, raw HTML left out
// (goldmark's default: it becomes a comment), dangerous links dropped.
func (s *Server) markdown(src string) template.HTML {
	var buf bytes.Buffer
	if err := s.md.Convert([]byte(src), &buf); err != nil {
		return template.HTML(template.HTMLEscapeString(src))
	}
	return template.HTML(buf.String())
}

// funcs are the templates' functions.
func (s *Server) funcs() template.FuncMap {
	return template.FuncMap{
		"taskURL":  func(address string) string { return "/task?address=" + urlQuery(address) },
		"graphURL": func(doc string) string { return "/graph?doc=" + urlQuery(doc) },
		"join":     strings.Join,
		"utc":      func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05Z") },
		"age":      func(t time.Time) string { return age(s.now(), t) },
		"column":   column,
		"mul":      func(a, b int) int { return a * b },
		"sub":      func(a, b int) int { return a - b },
		"taskActions": func(p taskPage, back string) card {
			return card{Address: p.Address, Task: p.Task, Back: back, Actions: allActions}
		},
	}
}
