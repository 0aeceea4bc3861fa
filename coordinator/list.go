package coordinator

import (
	"time"

	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// The files the coordinator owns, root-relative.
const (
	// File is the sequential coordinator task list.
	File = taskdoc.FolderCoordinator + "/active.md"
	// archiveDir holds finished lists, named
	// active-YYYY-MM-DD-HHMMSS.md (UTC), -2, -3, ... within one second.
	archiveDir = taskdoc.FolderArchived + "/" + taskdoc.FolderCoordinator
)

// Address is the list's address, as errors name it.
const Address = "/" + File

// The head of a new list, written when Create finds no list.
const (
	listTitle    = "Coordinator Tasks"
	listOverview = "Sequential coordinator task list. Auto-archives when all tasks complete."
)

// List is the sequential coordinator task list of one workspace. It holds
// no state of its own: every call reads coordinator/active.md under the
// file's lock, so any number of List values, goroutines and processes can
// share a workspace.
type List struct {
	ws   *workspace.Workspace
	cfg  taskflow.Config
	flow taskflow.Flow
}

// An Option configures a List: WithClock, WithReferenceDepth. The zero
// Option is ignored.
type Option struct{ o taskflow.Option }

// WithClock sets the clock used for Completed dates, archive names and
// recovery (all in UTC). The default is time.Now; a nil clock is ignored.
func WithClock(now func() time.Time) Option { return Option{taskflow.WithClock(now)} }

// WithReferenceDepth sets how many levels of @references Start loads (1: the
// task's own references only; 0 or less: none). The default is 3.
func WithReferenceDepth(n int) Option { return Option{taskflow.WithReferenceDepth(n)} }

// New returns the coordinator list of ws.
func New(ws *workspace.Workspace, opts ...Option) *List {
	return &List{ws: ws, cfg: taskflow.Configure(opts, func(o Option) taskflow.Option { return o.o }), flow: taskflow.Flow{Path: Address, File: File}}
}

// newList is the text of a list before its first task.
func newList() []byte {
	return []byte("# " + listTitle + "\n\n" + listOverview + "\n\n## Tasks\n")
}
