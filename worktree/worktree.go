package worktree

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/taskmd/taskmd/internal/git"
	"github.com/taskmd/taskmd/internal/hooks"
	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// stateDir is the folder of the worktree records, one <id>.json each.
const stateDir = workspace.StateDir + "/worktrees"

// GitError is a git command that failed, the cause of a GIT_ERROR:
// errors.As(err, new(*worktree.GitError)) gives git's arguments, exit
// code and message.
type GitError = git.Error

// Status is where a worktree stands.
type Status string

// The statuses of a worktree.
const (
	Active    Status = "active"    // an agent works in it
	Merged    Status = "merged"    // its branch was merged (MergeCommit says where)
	Abandoned Status = "abandoned" // given up; its branch is kept
)

// Worktree is the record of one agent's worktree; its JSON names are the
// agent protocol's (workspace_create, workspace_update).
type Worktree struct {
	ID          string    `json:"id"`
	WorkflowID  string    `json:"workflow_id,omitempty"`
	AgentID     string    `json:"agent_id,omitempty"`
	TaskIDs     []string  `json:"task_ids,omitempty"`
	Path        string    `json:"path,omitempty"` // absolute; "" when only a branch was made
	Branch      string    `json:"branch"`
	BaseBranch  string    `json:"base_branch,omitempty"`
	RepoPath    string    `json:"repo_path"`
	Status      Status    `json:"status"`
	MergeCommit string    `json:"merge_commit,omitempty"`
	PRURL       string    `json:"pr_url,omitempty"`
	Created     time.Time `json:"created"`
	Updated     time.Time `json:"updated"`
}

// Spec is what Create makes: the protocol's workspace_create parameters.
type Spec struct {
	ID             string   // optional: a caller's ID makes a retry return the first result
	WorkflowID     string   // optional
	AgentID        string   // optional: the agent the worktree is for
	Branch         string   // required: the new branch
	BaseBranch     string   // optional: where it starts (default: the repository's HEAD)
	TaskIDs        []string // optional: the tasks worked there
	CreateWorktree bool     // false: the branch only
	RepoPath       string   // optional: the repository (default: the one holding the workspace); only that one or one inside the workspace root
	Path           string   // optional: where the worktree goes, inside the worktree folder
}

// Change is what Update changes: the protocol's workspace_update parameters.
type Change struct {
	Status          Status // "" keeps it; merged needs MergeCommit
	MergeCommit     string
	PRURL           string
	CleanupWorktree bool // remove the worktree's folder (git worktree remove --force)
}

// Manager creates and keeps the worktrees of a workspace.
type Manager struct {
	ws     *workspace.Workspace
	now    func() time.Time
	folder string
}

// An Option configures a Manager.
type Option func(*Manager)

// WithClock sets the clock of the records' times.
func WithClock(now func() time.Time) Option { return func(m *Manager) { m.now = now } }

// WithFolder sets the folder worktrees go in. Without it, the
// repository's git config taskmd.worktreeFolder names it (relative to the
// repository), else it is "<repository>-worktrees" beside the repository.
func WithFolder(dir string) Option { return func(m *Manager) { m.folder = dir } }

// New returns the Manager of ws's worktrees.
func New(ws *workspace.Workspace, opts ...Option) *Manager {
	m := &Manager{ws: ws, now: time.Now}
	for _, o := range opts {
		o(m)
	}
	return m
}

func fileOf(id string) string { return stateDir + "/" + id + ".json" }

func invalid(msg string) error {
	return &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Msg: msg}
}

func newID() string {
	var b [6]byte
	rand.Read(b[:])
	return "ws_" + hex.EncodeToString(b[:])
}

// Create makes the branch and, with CreateWorktree, the worktree for it,
// and records them as active. A branch name git refuses, a path outside
// the worktree folder or a base branch that does not exist is an error and
// changes nothing; so is a branch that exists already (GIT_ERROR, with
// git's message). Given an ID, a retry returns the record the first call
// made, and a retry of a call that was stopped half-way (a crash, a kill)
// finishes its work: it takes over the branch, and the worktree, the
// stopped call made, as long as the branch is still at the commit that
// call started it at, even if the base branch has moved on since (a
// branch anyone moved stays refused). A retry with other arguments than
// the stopped call's is CONFLICT. A Create that fails removes the branch
// and worktree git made for it (or for the stopped call), and nothing
// else: not a branch a person made, nor a worktree in its way.
func (m *Manager) Create(ctx context.Context, s Spec) (Worktree, error) {
	if s.ID != "" {
		if !taskflow.ValidID(s.ID) {
			return Worktree{}, invalid(fmt.Sprintf("id %q: use up to %d lower-case letters, digits, '_' and '-'", s.ID, taskflow.MaxID))
		}
		if wt, err := m.Get(ctx, s.ID); err == nil {
			m.forget(ctx, s.ID) // left by a call stopped after its record; harmless if it stays
			return wt, nil
		} else if taskdoc.CodeOf(err) != CodeWorktreeNotFound {
			return Worktree{}, err
		}
	}
	if strings.TrimSpace(s.Branch) == "" {
		return Worktree{}, invalid("branch is required")
	}
	repo, err := m.repo(ctx, s.RepoPath)
	if err != nil {
		return Worktree{}, err
	}
	if _, err := git.Run(ctx, repo, "check-ref-format", "--branch", s.Branch); err != nil {
		return Worktree{}, invalid(fmt.Sprintf("branch %q is not a valid branch name", s.Branch))
	}
	base := cmp.Or(s.BaseBranch, "HEAD")
	baseCommit, err := git.Run(ctx, repo, "rev-parse", "--verify", "--quiet", base+"^{commit}")
	if err != nil {
		if s.BaseBranch != "" {
			return Worktree{}, invalid(fmt.Sprintf("base branch %q does not exist", s.BaseBranch))
		}
		return Worktree{}, invalid(fmt.Sprintf("the repository %s has no commit to start branch %q at: commit first, or give base_branch", repo, s.Branch))
	}
	if _, err := m.ws.IgnoreState(ctx); err != nil {
		return Worktree{}, err
	}
	now := m.now().UTC()
	wt := Worktree{ID: s.ID, WorkflowID: s.WorkflowID, AgentID: s.AgentID, TaskIDs: s.TaskIDs,
		Branch: s.Branch, BaseBranch: s.BaseBranch, RepoPath: repo, Status: Active, Created: now, Updated: now}
	if wt.ID == "" {
		wt.ID = newID()
	}
	if s.CreateWorktree {
		if wt.Path, err = m.path(ctx, repo, s.Path, s.Branch); err != nil {
			return Worktree{}, err
		}
	}
	want := start{Branch: s.Branch, Repo: repo, Path: wt.Path, Base: strings.TrimSpace(baseCommit)}
	from := s.BaseBranch
	had, resumed, err := m.begin(ctx, wt.ID, want)
	if err != nil {
		return Worktree{}, err
	}
	if resumed {
		if had.Base != want.Base {
			from = had.Base // the base moved on since the stopped call: finish that call's work
		}
		want = had
	}
	hooks.WorktreeStep("begin")
	made, err := m.makeBranch(ctx, want, resumed, from)
	if err == nil && made {
		if err = m.made(ctx, wt.ID, want); err != nil {
			git.Run(context.WithoutCancel(ctx), repo, "branch", "-D", "--", s.Branch)
		}
	}
	if err != nil {
		m.forget(context.WithoutCancel(ctx), wt.ID)
		return Worktree{}, err
	}
	hooks.WorktreeStep("branch")
	own := made || want.Made // the branch is this call's, or the stopped call's: not a person's
	tree := false
	undo := func() { // undoes what git made for this call, should a later step fail
		bg := context.WithoutCancel(ctx)
		if tree {
			git.Run(bg, repo, "worktree", "remove", "--force", "--force", "--", wt.Path)
			git.Run(bg, repo, "worktree", "prune")
		}
		if own {
			git.Run(bg, repo, "branch", "-D", "--", s.Branch)
		}
		m.forget(bg, wt.ID)
	}
	if wt.Path != "" {
		if err := m.makeWorktree(ctx, want, resumed); err != nil {
			undo()
			return Worktree{}, err
		}
		tree = true
		hooks.WorktreeStep("worktree")
	}
	if err := m.write(ctx, wt, true); err != nil {
		undo()
		return Worktree{}, err
	}
	return wt, m.forget(ctx, wt.ID)
}

// start is what Create is about to make, kept in <id>.creating under stateDir
// from before git makes anything until the record is written: a retry of
// a stopped call finds in it what that call made.
type start struct {
	Branch string `json:"branch"`
	Repo   string `json:"repo"`
	Path   string `json:"path,omitempty"` // "" for a branch alone
	Base   string `json:"base"`           // the commit the branch starts at
	Made   bool   `json:"made,omitempty"` // git made the branch for this Create
}

func startOf(id string) string { return stateDir + "/" + id + ".creating" }

// begin records want as the start of Create id or, when a stopped call
// had recorded its start already (resumed), returns that start, the one
// a retry finishes. A stopped call that wanted something else is
// CONFLICT.
func (m *Manager) begin(ctx context.Context, id string, want start) (had start, resumed bool, err error) {
	data, err := json.Marshal(want)
	if err != nil {
		return start{}, false, err
	}
	_, err = m.ws.Update(ctx, startOf(id), func(current []byte, exists bool) ([]byte, error) {
		if !exists {
			return append(data, '\n'), nil
		}
		if json.Unmarshal(current, &had) != nil || had.Branch != want.Branch || had.Repo != want.Repo || had.Path != want.Path {
			return nil, &taskdoc.Error{Code: taskdoc.CodeConflict, Path: startOf(id), Msg: fmt.Sprintf(
				"worktree %s was begun for branch %q in %s (path %q) and stopped: retry with the same branch, repo_path and path, or use another id", id, had.Branch, had.Repo, had.Path)}
		}
		if had.Base == "" {
			had.Base = want.Base
		}
		resumed = true
		return current, nil // unchanged: nothing written
	})
	if err != nil || !resumed {
		return start{}, false, err
	}
	return had, true, nil
}

// made notes in the start of Create id that git made its branch, so that
// a retry of a call stopped after that knows the branch for its own.
func (m *Manager) made(ctx context.Context, id string, s start) error {
	s.Made = true
	data, err := json.Marshal(s)
	if err != nil {
		return err
	}
	_, err = m.ws.Update(ctx, startOf(id), func([]byte, bool) ([]byte, error) { return append(data, '\n'), nil })
	return err
}

// forget removes the start of Create id, if there is one.
func (m *Manager) forget(ctx context.Context, id string) error {
	return m.ws.Lock(ctx, []string{startOf(id)}, func(tx *workspace.Tx) error {
		if err := tx.Remove(startOf(id)); err != nil && taskdoc.CodeOf(err) != taskdoc.CodeDocumentNotFound {
			return err
		}
		return nil
	})
}

// makeBranch makes want's branch at from (a branch name or a commit, ""
// for HEAD), and reports that it did (made), or, when a stopped call began
// it (resumed) and the branch is at the commit that call started it at,
// takes it over. Any other branch of that name is git's error.
func (m *Manager) makeBranch(ctx context.Context, want start, resumed bool, from string) (made bool, err error) {
	if resumed {
		tip, err := git.Run(ctx, want.Repo, "rev-parse", "--verify", "--quiet", "refs/heads/"+want.Branch)
		if err == nil && strings.TrimSpace(tip) == want.Base {
			return false, nil
		}
	}
	args := []string{"branch", "--", want.Branch}
	if from != "" {
		args = append(args, from)
	}
	if _, err := git.Run(ctx, want.Repo, args...); err != nil {
		return false, err
	}
	return true, nil
}

// makeWorktree checks want's branch out at want's path. A worktree a
// stopped call left there (resumed), whole or half made, is removed
// first: nobody was told of it.
func (m *Manager) makeWorktree(ctx context.Context, want start, resumed bool) error {
	if resumed {
		list, err := git.Run(ctx, want.Repo, "worktree", "list", "--porcelain")
		if err != nil {
			return err
		}
		for _, line := range strings.Split(list, "\n") {
			if path, ok := strings.CutPrefix(line, "worktree "); ok && filepath.Clean(path) == want.Path {
				if _, err := git.Run(ctx, want.Repo, "worktree", "remove", "--force", "--force", "--", want.Path); err != nil {
					return err
				}
			}
		}
		if _, err := git.Run(ctx, want.Repo, "worktree", "prune"); err != nil {
			return err
		}
	}
	_, err := git.Run(ctx, want.Repo, "worktree", "add", "--", want.Path, want.Branch)
	return err
}

// repo is the top level of the repository at dir, or of the one holding
// the workspace when dir is "". Not a repository is GIT_ERROR, with
// git's message. The repository must be the workspace's own (the one
// holding its root) or one inside the root: any other, once symbolic
// links are resolved, is OUTSIDE_ROOT, decided before git runs in it. A
// relative dir is relative to the root.
func (m *Manager) repo(ctx context.Context, dir string) (string, error) {
	root := m.ws.Root()
	own, _, ownErr := git.TopLevel(ctx, root)
	if dir == "" {
		return own, ownErr
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(root, dir)
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", &taskdoc.Error{Code: taskdoc.CodeIO, Path: root, Msg: err.Error(), Err: err}
	}
	if ownErr == nil {
		if own, err = filepath.EvalSymlinks(own); err != nil {
			return "", &taskdoc.Error{Code: taskdoc.CodeIO, Path: own, Msg: err.Error(), Err: err}
		}
	} else {
		own = ""
	}
	allowed := func(path string, top bool) bool {
		if within(realRoot, path) {
			return true
		}
		if own == "" {
			return false
		}
		if top {
			return path == own
		}
		return within(own, path)
	}
	outside := func(path string) error {
		where := "repositories inside " + realRoot
		if own != "" {
			where = "the workspace's repository " + own + " or " + where
		}
		return &taskdoc.Error{Code: taskdoc.CodeOutsideRoot, Path: path, Msg: fmt.Sprintf(
			"repo_path %q is outside the workspace: worktrees are made only in %s; leave repo_path out for the workspace's own", path, where)}
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", invalid(fmt.Sprintf("repo_path %q: %v", dir, err))
	}
	if !allowed(real, false) {
		return "", outside(real)
	}
	top, _, err := git.TopLevel(ctx, real)
	if err != nil {
		return "", err
	}
	if top, err = filepath.EvalSymlinks(top); err != nil {
		return "", &taskdoc.Error{Code: taskdoc.CodeIO, Path: top, Msg: err.Error(), Err: err}
	}
	if !allowed(top, true) {
		return "", outside(top)
	}
	return top, nil
}

// within reports whether path is dir or inside it; both are clean and
// free of symbolic links.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// path is where the worktree of branch goes: want, or the branch's name
// (its "/" as "-") in the worktree folder; a path outside that folder,
// once symbolic links are resolved, is INVALID_ARGUMENTS.
func (m *Manager) path(ctx context.Context, repo, want, branch string) (string, error) {
	folder := m.folder
	if folder == "" {
		if v, err := git.Run(ctx, repo, "config", "--get", "taskmd.worktreeFolder"); err == nil && strings.TrimSpace(v) != "" {
			folder = strings.TrimSpace(v)
		} else {
			folder = repo + "-worktrees"
		}
	}
	if !filepath.IsAbs(folder) {
		folder = filepath.Join(repo, folder)
	}
	if err := os.MkdirAll(folder, 0o755); err != nil {
		return "", &taskdoc.Error{Code: taskdoc.CodeIO, Path: folder, Msg: "creating the worktree folder: " + err.Error(), Err: err}
	}
	real, err := filepath.EvalSymlinks(folder)
	if err != nil {
		return "", &taskdoc.Error{Code: taskdoc.CodeIO, Path: folder, Msg: err.Error(), Err: err}
	}
	if want == "" {
		want = strings.ReplaceAll(branch, "/", "-")
	}
	if !filepath.IsAbs(want) {
		want = filepath.Join(real, want)
	}
	want = filepath.Clean(want)
	// Resolve what exists of the path, so that a link inside the folder
	// cannot lead out of it.
	dir, rest := want, ""
	for {
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			want = filepath.Join(r, rest)
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = parent
	}
	rel, err := filepath.Rel(real, want)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", invalid(fmt.Sprintf("path %q is outside the worktree folder %s", want, real))
	}
	return want, nil
}

// write stores wt; with fresh, only when there is no record of its ID.
func (m *Manager) write(ctx context.Context, wt Worktree, fresh bool) error {
	data, err := json.MarshalIndent(wt, "", "  ")
	if err != nil {
		return err
	}
	_, err = m.ws.Update(ctx, fileOf(wt.ID), func(_ []byte, exists bool) ([]byte, error) {
		if fresh && exists {
			return nil, &taskdoc.Error{Code: taskdoc.CodeConflict, Msg: "worktree " + wt.ID + " exists already"}
		}
		return append(data, '\n'), nil
	})
	return err
}

// Get returns the record of worktree id; an unknown id is
// WORKTREE_NOT_FOUND (a worktree is the agent protocol's workspace).
func (m *Manager) Get(ctx context.Context, id string) (Worktree, error) {
	if !taskflow.ValidID(id) {
		return Worktree{}, invalid(fmt.Sprintf("id %q is not a worktree id", id))
	}
	data, err := m.ws.ReadIfExists(ctx, fileOf(id))
	if err != nil {
		return Worktree{}, err
	}
	if data == nil {
		return Worktree{}, &taskdoc.Error{Code: CodeWorktreeNotFound, Msg: "no worktree " + id}
	}
	var wt Worktree
	if err := json.Unmarshal(data, &wt); err != nil || wt.ID != id {
		return Worktree{}, &taskdoc.Error{Code: taskdoc.CodeParse, Path: fileOf(id), Msg: "the record of worktree " + id + " does not read", Err: err}
	}
	return wt, nil
}

// List returns the worktrees, oldest first; with statuses, only those.
func (m *Manager) List(ctx context.Context, statuses ...Status) ([]Worktree, error) {
	names, err := m.ws.List(ctx, stateDir)
	if err != nil {
		return nil, err
	}
	out := []Worktree{}
	for _, n := range names {
		id, ok := strings.CutSuffix(strings.TrimPrefix(n, stateDir+"/"), ".json")
		if !ok || !taskflow.ValidID(id) {
			continue
		}
		wt, err := m.Get(ctx, id)
		if err != nil {
			return nil, err
		}
		if len(statuses) == 0 || contains(statuses, wt.Status) {
			out = append(out, wt)
		}
	}
	sortByCreated(out)
	return out, nil
}

// Update changes a worktree's record and, with CleanupWorktree, removes
// its folder (the branch stays). removed reports whether a folder was
// removed; a retry finds it gone and removes nothing. Merged needs a
// merge commit; an unknown status is INVALID_ARGUMENTS.
func (m *Manager) Update(ctx context.Context, id string, c Change) (wt Worktree, removed bool, err error) {
	switch c.Status {
	case "", Active, Abandoned:
	case Merged:
		if c.MergeCommit == "" {
			return Worktree{}, false, invalid("status merged needs merge_commit")
		}
	default:
		return Worktree{}, false, invalid(fmt.Sprintf("unknown status %q: use active, merged or abandoned", c.Status))
	}
	if wt, err = m.Get(ctx, id); err != nil {
		return Worktree{}, false, err
	}
	if c.MergeCommit != "" {
		if _, err := git.Run(ctx, wt.RepoPath, "rev-parse", "--verify", "--quiet", c.MergeCommit+"^{commit}"); err != nil {
			return Worktree{}, false, invalid(fmt.Sprintf("merge_commit %q is not a commit of %s", c.MergeCommit, wt.RepoPath))
		}
	}
	if c.CleanupWorktree && wt.Path != "" {
		if _, statErr := os.Stat(wt.Path); statErr == nil {
			if _, err := git.Run(ctx, wt.RepoPath, "worktree", "remove", "--force", "--", wt.Path); err != nil {
				return Worktree{}, false, err
			}
			removed = true
		}
		if _, err := git.Run(ctx, wt.RepoPath, "worktree", "prune"); err != nil {
			return Worktree{}, false, err
		}
	}
	if c.Status != "" {
		wt.Status = c.Status
	}
	if c.MergeCommit != "" {
		wt.MergeCommit = c.MergeCommit
	}
	if c.PRURL != "" {
		wt.PRURL = c.PRURL
	}
	wt.Updated = m.now().UTC()
	if err := m.write(ctx, wt, false); err != nil {
		return Worktree{}, removed, err
	}
	return wt, removed, nil
}

// Remove removes a worktree's folder (if it is there), its record and,
// with deleteBranch, its branch. An unknown id is WORKTREE_NOT_FOUND.
func (m *Manager) Remove(ctx context.Context, id string, deleteBranch bool) error {
	wt, _, err := m.Update(ctx, id, Change{CleanupWorktree: true})
	if err != nil {
		return err
	}
	if deleteBranch {
		if _, err := git.Run(ctx, wt.RepoPath, "branch", "-D", "--", wt.Branch); err != nil && !strings.Contains(errMsg(err), "not found") {
			return err
		}
	}
	return m.ws.Lock(ctx, []string{fileOf(id)}, func(tx *workspace.Tx) error { return tx.Remove(fileOf(id)) })
}

func contains(ss []Status, s Status) bool { return slices.Contains(ss, s) }

func sortByCreated(wts []Worktree) {
	slices.SortStableFunc(wts, func(a, b Worktree) int {
		if c := a.Created.Compare(b.Created); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
}

func errMsg(err error) string {
	var ge *git.Error
	if errors.As(err, &ge) {
		return ge.Stderr
	}
	return err.Error()
}
