package subagent

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/taskmd/taskmd/internal/claims"
	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// Tasks gives access to the subagent tasks of one workspace. It keeps no
// state of its own: every call reads the document it names (and changes it
// under that file's lock), so any number of Tasks values, goroutines and
// processes can work on one workspace at once.
type Tasks struct {
	ws  *workspace.Workspace
	cfg taskflow.Config
}

// An Option configures Tasks: WithClock, WithReferenceDepth, WithOverride.
// The zero Option is ignored.
type Option struct{ o taskflow.Option }

// WithClock sets the clock that dates completions (in UTC). The default is
// time.Now; a nil clock is ignored.
func WithClock(now func() time.Time) Option { return Option{taskflow.WithClock(now)} }

// WithReferenceDepth sets how many levels of @/ references Start loads: 1
// loads the task's own references only, 0 or less loads none. The default
// is 3.
func WithReferenceDepth(n int) Option { return Option{taskflow.WithReferenceDepth(n)} }

// WithOverride makes the writes of Tasks a person's: on a task an agent
// holds (package plan), a write ends the claim, removes the task's
// Assignee and records person in its Override field, where it is
// otherwise STALE_CLAIM. For a person's command (--force), never for an
// agent. An empty name, or one that is not one line of text, is ignored.
func WithOverride(person string) Option {
	if claims.CheckPerson(person) != nil {
		person = ""
	}
	return Option{taskflow.WithOverride(person)}
}

// New returns the subagent tasks of ws.
func New(ws *workspace.Workspace, opts ...Option) *Tasks {
	return &Tasks{ws: ws, cfg: taskflow.Configure(opts, func(o Option) taskflow.Option { return o.o })}
}

// Create adds tasks to document ("/api/auth.md"), each after NewTask.After
// when set and at the end of the Tasks section otherwise, and returns them
// as they are in the file. It creates the document (titled from its file
// name) and its Tasks section when they are missing. All tasks are added in
// one locked update: either every task is written or, on any error, none.
//
// A title whose slug a task of the document already has, or one created
// before it in the same call, is DUPLICATE_TASK; a Status that is not a
// known status is UNKNOWN_STATUS; a task cannot be created completed
// (INVALID_TASK), since Complete is what records the note.
func (s *Tasks) Create(ctx context.Context, document string, tasks ...taskdoc.NewTask) ([]taskdoc.Task, error) {
	t, err := documentTarget(document)
	if err != nil {
		return nil, err
	}
	if err := t.Flow().CheckCreate(tasks); err != nil {
		return nil, err
	}
	var created []taskdoc.Task
	// New tasks hold no claim: the claims are not read (claims.CheckNew).
	err = s.ws.Rewrite(ctx, t.File, func(current []byte, exists bool) ([]byte, error) {
		if !exists {
			current = taskdoc.NewDocument(taskdoc.TitleFromPath(t.Path))
		}
		doc, err := s.ws.Parse(t.File, current)
		if err != nil {
			return nil, err
		}
		flow := t.Flow()
		nd, added, err := flow.Create(doc, tasks)
		if err != nil {
			return nil, err
		}
		person := s.cfg.Override != ""
		for _, task := range added {
			if err := flow.CheckRecords(nil, task, person); err != nil {
				return nil, err
			}
			if err := claims.CheckNew(ctx, t.Path, task); err != nil {
				return nil, err
			}
		}
		r := flow.Resolver(ctx, s.ws)
		if err := r.CheckLinks(nd, added); err != nil {
			return nil, err
		}
		for i, task := range added {
			if nd, err = r.CheckWritten(nd, task, taskdoc.StatusPending, person); err != nil {
				return nil, err
			}
			if added[i], err = nd.Task(task.Slug); err != nil {
				return nil, err
			}
		}
		created = values(added)
		s.ws.Remember(t.File, nd)
		return nd.Source, nil
	})
	if err != nil {
		return nil, taskflow.At(err, t.Path, "")
	}
	return created, nil
}

func values(tasks []*taskdoc.Task) []taskdoc.Task {
	out := make([]taskdoc.Task, len(tasks))
	for i, t := range tasks {
		out[i] = *t
	}
	return out
}

// Edit changes the title and/or the content (metadata and body) of the task
// at address ("/api/auth.md#add-token-validation") and returns it as it is
// in the file. A new title must not collide with another task
// (DUPLICATE_TASK), and a rename of a task that tasks of other documents
// depend on is INVALID_TASK naming them. An edit cannot complete a task
// (INVALID_TRANSITION): Complete does that and records the note.
func (s *Tasks) Edit(ctx context.Context, address string, e taskdoc.Edit) (taskdoc.Task, error) {
	t, err := taskTarget(address)
	if err != nil {
		return taskdoc.Task{}, err
	}
	if err := t.Flow().CheckEdit(t.Slug, e); err != nil {
		return taskdoc.Task{}, err
	}
	var edited taskdoc.Task
	err = s.rewrite(ctx, t, func(current []byte, exists bool, st *claims.File) (*taskdoc.Document, error) {
		doc, err := s.parseDocument(t, current, exists)
		if err != nil {
			return nil, err
		}
		before, err := doc.Task(t.Slug)
		if err != nil {
			return nil, taskflow.At(err, t.Path, t.Slug)
		}
		// The edit is made first, to learn the status it writes, which the
		// fence decides on; it is made again only on the document a
		// person's override changed, keeping the override's record.
		nd, task, err := t.Flow().Edit(doc, t.Slug, e)
		if err != nil {
			return nil, err
		}
		var to taskdoc.Status
		if task.Status != before.Status {
			to = task.Status
		}
		if fenced, err := s.fence(ctx, st, t, doc, t.Slug, to); err != nil {
			return nil, err
		} else if fenced != doc {
			before, _ = fenced.Task(t.Slug)
			override, _ := before.Field(taskdoc.KeyOverride)
			if nd, task, err = t.Flow().Edit(fenced, t.Slug, e); err != nil {
				return nil, err
			}
			if nd, task, err = nd.SetField(task.Slug, taskdoc.KeyOverride, override); err != nil {
				return nil, taskflow.At(err, t.Path, task.Slug)
			}
		}
		flow := t.Flow()
		if err := flow.CheckRecords(before, task, s.cfg.Override != ""); err != nil {
			return nil, err
		}
		r := flow.Resolver(ctx, s.ws)
		if err := r.CheckLinks(nd, []*taskdoc.Task{task}); err != nil {
			return nil, err
		}
		if err := flow.CheckRename(ctx, s.ws, t.Slug, task); err != nil {
			return nil, err
		}
		if nd, err = r.CheckWritten(nd, task, before.Status, s.cfg.Override != ""); err != nil {
			return nil, err
		}
		if task, err = nd.Task(task.Slug); err != nil {
			return nil, err
		}
		st.Rename(t.Slug, task.Slug) // a renamed task keeps its claim
		edited = *task
		return nd, nil
	})
	if err != nil {
		return taskdoc.Task{}, taskflow.At(err, t.Path, t.Slug)
	}
	return edited, nil
}

// List returns the tasks of document in order; only those with one of
// statuses when any are given (statuses are read with taskdoc.ParseStatus,
// so " In_Progress " is in_progress and an unknown one is UNKNOWN_STATUS).
func (s *Tasks) List(ctx context.Context, document string, statuses ...taskdoc.Status) ([]taskdoc.Task, error) {
	t, err := documentTarget(document)
	if err != nil {
		return nil, err
	}
	want, err := t.Flow().StatusSet(statuses)
	if err != nil {
		return nil, err
	}
	doc, err := s.read(ctx, t)
	if err != nil {
		return nil, err
	}
	return taskflow.Filter(doc.Tasks, want), nil
}

// View returns the tasks of document with the given slugs, in the order
// asked, or every task when no slug is given. A slug may keep the '#' of
// its address ("#add-token-validation"). An unknown slug is TASK_NOT_FOUND
// listing the slugs that exist.
func (s *Tasks) View(ctx context.Context, document string, slugs ...string) ([]taskdoc.Task, error) {
	t, err := documentTarget(document)
	if err != nil {
		return nil, err
	}
	doc, err := s.read(ctx, t)
	if err != nil {
		return nil, err
	}
	if len(slugs) == 0 {
		return doc.Tasks, nil
	}
	tasks := make([]taskdoc.Task, 0, len(slugs))
	for _, slug := range slugs {
		task, err := doc.Task(strings.TrimPrefix(slug, "#"))
		if err != nil {
			return nil, taskflow.At(err, t.Path, slug)
		}
		tasks = append(tasks, *task)
	}
	return tasks, nil
}

// read parses the document at t without a lock: the workspace replaces
// files atomically, so a read sees one whole version.
func (s *Tasks) read(ctx context.Context, t target) (*taskdoc.Document, error) {
	snap, err := s.snapshot(ctx, t)
	if err != nil {
		return nil, err
	}
	return snap.Doc, nil
}

// snapshot reads and parses the document at t without a lock.
func (s *Tasks) snapshot(ctx context.Context, t target) (*taskflow.Snapshot, error) {
	snap, err := taskflow.ReadSnapshot(ctx, s.ws, t.File)
	if err != nil {
		return nil, taskflow.At(err, t.Path, t.Slug)
	}
	return snap, nil
}

// parseDocument parses the document at t, as Update passes it.
func (s *Tasks) parseDocument(t target, src []byte, exists bool) (*taskdoc.Document, error) {
	if !exists {
		return nil, notFound(t)
	}
	return s.ws.Parse(t.File, src)
}

func notFound(t target) error {
	return &taskdoc.Error{Code: taskdoc.CodeDocumentNotFound,
		Msg: fmt.Sprintf("document %s not found (no %s)", t.Path, t.File)}
}

// fence is the claims' fence (claims.Guard) for a write on task slug of
// doc, moving it to status to ("" for no move), under the claims st: a
// caller that is not an agent writes only on a task no agent holds, unless
// Tasks was made with WithOverride. It returns the document to edit.
func (s *Tasks) fence(ctx context.Context, st *claims.File, t target, doc *taskdoc.Document, slug string, to taskdoc.Status) (*taskdoc.Document, error) {
	tk, err := doc.Task(slug)
	if err != nil {
		return doc, nil // the edit reports a missing task
	}
	nd, _, err := claims.Guard(ctx, st, t.Path, doc, tk, to, s.cfg.Override, s.cfg.Today().Format(time.DateOnly))
	return nd, err
}

// rewrite runs fn on the document at t under its lock and its claims'
// (claims.Rewrite). The claim of the task at t follows the document
// (claims.File.Follow) before fn, so that fn fences its write with a claim
// that agrees with the document, and after it: a completion ends its
// claim, a claim whose Assignee went (a removal, an override) is released,
// a reopened task's ended claim lets nothing through. fn returns the
// document to write (nil for no write), which is remembered.
func (s *Tasks) rewrite(ctx context.Context, t target, fn func(current []byte, exists bool, st *claims.File) (*taskdoc.Document, error)) error {
	return claims.Rewrite(ctx, s.ws, t.File, func(current []byte, exists bool, st *claims.File) ([]byte, error) {
		if _, held := st.Tasks[t.Slug]; held && exists {
			if doc, err := s.ws.Parse(t.File, current); err == nil {
				follow(st, doc, t.Slug)
			}
		}
		nd, err := fn(current, exists, st)
		if err != nil || nd == nil {
			return nil, err
		}
		follow(st, nd, t.Slug)
		s.ws.Remember(t.File, nd)
		return nd.Source, nil
	})
}

// follow brings the claim of task slug into line with doc
// (claims.File.Follow).
func follow(st *claims.File, doc *taskdoc.Document, slug string) {
	var assignee string
	var status taskdoc.Status
	if tk, err := doc.Task(slug); err == nil {
		assignee, _ = tk.Field(taskdoc.KeyAssignee)
		status = tk.Status
	}
	st.Follow(slug, assignee, status)
}

// ready refuses a move of the task at t to status to (by move) while its
// dependencies are not done (TASK_BLOCKED), unless Tasks is a person's
// (WithOverride), which records it in the task's Forced field.
func (s *Tasks) ready(ctx context.Context, t target, doc *taskdoc.Document, move taskflow.Move, to taskdoc.Status) (*taskdoc.Document, error) {
	return t.Flow().Resolver(ctx, s.ws).CheckReady(doc, t.Slug, move, to, s.cfg.Override != "")
}
