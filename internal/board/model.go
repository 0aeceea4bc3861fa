package board

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/internal/claims"
	"github.com/taskmd/taskmd/journal"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// docView is one document as the board shows it, made once per version of
// its bytes and never changed after: pages and pushes read it without a
// lock.
type docView struct {
	Address string
	File    string
	Title   string
	Version workspace.Version
	Tasks   []taskdoc.Task
	Err     string // why the document does not read, "" when it does
	Code    taskdoc.Code
	// Claims are the claim records of its tasks, by slug, from its claims
	// file, whose Version is claimsVersion: a card shows since when its
	// holder holds it.
	Claims        map[string]claims.Record
	claimsVersion workspace.Version
	// Last is the newest journal entry of each of its tasks that has one,
	// by slug; journalStamp says what its journals' folder held.
	Last         map[string]journal.Entry
	journalStamp string
	cards        map[string]template.HTML // task address -> its card
	section      template.HTML            // the whole section, cards included
}

// model is the board's view of the workspace's documents, kept between
// requests: a refresh reads every file (cheap) and parses and renders only
// those whose bytes changed (workspace.Parse keeps the last parse of each).
type model struct {
	mu      sync.Mutex // serialises refreshes
	docs    map[string]*docView
	order   []string // addresses, sorted; the coordinator list first
	version int64    // grows with every refresh that changed something
}

// update is what one refresh changed, for the live page.
type update struct {
	cards    []cardEvent    // changed cards of documents whose sections kept their shape
	sections []sectionEvent // documents added, removed or reshaped
	views    []string       // the pages whose other data changed (viewsOf)
}

type cardEvent struct {
	Address string `json:"address"`
	HTML    string `json:"html"`
	Column  string `json:"column"` // the column it belongs in now: the page moves it there
}

type sectionEvent struct {
	ID   string `json:"id"`
	HTML string `json:"html"` // "" for a document that is gone
}

func (u update) empty() bool { return len(u.cards) == 0 && len(u.sections) == 0 && len(u.views) == 0 }

// refresh reads the documents and rebuilds what changed. render makes a
// view's cards and section.
func (m *model) refresh(ctx context.Context, ws *workspace.Workspace, render func(*docView) error) (update, int64, error) {
	names, err := documentFiles(ws)
	if err != nil {
		return update{}, 0, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.docs == nil {
		m.docs = map[string]*docView{}
	}
	var u update
	next := make(map[string]*docView, len(names))
	for _, name := range names {
		if err := ctx.Err(); err != nil {
			return update{}, 0, err
		}
		a, err := taskdoc.AddressOfFile(name)
		if err != nil {
			continue // no address names it
		}
		data, v, err := ws.Read(ctx, name)
		if errors.Is(err, fs.ErrNotExist) || taskdoc.CodeOf(err) == taskdoc.CodeDocumentNotFound {
			continue // gone since the listing
		}
		held, cv := readClaims(ctx, ws, name)
		stamp := journalStamp(ws, a.Path)
		old := m.docs[a.Path]
		if err == nil && old != nil && old.Version == v && old.claimsVersion == cv && old.journalStamp == stamp && old.Err == "" {
			next[a.Path] = old
			continue
		}
		d := &docView{Address: a.Path, File: name, Version: v, Claims: held, claimsVersion: cv, journalStamp: stamp}
		if err == nil {
			var doc *taskdoc.Document
			if doc, err = ws.Parse(name, data); err == nil {
				d.Tasks, d.Title = doc.Tasks, title(doc)
			}
		}
		if err != nil {
			d.Err, d.Code = err.Error(), taskdoc.CodeOf(err)
		}
		if stamp != "" {
			d.Last = lastEntries(ctx, ws, d)
		}
		if err := render(d); err != nil {
			return update{}, 0, err
		}
		next[a.Path] = d
		u.add(old, d)
	}
	for addr, old := range m.docs {
		if _, ok := next[addr]; !ok {
			u.sections = append(u.sections, sectionEvent{ID: sectionID(old.Address)})
		}
	}
	m.docs = next
	m.order = slices.SortedFunc(maps.Keys(next), func(a, b string) int {
		if (a == coordinator.Address) != (b == coordinator.Address) {
			if a == coordinator.Address {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	if !u.empty() {
		m.version++
	}
	return u, m.version, nil
}

// add records the change from old to d: the changed cards when the
// document still has the same tasks in the same order, else the whole
// section.
func (u *update) add(old, d *docView) {
	if old == nil || !sameShape(old, d) {
		u.sections = append(u.sections, sectionEvent{ID: sectionID(d.Address), HTML: string(d.section)})
		return
	}
	for _, t := range d.Tasks {
		addr := taskdoc.Address{Path: d.Address, Slug: t.Slug}.String()
		if d.cards[addr] != old.cards[addr] {
			u.cards = append(u.cards, cardEvent{Address: addr, HTML: string(d.cards[addr]), Column: column(t.Status)})
		}
	}
}

// sameShape reports whether a and b have the same tasks in the same
// order, so that replacing (and moving) the changed cards shows b.
func sameShape(a, b *docView) bool {
	if a.Err != b.Err || a.Title != b.Title || len(a.Tasks) != len(b.Tasks) {
		return false
	}
	for i := range a.Tasks {
		if a.Tasks[i].Slug != b.Tasks[i].Slug {
			return false
		}
	}
	return true
}

// bump makes a new version for a change the documents do not show (an
// agent's heartbeat, a journal entry) and returns it.
func (m *model) bump() int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.version++
	return m.version
}

// snapshot returns the views in order and the model's version.
func (m *model) snapshot() ([]*docView, int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]*docView, 0, len(m.order))
	for _, a := range m.order {
		out = append(out, m.docs[a])
	}
	return out, m.version
}

// doc returns the view of one document, nil when there is none.
func (m *model) doc(address string) *docView {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.docs[address]
}

// documentFiles lists the task documents: every *.md under docs/ and the
// coordinator list, as root-relative names.
func documentFiles(ws *workspace.Workspace) ([]string, error) {
	var names []string
	err := fs.WalkDir(ws.FS(), taskdoc.FolderDocs, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == taskdoc.FolderDocs && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipDir
			}
			return nil // a folder that cannot be read shows nothing
		}
		if d.Type().IsRegular() && strings.HasSuffix(p, ".md") {
			names = append(names, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if ok, err := ws.Exists(context.Background(), coordinator.File); err == nil && ok {
		names = append(names, coordinator.File)
	}
	return names, nil
}

// title is the document's first level-1 heading, "" when it has none.
func title(doc *taskdoc.Document) string {
	for _, h := range doc.Headings {
		if h.Level == 1 {
			return h.Text
		}
	}
	return ""
}

// sectionID is the HTML id of a document's section.
func sectionID(address string) string { return "doc:" + address }

// columns are the board's columns, in order; column says where a status
// goes.
var columns = []string{"todo", "doing", "blocked", "done"}

func column(s taskdoc.Status) string {
	switch s {
	case taskdoc.StatusPlanning, taskdoc.StatusInProgress, taskdoc.StatusPaused:
		return "doing"
	case taskdoc.StatusBlocked, taskdoc.StatusFailed:
		return "blocked"
	case taskdoc.StatusCompleted, taskdoc.StatusSkipped:
		return "done"
	}
	return "todo"
}

// readClaims reads the claim records of the document file name, by slug,
// and the Version of its claims file's bytes. No file, or one that does
// not decode (taskmd check reports it), shows no claims.
func readClaims(ctx context.Context, ws *workspace.Workspace, name string) (map[string]claims.Record, workspace.Version) {
	file, err := claims.Name(ws, name)
	if err != nil {
		return nil, ""
	}
	data, err := ws.ReadIfExists(ctx, file)
	if err != nil || data == nil {
		return nil, ""
	}
	f, err := claims.Decode(name, file, data)
	if err != nil {
		return nil, workspace.VersionOf(data)
	}
	return f.Tasks, workspace.VersionOf(data)
}

// journalStamp is what the folder of the task journals of the document at
// address path holds: each file's name, size and time, "" when there is
// none. A card's last checkpoint is read again when it changes.
func journalStamp(ws *workspace.Workspace, path string) string {
	entries, err := fs.ReadDir(ws.FS(), "checkpoints/tasks"+path)
	if err != nil || len(entries) == 0 {
		return ""
	}
	var b strings.Builder
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			continue
		}
		fmt.Fprintf(&b, "%s %d %d\n", e.Name(), info.Size(), info.ModTime().UnixNano())
	}
	return b.String()
}

// lastEntries reads the newest journal entry of each task of d that has
// one. A journal that does not read shows none (the task page says why).
func lastEntries(ctx context.Context, ws *workspace.Workspace, d *docView) map[string]journal.Entry {
	j := journal.New(ws)
	out := map[string]journal.Entry{}
	for _, t := range d.Tasks {
		es, err := j.List(ctx, taskdoc.Address{Path: d.Address, Slug: t.Slug}.String(), journal.Query{Limit: 1})
		if err == nil && len(es) > 0 {
			out[t.Slug] = es[0] // newest first
		}
	}
	return out
}
