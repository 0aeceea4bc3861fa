package gitsync

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/taskmd/taskmd/internal/git"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// Sync makes the plan changes of one clone and shares them through its
// remote. It is safe for concurrent use; any number of Sync values and
// processes may share a clone.
type Sync struct {
	ws        *workspace.Workspace
	plans     *plan.Plans
	top       string // the repository's top folder
	gitDir    string // its git folder (this worktree's) and the common one
	commonDir string
	prefix    string // the workspace root relative to top: "" or "sub/dir/"
	id        string // the clone's machine id (machineFile), under idMu
	idMu      sync.Mutex
	remote    string   // "origin"
	branch    string   // "main"
	attempts  int      // 0: no limit but the context's
	planRefs  bool     // each plan's changes on a ref of its own
	queue     queue    // the calls waiting to be shared together
	ident     []string // "-c user.name=… -c user.email=…" when git has none
	// fetches counts the clone's fetches, seen is the leases read since
	// the last one, emptyTree the id of the tree of lease commits (all
	// under the clone's lock).
	fetches   int
	seen      *shared
	emptyTree string
	// commits counts the commits the batches made, maintained the commits
	// and fetches when maintenance last ran (by the call serving the
	// queue); maintaining is true while it runs.
	commits, maintained int
	maintaining         atomic.Bool
	// released collects, under the clone's lock, the queued changes that
	// the batch under way gave up (Report.Released).
	released map[string]string
	// beforePush, when set, runs between the commit and the push (tests
	// move the remote there).
	beforePush func()
	// raced is when the clone last saw another machine push (see pace),
	// read and written by the call serving the queue.
	raced time.Time
	// pushedBranch reports that the last push sent the branch too (with
	// plan refs, see fold), set by the call serving the queue; merged is
	// the commit of each ref of the remote (the clone's copy) that the
	// serving calls last merged into HEAD or pushed from it, forgotten
	// when a push is rejected or HEAD no longer has one (a person moved it).
	pushedBranch bool
	merged       map[string]string
	// folded is when the serving call last brought the branch up to the
	// plan refs (see fold); foldAfter is foldAfter (tests set it).
	folded    time.Time
	foldAfter time.Duration
}

// An Option configures New.
type Option func(*Sync)

// WithRemote sets the remote to share through (default "origin").
func WithRemote(name string) Option { return func(s *Sync) { s.remote = name } }

// WithBranch sets the branch to share on (default: the clone's current
// branch).
func WithBranch(name string) Option { return func(s *Sync) { s.branch = name } }

// WithPlanRefs shares each plan's claims and statuses on a ref of its own
// on the remote (refs/taskmd/plans/<branch>/<the plan's path, escaped>),
// so that machines changing different plans never reject each other's
// pushes; the branch follows at later pushes and at Push (the last
// changes of a burst reach it only then). Every
// clone sharing the branch must use it once one does: a clone without it
// refuses its changes then (INVALID_ARGUMENTS), and a plan's ref is made
// together with the branch, so that no claim on the branch slips past it.
func WithPlanRefs() Option { return func(s *Sync) { s.planRefs = true } }

// WithMaxAttempts sets how many times an operation is made when the
// remote keeps moving under it; then it is CONFLICT. By default there is
// no limit: an operation is made again until its context ends, so that
// load on the remote slows calls down but does not fail them. Each
// attempt fetches, merges and makes the change again.
func WithMaxAttempts(n int) Option {
	return func(s *Sync) {
		if n > 0 {
			s.attempts = n
		}
	}
}

// New returns the Sync of the clone holding ws, whose plans are plans
// (made on ws, with the options of every other user of the workspace). The
// clone must be a git repository with the remote; the workspace may be a
// folder of it. New makes git ignore the workspace's state folder, and
// commits that rule when it adds it. Not a repository, or no such remote
// or branch, is GIT_ERROR with git's message.
func New(ctx context.Context, ws *workspace.Workspace, plans *plan.Plans, opts ...Option) (*Sync, error) {
	if plans == nil {
		return nil, &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Msg: "gitsync.New needs the workspace's plans"}
	}
	s := &Sync{ws: ws, plans: plans, remote: "origin", foldAfter: foldAfter,
		queue: queue{seen: map[string]string{}, signal: map[string]string{}}}
	for _, o := range opts {
		o(s)
	}
	var err error
	if s.top, s.prefix, err = git.TopLevel(ctx, ws.Root()); err != nil {
		return nil, err
	}
	dirs, err := git.Run(ctx, s.top, "rev-parse", "--absolute-git-dir", "--git-common-dir")
	if err != nil {
		return nil, err
	}
	if d := strings.Split(strings.TrimSpace(dirs), "\n"); len(d) == 2 {
		s.gitDir, s.commonDir = d[0], d[1]
		if !filepath.IsAbs(s.commonDir) {
			s.commonDir = filepath.Join(s.top, s.commonDir)
		}
	}
	if s.branch == "" {
		b, err := git.Run(ctx, s.top, "symbolic-ref", "--short", "HEAD")
		if err != nil {
			return nil, err
		}
		s.branch = strings.TrimSpace(b)
	}
	if _, err := git.Run(ctx, s.top, "check-ref-format", "--branch", s.branch); err != nil {
		return nil, err
	}
	if _, err := git.Run(ctx, s.top, "remote", "get-url", s.remote); err != nil {
		return nil, err
	}
	if _, err := git.Run(ctx, s.top, "config", "user.email"); err != nil {
		s.ident = []string{"-c", "user.name=taskmd", "-c", "user.email=taskmd@localhost"}
	}
	err = ws.Lock(ctx, []string{asideFile, machineFile}, func(tx *workspace.Tx) error {
		if err := s.clearLocks(time.Now()); err != nil {
			return err
		}
		if s.id, err = s.machine(tx); err != nil {
			return err
		}
		wrote, err := ws.IgnoreState(ctx)
		if err != nil || !wrote {
			return err
		}
		name := s.path(".gitignore")
		var added []string
		if _, err := s.git(ctx, "ls-files", "--error-unmatch", "--", name); err != nil {
			added = []string{name}
		}
		return s.commit(ctx, []string{name}, added, "taskmd: ignore the .taskmd/ state of this clone")
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Remote is the remote the clone shares through, Branch its branch.
func (s *Sync) Remote() string { return s.remote }

// Branch is the branch the clone shares on.
func (s *Sync) Branch() string { return s.branch }

// Report says what became of a change.
type Report struct {
	// Commit is the commit that records the change; "" when the call
	// changed nothing (a retry, a task held by another agent).
	Commit string `json:"commit,omitempty"`
	// Pushed reports that this call pushed: the remote has the change and
	// everything queued before it. A call that had nothing to send (a
	// retry, a clone in step with its remote) leaves Pushed and Queued
	// false.
	Pushed bool `json:"pushed"`
	// Queued reports that the remote could not be reached: the change is
	// committed in this clone only, and Push sends it. Offline is git's
	// message.
	Queued  bool   `json:"queued"`
	Offline string `json:"offline,omitempty"`
	// Attempts is how many times the change was made: more than 1 when
	// another machine pushed first.
	Attempts int `json:"attempts"`
	// Conflicts lists the files where a person's uncommitted edit and the
	// merged change touched the same lines: they hold conflict markers,
	// and the edit is also kept in the git stash (Stash).
	Conflicts []string `json:"conflicts,omitempty"`
	Stash     string   `json:"stash,omitempty"`
	// Released names the tasks ("/plan.md#x") whose changes this clone
	// queued were given up because another machine's change of the task
	// was pushed first (a claim made offline that another machine made
	// online, say), each with the agent the remote names as the task's
	// holder ("" for none). The task is as the remote has it; the claim
	// given up lets no write through (STALE_CLAIM). Every other queued
	// change is confirmed once Pushed.
	Released map[string]string `json:"released,omitempty"`
}

// path is the repository-relative path of the workspace file name.
func (s *Sync) path(name string) string { return s.prefix + name }

// remoteRef is the remote-tracking ref of the shared branch.
func (s *Sync) remoteRef() string { return "refs/remotes/" + s.remote + "/" + s.branch }

// git runs a git command at the repository's top.
func (s *Sync) git(ctx context.Context, args ...string) (string, error) {
	out, err := git.Run(ctx, s.top, args...)
	return out, s.explain(err)
}

// gitInput runs a git command with in as its standard input.
func (s *Sync) gitInput(ctx context.Context, in string, args ...string) (string, error) {
	out, err := git.RunInput(ctx, s.top, []byte(in), args...)
	return string(out), s.explain(err)
}

// gitAs runs a git command that writes commits, with the fallback identity
// when git has none.
func (s *Sync) gitAs(ctx context.Context, args ...string) (string, error) {
	out, err := git.Run(ctx, s.top, append(append([]string{}, s.ident...), args...)...)
	return out, s.explain(err)
}
