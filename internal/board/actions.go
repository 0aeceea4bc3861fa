package board

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/taskmd/taskmd/checkpoint"
	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/internal/claims"
	"github.com/taskmd/taskmd/query"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/worker"
)

// maxForm bounds an action's form.
const maxForm = 1 << 20

// actionFunc makes one action from a parsed form.
type actionFunc func(ctx context.Context, form url.Values) error

// action serves fn as a form post: the credentials first, then the action;
// 303 back to the page on success, the page with the refusal otherwise.
func (s *Server) action(fn actionFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, maxForm)
		// Parsed once, here: a later parse would answer nil and leave
		// the action with what parsed before the error.
		err := r.ParseForm()
		if err == nil {
			if err = r.ParseMultipartForm(maxForm); errors.Is(err, http.ErrNotMultipart) {
				err = nil
			}
		}
		if err != nil {
			err = &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Err: err,
				Msg: fmt.Sprintf("the form does not parse (%v): send the board's own form, at most %d bytes", err, maxForm)}
		}
		back := backOf(r)
		if err == nil {
			err = s.allowedPost(r)
		}
		if err == nil {
			err = fn(r.Context(), r.PostForm)
		}
		if err != nil {
			s.refuse(w, r, back, err)
			return
		}
		http.Redirect(w, r, back, http.StatusSeeOther)
	}
}

// backOf is the page a form returns to: its back field when that is a
// path of this board, else "/".
func backOf(r *http.Request) string {
	b := r.FormValue("back")
	u, err := url.Parse(b)
	// A browser reads a backslash as a slash ("/\host" is "//host"); no
	// path of the board has one. (Parse refuses control characters.)
	if err != nil || !strings.HasPrefix(b, "/") || strings.HasPrefix(b, "//") || u.Host != "" || u.Scheme != "" ||
		strings.Contains(b, "\\") {
		return "/"
	}
	return b
}

// refuse answers a refused action with the page it came from, showing the
// library's error code, and a 4xx status.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, back string, err error) {
	u, _ := url.Parse(back)
	page := s.index
	switch u.Path {
	case "/task":
		page = s.taskPage
	case "/agents":
		page = s.agentsPage
	case "/inbox":
		page = s.inboxPage
	case "/graph":
		page = s.graphPage
	}
	get := r.Clone(r.Context())
	get.Method, get.URL = http.MethodGet, u
	status := statusOf(err)
	if status >= 500 {
		status = http.StatusUnprocessableEntity
	}
	s.render(w, get, page, status, refusalOf(err))
}

// taskAction is a task's action: start, complete, block, unblock, reopen
// or release, refused (CONFLICT) when the task's status is no longer the
// one the person saw.
func (s *Server) taskAction(ctx context.Context, form url.Values) error {
	address, act := form.Get("address"), form.Get("action")
	a, err := taskdoc.ParseAddress(address)
	if err != nil {
		return err
	}
	if a.Slug == "" {
		return &taskdoc.Error{Code: taskdoc.CodeSubagentRequiresSlug, Path: address, Msg: "an action needs a task address (/doc.md#slug)"}
	}
	seen, err := taskdoc.ParseStatus(form.Get("seen"))
	if err != nil || form.Get("seen") == "" {
		return &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Path: address, Msg: "an action needs the status the task was seen in (seen)"}
	}
	do, ok := s.taskActions()[act]
	if !ok {
		return &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Msg: fmt.Sprintf("unknown action %q: start, complete, block, unblock, reopen or release", act)}
	}
	// The task is checked under its document's lock, in the write itself:
	// a stale page is CONFLICT even when another process writes between
	// this page's read and the write.
	return do(claims.WithSeen(ctx, a.Slug, seen), a, form)
}

type taskOp func(ctx context.Context, a taskdoc.Address, form url.Values) error

// taskActions are the task actions, each the library's operation the
// command line makes for it.
func (s *Server) taskActions() map[string]taskOp {
	return map[string]taskOp{
		"start":    s.start,
		"complete": s.complete,
		"block": func(ctx context.Context, a taskdoc.Address, form url.Values) error {
			return s.setStatus(ctx, a, taskdoc.StatusBlocked, form.Get("reason"))
		},
		"unblock": func(ctx context.Context, a taskdoc.Address, form url.Values) error {
			if taskdoc.Status(form.Get("seen")) != taskdoc.StatusBlocked {
				return notFrom(a, "unblock", form.Get("seen"), "only a blocked task is unblocked")
			}
			return s.setStatus(ctx, a, taskdoc.StatusPending, "")
		},
		"reopen": func(ctx context.Context, a taskdoc.Address, form url.Values) error {
			if st := taskdoc.Status(form.Get("seen")); !st.Final() && st != taskdoc.StatusFailed {
				return notFrom(a, "reopen", form.Get("seen"), "only a completed, skipped or failed task is reopened")
			}
			return s.setStatus(ctx, a, taskdoc.StatusPending, "")
		},
		"release": s.release,
	}
}

// notFrom refuses an action that is a move to pending from the status
// the task is in (checked under the lock against the file: WithSeen), which
// the status machine would take as another move.
func notFrom(a taskdoc.Address, action, from, why string) error {
	return &taskdoc.Error{Code: taskdoc.CodeInvalidTransition, Path: a.Path, Slug: a.Slug,
		Msg: fmt.Sprintf("cannot %s task %s, which is %s: %s", action, a, from, why)}
}

func (s *Server) start(ctx context.Context, a taskdoc.Address, _ url.Values) error {
	if a.Path != coordinator.Address {
		_, err := s.tasks.Start(ctx, a.String())
		return err
	}
	// The list starts its next task only: refuse when that is another.
	data, _, err := s.ws.Read(ctx, coordinator.File)
	if err != nil {
		return err
	}
	doc, err := s.ws.Parse(coordinator.File, data)
	if err != nil {
		return err
	}
	next, err := coordinator.Next(doc)
	if err != nil {
		return err
	}
	if next.Slug != a.Slug {
		return &taskdoc.Error{Code: taskdoc.CodeInvalidTransition, Path: a.Path, Slug: a.Slug,
			Msg: fmt.Sprintf("the coordinator list works in order: its next task is #%s, not #%s: start that one", next.Slug, a.Slug)}
	}
	_, err = s.list.Start(ctx, coordinator.StartOptions{})
	return err
}

func (s *Server) complete(ctx context.Context, a taskdoc.Address, form url.Values) error {
	note := form.Get("note")
	if a.Path == coordinator.Address {
		_, err := s.list.Complete(ctx, note, coordinator.CompleteOptions{Slug: a.Slug})
		return err
	}
	_, err := s.tasks.Complete(ctx, a.String(), note)
	return err
}

func (s *Server) setStatus(ctx context.Context, a taskdoc.Address, st taskdoc.Status, reason string) error {
	var err error
	if a.Path == coordinator.Address {
		_, err = s.list.SetStatus(ctx, a.Slug, st, reason)
	} else {
		_, err = s.tasks.SetStatus(ctx, a.String(), st, reason)
	}
	return err
}

// release takes a stranded task back from its holder, offline now, so that
// another agent may take it up (Plans.Revoke). A task whose holder is
// online is CONFLICT: its holder releases it itself.
func (s *Server) release(ctx context.Context, a taskdoc.Address, _ url.Values) error {
	found, err := query.Find(ctx, s.ws, query.Filter{Document: a.Path})
	if err != nil {
		return err
	}
	for _, m := range found {
		if m.Task.Slug != a.Slug {
			continue
		}
		if holder, ok := m.Task.Field(taskdoc.KeyAssignee); ok && holder != "" {
			if ag, err := s.plans.Agents().Get(ctx, holder); err == nil && ag.Online {
				return &taskdoc.Error{Code: taskdoc.CodeConflict, Path: a.Path, Slug: a.Slug,
					Msg: fmt.Sprintf("task %s is held by %s, which is online: only stranded work is released here; pivot the agent (Agents page) to take the task from it", a, holder)}
			}
		}
	}
	_, err = s.plans.Revoke(ctx, a.String(), "")
	return err
}

// answerAction answers a worker's clarification request, as taskmd answer
// does: one textarea for one question (answer), else one per question
// (answer-<question id>).
func (s *Server) answerAction(ctx context.Context, form url.Values) error {
	id, req := form.Get("worker"), form.Get("id")
	if id == "" || req == "" {
		return &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Msg: "an answer names the worker and the request (worker, id)"}
	}
	asked, _, err := s.clar.Get(ctx, id, req)
	if err != nil {
		return err
	}
	var a worker.Answer
	for _, q := range asked.Questions {
		text := form.Get("answer-" + q.ID)
		if len(asked.Questions) == 1 && text == "" {
			text = form.Get("answer")
		}
		if strings.TrimSpace(text) == "" {
			return &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Msg: fmt.Sprintf("question %s of %s has no answer: answer every question of the request", q.ID, req)}
		}
		a.Responses = append(a.Responses, worker.Response{QuestionID: q.ID, Answer: text})
	}
	a.ResumeSignal = true
	_, err = s.clar.Respond(ctx, id, req, a)
	return err
}

// pivotAction asks a worker to pivot (Pivots.Request), as taskmd pivot
// does.
func (s *Server) pivotAction(ctx context.Context, form url.Values) error {
	mode, err := checkpoint.ParsePivotMode(form.Get("mode"))
	if err != nil {
		return err
	}
	_, err = s.pivots.Request(ctx, form.Get("worker"), worker.Pivot{Mode: mode, Reason: form.Get("reason"), NewTask: form.Get("new_task")})
	return err
}
