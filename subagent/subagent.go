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
	err = s.ws.UpdateDocument(ctx, t.File, func(doc *taskdoc.Document) (*taskdoc.Document, error) {
		if doc == nil {
			var err error
			if doc, err = s.ws.Parse(t.File, taskdoc.NewDocument(taskdoc.TitleFromPath(t.Path))); err != nil {
				return nil, err
			}
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
		return nd, nil
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
	// The edit is made first, to learn the status it writes, which the
	// fence decides on; it is made again only on the document a person's
	// override changed, keeping the override's record.
	var tried, nd *taskdoc.Document
	var task *taskdoc.Task
	c := s.change(ctx, t)
	c.Decide = func(doc *taskdoc.Document, before *taskdoc.Task) (taskflow.Move, taskdoc.Status, error) {
		var err error
		if nd, task, err = t.Flow().Edit(doc, t.Slug, e); err != nil {
			return "", "", err
		}
		tried = doc
		if task.Status != before.Status {
			return "", task.Status, nil
		}
		return "", "", nil
	}
	c.Apply = func(doc *taskdoc.Document, before *taskdoc.Task, st *claims.File) (*taskdoc.Document, error) {
		var err error
		if doc != tried {
			override, _ := before.Field(taskdoc.KeyOverride)
			if nd, task, err = t.Flow().Edit(doc, t.Slug, e); err != nil {
				return nil, err
			}
			if nd, task, err = nd.SetField(task.Slug, taskdoc.KeyOverride, override); err != nil {
				return nil, err
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
	}
	if _, err := claims.Make(ctx, s.ws, c); err != nil {
		return taskdoc.Task{}, err
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

func notFound(t target) error {
	return &taskdoc.Error{Code: taskdoc.CodeDocumentNotFound,
		Msg: fmt.Sprintf("document %s not found (no %s)", t.Path, t.File)}
}

// change is a write on the task at t (claims.Make) by the writer ctx
// carries, as the person Tasks writes for (WithOverride), if any.
func (s *Tasks) change(ctx context.Context, t target) claims.Change {
	return claims.Change{Target: t, Who: claims.WhoOf(ctx, t.Address(), s.cfg.Override),
		Date: s.cfg.Today().Format(time.DateOnly), Missing: notFound(t)}
}
