package query

import (
	"context"
	"fmt"
	"strings"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// Filter says which tasks Find returns: those that pass every condition
// set. The zero Filter matches every task.
type Filter struct {
	// Statuses keeps tasks in one of these statuses (read with
	// taskdoc.ParseStatus: " In_Progress " is in_progress).
	Statuses []taskdoc.Status `json:"statuses,omitempty"`
	// Document keeps the tasks of one document ("/api/auth.md",
	// "/coordinator/active.md") or, ending in "/", of every document in a
	// folder and below ("/api/"; "/" is every document). Matches are named
	// by their documents' own addresses: "/Coordinator/" finds
	// "/coordinator/active.md#slug".
	Document string `json:"document,omitempty"`
	// Workflow keeps tasks whose Workflow field is this name.
	Workflow string `json:"workflow,omitempty"`
	// Holder keeps tasks whose Assignee field (the agent holding the
	// task's claim, package plan) is this agent.
	Holder string `json:"holder,omitempty"`
	// DependsOn, a task address ("/api/auth.md#setup-keys"), keeps tasks
	// whose Depends-On lists that task: as "#setup-keys" in the same
	// document, or by its full address from any document. An entry that
	// is no task address is passed over; the field's others still count
	// (taskflow.DependsOn, the reading Remove uses).
	DependsOn string `json:"depends_on,omitempty"`
	// Fields keeps tasks that have each field (key matched ignoring case)
	// with this value (compared trimmed, exactly).
	Fields map[string]string `json:"fields,omitempty"`
	// Text keeps tasks whose title or body holds it, ignoring case.
	Text string `json:"text,omitempty"`
	// Limit, when positive, is the most matches returned: the first ones
	// in address order.
	Limit int `json:"limit,omitempty"`
}

// Match is one task Find found.
type Match struct {
	Address  string       `json:"address"`  // "/api/auth.md#implement-jwt-signing"
	Document string       `json:"document"` // "/api/auth.md"
	Task     taskdoc.Task `json:"task"`
}

// Find returns the tasks of the workspace's documents (docs/ and the
// coordinator list) that pass f, in address order: documents sorted by
// address, tasks in document order within one. A document that cannot be
// read or parsed is passed over (Documents reports it), unless f.Document
// names that one document: then its error is Find's, as is
// DOCUMENT_NOT_FOUND when it does not exist.
//
// A filter that cannot match anything by its form is refused before any
// file is read: an unknown status is UNKNOWN_STATUS; a Document or
// DependsOn that is not an address of its kind is INVALID_ADDRESS; a
// negative Limit, an empty field key or a field value on several lines is
// INVALID_ARGUMENTS.
func Find(ctx context.Context, ws *workspace.Workspace, f Filter) ([]Match, error) {
	m, err := compile(f)
	if err != nil {
		return nil, err
	}
	srcs, err := m.read(ctx, ws)
	if err != nil {
		return nil, err
	}
	out := []Match{}
	for _, s := range srcs {
		if s.Doc == nil || s.Address == "" {
			continue
		}
		for i := range s.Doc.Tasks {
			t := &s.Doc.Tasks[i]
			if !m.match(s.File, t) {
				continue
			}
			out = append(out, Match{Address: s.Address + "#" + t.Slug, Document: s.Address, Task: *t})
			if len(out) == f.Limit {
				return out, nil
			}
		}
	}
	return out, nil
}

// matcher is a Filter checked and made ready to test tasks.
type matcher struct {
	statuses map[taskdoc.Status]bool
	document string // one document's address path, or "" (see folder)
	folder   string // the folder of a folder filter ("docs/api"), or ""
	workflow string
	holder   string
	dep      taskdoc.Address // Path "" for none
	fields   []field
	text     string // lower case
}

type field struct{ key, value string }

func compile(f Filter) (*matcher, error) {
	statuses, err := taskflow.Flow{}.StatusSet(f.Statuses)
	if err != nil {
		return nil, err
	}
	m := &matcher{statuses: statuses, workflow: strings.TrimSpace(f.Workflow), holder: strings.TrimSpace(f.Holder),
		text: strings.ToLower(f.Text)}
	if f.Limit < 0 {
		return nil, invalid("the limit %d is negative: give 0 for no limit", f.Limit)
	}
	if err := m.scope(f.Document); err != nil {
		return nil, err
	}
	if f.DependsOn != "" {
		a, err := taskdoc.ParseAddress(f.DependsOn)
		if err != nil {
			return nil, err
		}
		if a.Slug == "" {
			return nil, &taskdoc.Error{Code: taskdoc.CodeInvalidAddress, Path: a.Path,
				Msg: fmt.Sprintf("depends-on filter %q names a document: give a task address, like %s#setup-keys", f.DependsOn, a.Path)}
		}
		m.dep = a
	}
	for k, v := range f.Fields {
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if k == "" {
			return nil, invalid("a field filter has an empty key")
		}
		if strings.ContainsAny(v, "\r\n") {
			return nil, invalid("the value of field filter %q is on several lines; field values are one line", k)
		}
		m.fields = append(m.fields, field{k, v})
	}
	return m, nil
}

// scope reads the Document filter.
func (m *matcher) scope(document string) error {
	switch {
	case document == "" || document == "/":
		return nil
	case strings.HasSuffix(document, "/"):
		prefix := "/" + strings.TrimPrefix(document, "/")
		if a, err := taskdoc.ParseAddress(prefix + "x.md"); err != nil || a.Slug != "" {
			return &taskdoc.Error{Code: taskdoc.CodeInvalidAddress, Path: document,
				Msg: fmt.Sprintf("document filter %q is not a folder address, like /api/", document)}
		}
		m.folder = taskflow.FolderOf(prefix)
		return nil
	}
	a, err := taskdoc.ParseAddress(document)
	if err != nil {
		return err
	}
	if a.Slug != "" {
		return &taskdoc.Error{Code: taskdoc.CodeInvalidAddress, Path: a.Path, Slug: a.Slug,
			Msg: fmt.Sprintf("document filter %q names a task: give its document, %s, or a folder ending in /", document, a.Path)}
	}
	m.document = a.Path
	return nil
}

// read reads the documents in the filter's scope. The folder filter
// walks the one folder its address names, so every document found is in
// scope whatever the case of a /coordinator/ or /archived/ prefix; and
// the address of a single document is its file's (taskdoc.AddressOfFile),
// so "/Coordinator/active.md" answers with /coordinator/active.md#slug
// addresses, as every other call names them.
func (m *matcher) read(ctx context.Context, ws *workspace.Workspace) ([]taskflow.Source, error) {
	switch {
	case m.document != "":
		file := taskdoc.Address{Path: m.document}.File()
		s, ok, err := taskflow.ReadOne(ctx, ws, file)
		switch {
		case err != nil:
			return nil, err
		case !ok:
			return nil, &taskdoc.Error{Code: taskdoc.CodeDocumentNotFound, Path: m.document,
				Msg: fmt.Sprintf("document %s not found (no %s)", m.document, file)}
		case s.Err != nil:
			return nil, taskflow.At(s.Err, m.document, "")
		}
		if s.Address == "" {
			s.Address = m.document
		}
		return []taskflow.Source{s}, nil
	case m.folder != "":
		return taskflow.ReadAll(ctx, ws, m.folder)
	}
	return taskflow.ReadAll(ctx, ws, taskdoc.FolderDocs, coordinator.File)
}

// match tests one task of the document in file.
func (m *matcher) match(file string, t *taskdoc.Task) bool {
	if m.statuses != nil && !m.statuses[t.Status] {
		return false
	}
	if m.workflow != "" && !hasValue(t, taskdoc.KeyWorkflow, m.workflow) {
		return false
	}
	if m.holder != "" && !hasValue(t, taskdoc.KeyAssignee, m.holder) {
		return false
	}
	for _, f := range m.fields {
		if !hasValue(t, f.key, f.value) {
			return false
		}
	}
	if m.dep.Path != "" && !taskflow.DependsOn(t, file, m.dep) {
		return false
	}
	return m.text == "" || containsFold(t.Title, m.text) || containsFold(t.Body, m.text)
}

func hasValue(t *taskdoc.Task, key, want string) bool {
	v, ok := t.Field(key)
	return ok && strings.TrimSpace(v) == want
}

// containsFold reports whether s holds lower, which is in lower case,
// ignoring case.
func containsFold(s, lower string) bool {
	if len(lower) > len(s) {
		return false
	}
	return strings.Contains(strings.ToLower(s), lower)
}

func invalid(format string, args ...any) error {
	return &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Msg: fmt.Sprintf(format, args...)}
}
