package main

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
	"go.lsp.dev/protocol"

	"github.com/taskmd/taskmd/editor"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// Files that other processes change: the server hears of them from its
// own watch and from the editor (workspace/didChangeWatchedFiles), lets a
// burst of events settle, and tells the Session, which answers for an open
// document with the edits that bring a clean buffer to the file, or with a
// conflict.

// watchedFolders are the workspace's folders whose files the Session
// reads: task documents, the coordinator's list, workflow prompts, and
// the library's state (claims).
var watchedFolders = []string{taskdoc.FolderDocs, taskdoc.FolderCoordinator, taskdoc.FolderWorkflows, workspace.StateDir}

// DidChangeWatchedFiles is the editor's word of changes on disk, for
// editors that watch files themselves.
func (s *server) DidChangeWatchedFiles(ctx context.Context, params *protocol.DidChangeWatchedFilesParams) error {
	_, root := s.state()
	for _, c := range params.Changes {
		if path, ok := workspacePath(root, c.URI); ok && watched(path) {
			s.disk.add(path)
		}
	}
	return nil
}

// watched reports whether a change of the file at path matters: a
// Markdown file of the watched folders, or a file of the library's state
// but its lock files. Temporary files of atomic writes start with a dot.
func watched(path string) bool {
	top, _, _ := strings.Cut(path, "/")
	base := filepath.Base(filepath.FromSlash(path))
	if !slices.Contains(watchedFolders, top) || strings.HasPrefix(base, ".") {
		return false
	}
	if top == workspace.StateDir {
		return !strings.HasPrefix(path, workspace.StateDir+"/locks/")
	}
	return strings.HasSuffix(path, ".md")
}

// diskChanged tells the Session of changed files, applies the edits that
// bring clean buffers to their files, and publishes diagnostics again.
func (s *server) diskChanged(paths []string) {
	session, _ := s.state()
	if session == nil {
		return
	}
	ctx := s.ctx
	for _, path := range paths {
		r, err := session.DiskChanged(ctx, path)
		if err != nil {
			s.log.Warn("reading a changed file", "path", path, "error", err)
			continue
		}
		if len(r.Edits) > 0 {
			s.refresh(ctx, session, r)
		}
	}
	s.diagnostics.schedule()
}

// refresh has the editor apply the edits of a clean buffer whose file
// changed. An editor that refuses (its buffer changed meanwhile) holds a
// buffer that now differs from its file: the Session, told again, marks
// the conflict. An editor that applies them sends the change back; the
// next file change waits for it, so that it is not taken for unsaved
// changes of the user.
func (s *server) refresh(ctx context.Context, session *editor.Session, r editor.Refresh) {
	label := "taskmd: " + r.Path + " changed on disk"
	res, err := s.client.ApplyEdit(ctx, &protocol.ApplyWorkspaceEditParams{Label: &label, Edit: *s.versionedEdit(r.Path, r.Version, true, r.Edits)})
	if err != nil || !res.Applied {
		s.log.Info("the editor did not follow the file", "path", r.Path, "error", err)
		if _, err := session.DiskChanged(ctx, r.Path); err != nil {
			s.log.Warn("reading a changed file", "path", r.Path, "error", err)
		}
		return
	}
	s.awaitChange(ctx, session, r.Path, r.Version, 2*time.Second)
}

// awaitChange waits, at most timeout, for the open document at path to
// leave version.
func (s *server) awaitChange(ctx context.Context, session *editor.Session, path string, version int, timeout time.Duration) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		s.mu.Lock()
		changed := s.changed
		s.mu.Unlock()
		if _, v, ok := session.Text(path); !ok || v != version {
			return
		}
		select {
		case <-changed:
		case <-timer.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// bufferChanged wakes those waiting in awaitChange.
func (s *server) bufferChanged() {
	s.mu.Lock()
	close(s.changed)
	s.changed = make(chan struct{})
	s.mu.Unlock()
}

// diskQueue gathers changed paths for a moment (a write is a burst of
// events: a temporary file, a rename) and hands them over together, one
// batch at a time.
type diskQueue struct {
	settle time.Duration
	after  afterFunc
	handle func(paths []string)

	mu      sync.Mutex
	pending []string
	timer   bool // a hand-over is due
	cancel  func() bool
	stopped bool

	run sync.Mutex
}

func newDiskQueue(settle time.Duration, after afterFunc, handle func([]string)) *diskQueue {
	return &diskQueue{settle: settle, after: after, handle: handle}
}

func (q *diskQueue) add(path string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.stopped {
		return
	}
	if !slices.Contains(q.pending, path) {
		q.pending = append(q.pending, path)
	}
	if !q.timer {
		q.timer = true
		q.cancel = q.after(q.settle, q.fire)
	}
}

func (q *diskQueue) fire() {
	q.run.Lock()
	defer q.run.Unlock()
	q.mu.Lock()
	paths, stopped := q.pending, q.stopped
	q.pending, q.timer = nil, false
	q.mu.Unlock()
	if !stopped && len(paths) > 0 {
		slices.Sort(paths)
		q.handle(paths)
	}
}

// stop cancels the hand-over due.
func (q *diskQueue) stop() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.stopped = true
	if q.cancel != nil {
		q.cancel()
	}
}

// wait returns once a hand-over under way has ended.
func (q *diskQueue) wait() {
	q.run.Lock()
	defer q.run.Unlock()
}

// watcher watches the workspace's folders, and the root for those
// folders to appear.
type watcher struct {
	fs   *fsnotify.Watcher
	done chan struct{}
}

// watch reports each changed file of the watched folders, as a workspace
// path, to changed. Folders made later are watched as they appear; the
// files already in them are reported.
func watch(root string, changed func(path string), log *slog.Logger) (*watcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	if err := fw.Add(root); err != nil {
		fw.Close()
		return nil, err
	}
	w := &watcher{fs: fw, done: make(chan struct{})}
	for _, dir := range watchedFolders {
		if err := addTree(fw, filepath.Join(root, dir), nil); err != nil {
			log.Warn("cannot watch a folder", "folder", dir, "error", err)
		}
	}
	go w.loop(root, changed, log)
	return w, nil
}

func (w *watcher) loop(root string, changed func(string), log *slog.Logger) {
	defer close(w.done)
	for {
		select {
		case ev, ok := <-w.fs.Events:
			if !ok {
				return
			}
			w.event(root, ev, changed, log)
		case err, ok := <-w.fs.Errors:
			if !ok {
				return
			}
			log.Warn("watching the workspace", "error", err)
		}
	}
}

func (w *watcher) event(root string, ev fsnotify.Event, changed func(string), log *slog.Logger) {
	path, ok := inside(root, ev.Name)
	if !ok {
		return
	}
	top, _, _ := strings.Cut(path, "/")
	if !slices.Contains(watchedFolders, top) {
		return
	}
	if ev.Has(fsnotify.Create) {
		if info, err := os.Lstat(ev.Name); err == nil && info.IsDir() {
			report := func(name string) {
				if p, ok := inside(root, name); ok && watched(p) {
					changed(p)
				}
			}
			if err := addTree(w.fs, ev.Name, report); err != nil {
				log.Warn("cannot watch a folder", "folder", path, "error", err)
			}
			return
		}
	}
	if watched(path) {
		changed(path)
	}
}

// addTree watches dir and the folders below it (not following symbolic
// links), and passes each file found to file when it is not nil. A dir
// that does not exist is no error: the root's watch sees it appear.
func addTree(fw *fsnotify.Watcher, dir string, file func(name string)) error {
	err := filepath.WalkDir(dir, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.IsDir() {
			return fw.Add(name)
		}
		if file != nil && d.Type().IsRegular() {
			file(name)
		}
		return nil
	})
	return err
}

func (w *watcher) close() {
	w.fs.Close()
	<-w.done
}
