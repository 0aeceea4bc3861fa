package editor

import "github.com/taskmd/taskmd/taskdoc"

// Severity is how much a Diagnostic matters, numbered as in the Language
// Server Protocol.
type Severity int

// The severities a Diagnostic has (the protocol's Information, 3, and
// Hint, 4, are not used).
const (
	SeverityError   Severity = 1
	SeverityWarning Severity = 2
)

// Diagnostic is one problem found in a document, with a stable Code
// (see the Code constants) that an editor may filter or act on.
type Diagnostic struct {
	Range    Range        `json:"range"`
	Severity Severity     `json:"severity"`
	Code     taskdoc.Code `json:"code"`
	Message  string       `json:"message"`
	Related  []Related    `json:"related,omitempty"`
}

// Related is another place a Diagnostic is about: the other task with the
// same slug, the tasks of a cycle.
type Related struct {
	Location Location `json:"location"`
	Message  string   `json:"message"`
}

// SymbolKind says what a Symbol is.
type SymbolKind string

// The kinds of symbol.
const (
	SymbolTasks SymbolKind = "tasks" // the Tasks section
	SymbolTask  SymbolKind = "task"
)

// Symbol is the Tasks section of a document, or one of its tasks, for an
// editor's outline.
type Symbol struct {
	Name   string         `json:"name"`
	Detail string         `json:"detail,omitempty"` // a task's status
	Kind   SymbolKind     `json:"kind"`
	Status taskdoc.Status `json:"status,omitempty"`
	// Address is a task's address ("/api/auth.md#implement-jwt-signing").
	Address string `json:"address,omitempty"`
	// Range is the whole section or task, SelectionRange its heading.
	Range          Range    `json:"range"`
	SelectionRange Range    `json:"selection_range"`
	Children       []Symbol `json:"children,omitempty"`
}

// TaskSymbol is a task found across the workspace.
type TaskSymbol struct {
	Name     string         `json:"name"` // the title
	Address  string         `json:"address"`
	Status   taskdoc.Status `json:"status"`
	Location Location       `json:"location"` // the heading
}

// Hover is what an editor shows over a task heading or a reference.
type Hover struct {
	Markdown string `json:"markdown"`
	Range    Range  `json:"range"` // the text hovered over
}

// CompletionKind says what a Completion completes.
type CompletionKind string

// The kinds of completion.
const (
	CompletePath     CompletionKind = "path"     // a document after "@/"
	CompleteAnchor   CompletionKind = "anchor"   // a section after "@/doc.md#"
	CompleteTask     CompletionKind = "task"     // a task address in Depends-On
	CompleteStatus   CompletionKind = "status"   // a Status value
	CompleteWorkflow CompletionKind = "workflow" // a Workflow or Main-Workflow name
)

// Completion is one thing an editor may insert at the cursor: NewText in
// place of Range (the part of the word already typed).
type Completion struct {
	Label   string         `json:"label"`
	Kind    CompletionKind `json:"kind"`
	Detail  string         `json:"detail,omitempty"`
	Range   Range          `json:"range"`
	NewText string         `json:"new_text"`
}

// ActionName names a change an editor can make to a task.
type ActionName string

// The actions.
const (
	ActionStart    ActionName = "start"
	ActionComplete ActionName = "complete" // needs a note
	ActionBlock    ActionName = "block"    // takes a reason
	ActionUnblock  ActionName = "unblock"
	ActionReopen   ActionName = "reopen"
	ActionAddTask  ActionName = "add_task" // a new task after this one; takes a title
	ActionArchive  ActionName = "archive"  // the finished coordinator list, on disk
)

// Action is a change offered for the task at the cursor. Edits is the
// change, ready to apply, when it needs nothing more; an action that needs
// input (Needs: "note" for complete) or runs on disk (archive) has none,
// and is carried out by Apply or Archive.
type Action struct {
	Title   string     `json:"title"`
	Name    ActionName `json:"name"`
	Path    string     `json:"path"`
	Slug    string     `json:"slug,omitempty"`
	Version int        `json:"version"` // of the buffer the edits apply to, when Open
	Open    bool       `json:"open"`    // false: the document is not open, its edits apply to its file
	Needs   string     `json:"needs,omitempty"`
	Edits   []Edit     `json:"edits,omitempty"`
}

// ActionRequest asks Apply for the edits of an action.
type ActionRequest struct {
	Name   ActionName `json:"name"`
	Path   string     `json:"path"`
	Slug   string     `json:"slug,omitempty"`
	Note   string     `json:"note,omitempty"`   // complete
	Reason string     `json:"reason,omitempty"` // block
	Title  string     `json:"title,omitempty"`  // add_task
	// Version is the buffer version the request was made for. With
	// CheckVersion, a buffer at another version (one that changed since)
	// is CONFLICT; without, the edits are for the buffer as it is.
	Version      int  `json:"version,omitempty"`
	CheckVersion bool `json:"check_version,omitempty"`
}

// DocumentEdit is a change to one document: Edits apply to the buffer of
// Version when Open, else to the document's file.
type DocumentEdit struct {
	Path    string `json:"path"`
	Version int    `json:"version"`
	Open    bool   `json:"open"`
	Edits   []Edit `json:"edits"`
}
