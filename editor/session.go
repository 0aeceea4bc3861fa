package editor

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// Session is an editor's view of one workspace: the documents open in the
// editor, whose buffers are the truth about them, over the files on disk,
// which are read only for documents that are not open. It is safe for
// concurrent use; every answer reads one version of each buffer.
type Session struct {
	ws  *workspace.Workspace
	enc Encoding
	now func() time.Time // WithClock's clock; nil until one is given
	cfg taskflow.Config

	mu   sync.Mutex
	open map[string]*buffer
	disk map[string]*view // files read from disk, by path
	all  bool             // disk holds every document of the workspace
	// generation counts the changes on disk the Session was told of, so
	// that what it derives from files (which workflows exist, claims) is
	// read again after one.
	generation uint64

	derived derived // what diagnostics read from files that are not documents
}

// Option configures a Session.
type Option func(*Session)

// WithEncoding sets how Positions count characters (UTF16 by default).
func WithEncoding(e Encoding) Option { return func(s *Session) { s.enc = e } }

// WithClock sets the clock that dates completions and judges claims
// (time.Now by default).
func WithClock(now func() time.Time) Option {
	return func(s *Session) {
		if now != nil {
			s.now = now
		}
	}
}

// New returns a Session on ws with no document open.
func New(ws *workspace.Workspace, opts ...Option) (*Session, error) {
	if err := ws.Check(); err != nil {
		return nil, err
	}
	s := &Session{ws: ws, enc: UTF16, open: map[string]*buffer{}, disk: map[string]*view{}}
	for _, o := range opts {
		o(s)
	}
	enc, err := parseEncoding(string(s.enc))
	if err != nil {
		return nil, err
	}
	s.enc = enc
	s.cfg = taskflow.NewConfig([]taskflow.Option{taskflow.WithClock(s.now)})
	return s, nil
}

// Encoding is how the Session's Positions count characters.
func (s *Session) Encoding() Encoding { return s.enc }

// Workspace is the workspace the Session reads.
func (s *Session) Workspace() *workspace.Workspace { return s.ws }

// buffer is one version of an open document. It is never changed: a change
// makes a new buffer, so a view taken from one stays consistent.
type buffer struct {
	path     string
	version  int
	text     *text
	disk     []byte // the file's bytes when the buffer last agreed with it; nil when it has no file
	onDisk   bool
	conflict bool // the file changed on disk while the buffer had unsaved changes

	once sync.Once
	v    *view
}

// Change is one edit of a buffer, as an editor reports it: the text that
// replaces Range, or the whole buffer when Range is nil.
type Change struct {
	Range *Range `json:"range,omitempty"`
	Text  string `json:"text"`
}

// Open opens the document at path (a slash-separated path relative to the
// workspace root, "docs/api/auth.md") with the editor's text: from now on
// the buffer, not the file, is the document. Opening an open document
// replaces its buffer.
func (s *Session) Open(ctx context.Context, path string, version int, content string) error {
	if err := checkPath(path); err != nil {
		return err
	}
	data, err := s.ws.ReadIfExists(ctx, path)
	if err != nil && taskdoc.CodeOf(err) != taskdoc.CodeDocumentNotFound {
		data = nil // unreadable: the buffer is all there is
	}
	b := &buffer{path: path, version: version, text: newText([]byte(content), s.enc), disk: data, onDisk: data != nil}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.open[path] = b
	return nil
}

// Change applies an editor's changes, in order, to the open document at
// path, which then has version. A change whose range does not fit the
// buffer is INVALID_ARGUMENTS and leaves the buffer as it was.
func (s *Session) Change(path string, version int, changes []Change) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.open[path]
	if !ok {
		return notOpen(path)
	}
	t := b.text
	for _, c := range changes {
		if c.Range == nil {
			t = newText([]byte(c.Text), s.enc)
			continue
		}
		start, end, err := t.rangeOffsets(*c.Range)
		if err != nil {
			return err
		}
		src := make([]byte, 0, len(t.src)-(end-start)+len(c.Text))
		src = append(append(append(src, t.src[:start]...), c.Text...), t.src[end:]...)
		t = newText(src, s.enc)
	}
	nb := &buffer{path: path, version: version, text: t, disk: b.disk, onDisk: b.onDisk, conflict: b.conflict}
	if nb.conflict && string(t.src) == string(nb.disk) {
		nb.conflict = false
	}
	s.open[path] = nb
	return nil
}

// Saved tells the Session that the open document at path was written to
// its file: the buffer and the file agree again.
func (s *Session) Saved(path string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.open[path]
	if !ok {
		return notOpen(path)
	}
	s.open[path] = &buffer{path: path, version: b.version, text: b.text, disk: b.text.src, onDisk: true}
	delete(s.disk, path)
	if s.all {
		// The file is the buffer now, and stays one of every document
		// once the buffer is closed.
		bv := b.view()
		s.disk[path] = &view{Path: path, Address: bv.Address, Doc: bv.Doc, Err: bv.Err, src: bv.src, enc: s.enc}
	}
	s.generation++
	return nil
}

// Close closes the document at path: from now on its file is the document.
// The Session's copy of the file stays: Saved and DiskChanged keep it up
// to date while the document is open.
func (s *Session) Close(path string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.open, path)
}

// Text returns the open document's text and version.
func (s *Session) Text(path string) (content string, version int, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.open[path]
	if !ok {
		return "", 0, false
	}
	return string(b.text.src), b.version, true
}

// Refresh is what a change on disk means for an open document.
type Refresh struct {
	Path    string `json:"path"`
	Version int    `json:"version"`
	// Edits bring the buffer, which had no unsaved changes, to the file's
	// new text; apply them to the buffer of Version.
	Edits []Edit `json:"edits,omitempty"`
	// Conflict is set when the buffer had unsaved changes and the file
	// changed under it: the buffer and the file disagree.
	Conflict bool `json:"conflict,omitempty"`
}

// DiskChanged tells the Session that the file at path changed on disk
// (was written, created or removed by someone else): the Session reads it
// again. For an open document it returns what the editor should do; for
// others a zero Refresh.
func (s *Session) DiskChanged(ctx context.Context, path string) (Refresh, error) {
	data, err := s.ws.ReadIfExists(ctx, path)
	if err != nil && taskdoc.CodeOf(err) != taskdoc.CodeDocumentNotFound {
		if ctx.Err() != nil {
			return Refresh{}, err
		}
		data = nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.generation++
	delete(s.disk, path)
	if !strings.HasSuffix(path, ".md") {
		return Refresh{}, nil
	}
	if s.all && data != nil {
		s.disk[path] = s.diskView(path, data)
	}
	b, ok := s.open[path]
	if !ok {
		return Refresh{}, nil
	}
	r := Refresh{Path: path, Version: b.version}
	clean := string(b.text.src) == string(b.disk)
	nb := &buffer{path: path, version: b.version, text: b.text, disk: data, onDisk: data != nil, conflict: b.conflict}
	switch {
	case string(b.text.src) == string(data):
		nb.conflict = false
	case data == nil:
		// The file was removed or moved away (an archived list): the
		// buffer is a document without a file, as a new one is; saving
		// writes it again. Nothing disagrees.
		nb.conflict = false
	case clean:
		r.Edits = b.text.diff(data)
		nb.conflict = false
	default:
		nb.conflict = true
		r.Conflict = true
	}
	s.open[path] = nb
	return r, nil
}

// view is one document as the Session sees it: the open buffer, or the
// file on disk.
type view struct {
	Path    string // "docs/api/auth.md"
	Address string // "/api/auth.md"; "" for a file no address names
	Open    bool
	Version int // the buffer's; 0 for a file
	// Conflict: the buffer has unsaved changes and the file changed under it.
	Conflict bool
	Doc      *taskdoc.Document // nil when the text does not parse
	Err      error

	src      []byte
	enc      Encoding
	textOnce sync.Once
	t        *text
}

// text is the view's text with its line index, built on first use.
func (v *view) text() *text {
	v.textOnce.Do(func() {
		if v.t == nil {
			v.t = newText(v.src, v.enc)
		}
	})
	return v.t
}

// Coordinator reports whether the view is the coordinator's list.
func (v *view) Coordinator() bool { return v.Path == coordinator.File }

func (s *Session) diskView(path string, data []byte) *view {
	v := &view{Path: path, src: data, enc: s.enc}
	if a, err := taskdoc.AddressOfFile(path); err == nil {
		v.Address = a.Path
	}
	v.Doc, v.Err = taskdoc.Parse(data)
	return v
}

func (b *buffer) view() *view {
	b.once.Do(func() {
		v := &view{Path: b.path, Open: true, Version: b.version, Conflict: b.conflict, src: b.text.src, enc: b.text.enc, t: b.text}
		if a, err := taskdoc.AddressOfFile(b.path); err == nil {
			v.Address = a.Path
		}
		v.Doc, v.Err = taskdoc.Parse(b.text.src)
		b.v = v
	})
	return b.v
}

// view returns the document at path: its buffer when it is open, else the
// file (DOCUMENT_NOT_FOUND when there is none).
func (s *Session) view(ctx context.Context, path string) (*view, error) {
	s.mu.Lock()
	b, open := s.open[path]
	v, cached := s.disk[path]
	s.mu.Unlock()
	if open {
		return b.view(), nil
	}
	if cached {
		return v, nil
	}
	if err := checkPath(path); err != nil {
		return nil, err
	}
	data, err := s.ws.ReadData(ctx, path)
	if err != nil {
		return nil, err
	}
	v = s.diskView(path, data)
	s.mu.Lock()
	if _, ok := s.disk[path]; !ok {
		s.disk[path] = v
	}
	s.mu.Unlock()
	return v, nil
}

// views returns every document of the workspace (docs/**.md and the
// coordinator's list), open buffers in place of their files, open
// documents that have no file included, sorted by path. Files are read
// once and then kept until DiskChanged names them.
func (s *Session) views(ctx context.Context) ([]*view, error) {
	s.mu.Lock()
	all := s.all
	s.mu.Unlock()
	if !all {
		srcs, err := taskflow.ReadAll(ctx, s.ws, taskdoc.FolderDocs, coordinator.File)
		if err != nil {
			return nil, err
		}
		disk := make(map[string]*view, len(srcs))
		for _, src := range srcs {
			v := &view{Path: src.File, Address: src.Address, Doc: src.Doc, Err: src.Err, enc: s.enc}
			if src.Doc != nil {
				v.src = src.Doc.Source
			}
			disk[src.File] = v
		}
		s.mu.Lock()
		if !s.all {
			s.disk, s.all = disk, true
		}
		s.mu.Unlock()
	}
	s.mu.Lock()
	out := make([]*view, 0, len(s.disk)+len(s.open))
	var open []*buffer
	for path, v := range s.disk {
		if !isDocument(path) {
			continue
		}
		if _, ok := s.open[path]; !ok {
			out = append(out, v)
		}
	}
	for path, b := range s.open {
		if isDocument(path) {
			open = append(open, b)
		}
	}
	s.mu.Unlock()
	for _, b := range open {
		out = append(out, b.view())
	}
	sortViews(out)
	return out, nil
}

// Documents returns the paths of the workspace's documents (docs/**.md and
// the coordinator's list), open ones included, sorted: the paths that
// Diagnostics judges. It reads every document once; Diagnostics of each
// then reads none again.
func (s *Session) Documents(ctx context.Context) ([]string, error) {
	vs, err := s.views(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.Path
	}
	return out, nil
}

// lookup is the document at path, a task document's path, as views
// has it (the open buffer, else the file), and whether there is one,
// without listing them all: a diagnostic looks up many.
func (s *Session) lookup(ctx context.Context, path string) (*view, bool, error) {
	s.mu.Lock()
	all := s.all
	s.mu.Unlock()
	if !all {
		if _, err := s.views(ctx); err != nil {
			return nil, false, err
		}
	}
	s.mu.Lock()
	b, open := s.open[path]
	v, ok := s.disk[path]
	s.mu.Unlock()
	if open {
		return b.view(), true, nil
	}
	return v, ok, nil
}

// isDocument reports whether path holds tasks: a Markdown file under docs/
// that an address names, or the coordinator's list.
func isDocument(path string) bool {
	if path == coordinator.File {
		return true
	}
	if !strings.HasPrefix(path, taskdoc.FolderDocs+"/") || !strings.HasSuffix(path, ".md") {
		return false
	}
	_, err := taskdoc.AddressOfFile(path)
	return err == nil
}

// checkPath refuses a path that is not a slash-separated path inside the
// workspace root.
func checkPath(path string) error {
	if path == "" || strings.HasPrefix(path, "/") || strings.Contains(path, "\\") {
		return &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Path: path,
			Msg: fmt.Sprintf("%q is not a slash-separated path relative to the workspace root", path)}
	}
	for _, el := range strings.Split(path, "/") {
		if el == "" || el == "." || el == ".." {
			return &taskdoc.Error{Code: taskdoc.CodeOutsideRoot, Path: path,
				Msg: fmt.Sprintf("%q is not a path inside the workspace root", path)}
		}
	}
	return nil
}

func notOpen(path string) error {
	return &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Path: path, Msg: path + " is not open"}
}

func sortViews(vs []*view) {
	sort.Slice(vs, func(i, j int) bool { return vs[i].Path < vs[j].Path })
}
