package mcptools

import (
	"context"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/internal/settings"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/subagent"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/worker"
	"github.com/taskmd/taskmd/workspace"
	"github.com/taskmd/taskmd/worktree"
)

// Toolset names a set of tools that Register adds together.
type Toolset string

// The toolsets. Register adds every toolset unless WithToolsets
// chooses some. Each tool belongs to one toolset.
const (
	// ToolsetSubagent: subagent_task, start_subagent_task,
	// complete_subagent_task, view_subagent_task.
	ToolsetSubagent Toolset = "subagent"
	// ToolsetCoordinator: coordinator_task, start_coordinator_task,
	// complete_coordinator_task, view_coordinator_task.
	ToolsetCoordinator Toolset = "coordinator"
	// ToolsetAgents: agent_register, agent_heartbeat, agent_unregister.
	ToolsetAgents Toolset = "agents"
	// ToolsetPlans: workflow_create, workflow_set_plan, workflow_list,
	// workflow_progress, workflow_next_tasks, task_claim, task_release,
	// task_load_context, task_set_plan, task_update_status,
	// checkpoint_add, checkpoint_list.
	ToolsetPlans Toolset = "plans"
	// ToolsetPivots: pivot_worker, pivot_acknowledge, and the pivot_request
	// that every result of taskmd's tools carries while a pivot waits
	// for the caller.
	ToolsetPivots Toolset = "pivots"
	// ToolsetCheckpoints: checkpoint_save, checkpoint_get, checkpoint_diff
	// (worker checkpoints).
	ToolsetCheckpoints Toolset = "checkpoints"
	// ToolsetResume: resume_queue, resume_brief.
	ToolsetResume Toolset = "resume"
	// ToolsetClarifications: clarification_ask, clarification_check,
	// clarification_respond.
	ToolsetClarifications Toolset = "clarifications"
	// ToolsetQueries: documents_list, tasks_find, workflows_list,
	// archives_list, archive_read (they only read).
	ToolsetQueries Toolset = "queries"
	// ToolsetEdits: task_remove, task_set_status, document_archive
	// (changes to any task or document, by its address).
	ToolsetEdits Toolset = "edits"
	// ToolsetWorktrees: workspace_create, workspace_update,
	// workspace_list (git worktrees, package worktree).
	ToolsetWorktrees Toolset = "worktrees"
	// ToolsetAll, given to WithToolsets, is every toolset.
	ToolsetAll Toolset = "all"
)

// allToolsets is every toolset, in the order Register adds them.
var allToolsets = []Toolset{ToolsetSubagent, ToolsetCoordinator, ToolsetAgents, ToolsetPlans,
	ToolsetPivots, ToolsetCheckpoints, ToolsetResume, ToolsetClarifications, ToolsetQueries, ToolsetEdits, ToolsetWorktrees}

// CheckToolsets reports the first of toolsets that is not one of the
// toolsets above, as WithToolsets refuses it: a file that names toolsets
// (taskmd.toml's [mcp] toolsets) is checked before anything is written.
func CheckToolsets(toolsets ...Toolset) error {
	for _, g := range toolsets {
		if g != ToolsetAll && !slices.Contains(allToolsets, g) {
			return fmt.Errorf("unknown toolset %q (want %s, or %s for every one)", g, toolsetNames(allToolsets), ToolsetAll)
		}
	}
	return nil
}

// Option changes what Register adds and how its tools behave.
type Option func(*config)

type config struct {
	toolsets []Toolset // nil: every toolset
	readOnly bool
	dynamic  bool
	now      func() time.Time
	timer    worker.Timer
	shutdown context.Context
	errs     []string // options given bad values, reported by Register

	resources     bool       // WithResources
	subscriptions *resources // NewServer's, which takes subscriptions; nil otherwise
}

// WithToolsets registers only these toolsets (ToolsetAll: every one).
func WithToolsets(toolsets ...Toolset) Option {
	return func(c *config) {
		if len(toolsets) == 0 {
			c.errs = append(c.errs, "WithToolsets needs at least one toolset")
		}
		c.toolsets = append(c.toolsets, toolsets...)
	}
}

// WithReadOnly registers only the tools that change nothing (their
// annotations' ReadOnlyHint), of every toolset chosen.
func WithReadOnly() Option {
	return func(c *config) { c.readOnly = true }
}

// WithDynamicToolsets adds two tools, toolsets_list and toolset_enable,
// with which an agent adds a toolset that WithToolsets left out while the
// server runs; the SDK then tells every session that the tools changed
// (notifications/tools/list_changed). A toolset enabled so is enabled for
// every session of the server. The names of every toolset's tools are
// taken on the server from the start, so that enabling one never meets a
// caller's tool of the same name.
func WithDynamicToolsets() Option {
	return func(c *config) { c.dynamic = true }
}

// WithClock sets the clock of completion dates, archive names, result
// timestamps, claims, heartbeats and checkpoints (default time.Now).
func WithClock(now func() time.Time) Option {
	return func(c *config) {
		if now == nil {
			c.errs = append(c.errs, "WithClock(nil): give a clock, such as time.Now")
		}
		c.now = now
	}
}

// withTimer sets what the waits of pivot_worker and of clarification_ask's
// brief poll time out on (default the time package's), for tests.
func withTimer(t worker.Timer) Option {
	return func(c *config) {
		if t == nil {
			c.errs = append(c.errs, "withTimer(nil): leave the option out for the time package's timer")
		}
		c.timer = t
	}
}

// WithShutdown cancels every call of taskmd's tools in flight when ctx
// ends. The SDK's calls do not inherit the context of Server.Run, and on
// shutdown the SDK waits for the calls in flight: without this, a call
// waiting for a lock that another process holds would keep a signalled
// server alive until the lock is released.
func WithShutdown(ctx context.Context) Option {
	return func(c *config) {
		if ctx == nil {
			c.errs = append(c.errs, "WithShutdown(nil): give the context whose end stops the server")
		}
		c.shutdown = ctx
	}
}

// NewServer returns an MCP server named taskmd, with Instructions (naming
// only the toolsets served), that
// serves every tool Register adds on ws, and with WithResources the
// documents, to which its clients may subscribe.
func NewServer(ws *workspace.Workspace, opts ...Option) (*mcp.Server, error) {
	var c config
	for _, opt := range opts {
		opt(&c)
	}
	serverOpts := &mcp.ServerOptions{Instructions: instructionsFor(served(c.toolsets))}
	if c.resources {
		r := &resources{}
		serverOpts.SubscribeHandler, serverOpts.UnsubscribeHandler = r.subscribe, r.unsubscribe
		opts = append(slices.Clip(opts), withSubscriptions(r))
	}
	server := mcp.NewServer(
		&mcp.Implementation{Name: "taskmd", Title: "taskmd task tools", Version: version()},
		serverOpts,
	)
	if err := Register(server, ws, opts...); err != nil {
		return nil, err
	}
	return server, nil
}

// Register adds taskmd's tools to server, working on ws, with one clock
// for all of them, and the guides of their toolsets: a prompt per
// protocol and the resource GuideURI. A server that already has a tool,
// prompt or resource of those names is refused, as below. The agent protocol's tools keep the state of each MCP
// session (its agent and claims) for as long as the session lasts. Call
// it once per server: a second call finds taskmd's names taken and is
// refused.
//
// Register also adds a receiving middleware to server that touches only
// the answers of the tools it added: it gives a code to their input-schema
// errors and, with ToolsetPivots, adds the caller's pending pivot to their
// results; the tools' handlers end their calls when WithShutdown's context
// ends. The server's other tools are left as they are.
//
// taskmd's tools do not share their names. A server that already has a
// tool named as one of them is refused (INVALID_ARGUMENTS, naming the
// tools), rather than losing the caller's tool: register the caller's
// tool under another name, or leave out the toolset that has the name
// (WithToolsets). To learn the server's tools, Register lists them through
// an in-memory session, which the server's receiving middleware and
// InitializedHandler see as any other session. Replacing or removing one
// of taskmd's tools after Register is not supported: a tool added later
// under one of their names serves its calls with its own handler, and the
// middleware recognises taskmd's calls by the handler that served them,
// not by their name, so such a tool's results and errors keep the form
// its handler gave them, without a pending pivot; only an error the SDK
// gives its arguments that is the very error taskmd's input schema gives
// them is coded as taskmd's would be.
//
// The workspace's taskmd.toml (workspace.ReadConfig) sets the agent
// timeout of the agent protocol's tools and the folder of the worktree
// tools' worktrees; one that does not parse is refused as ReadConfig
// refuses it.
//
// Bad arguments or options are an INVALID_ARGUMENTS *taskdoc.Error, and
// server is then left unchanged.
func Register(server *mcp.Server, ws *workspace.Workspace, opts ...Option) error {
	c := config{now: time.Now, shutdown: context.Background()}
	for _, opt := range opts {
		opt(&c)
	}
	switch {
	case server == nil:
		c.errs = append(c.errs, "nil server")
	case ws == nil:
		c.errs = append(c.errs, "nil workspace")
	}
	if err := CheckToolsets(c.toolsets...); err != nil {
		c.errs = append(c.errs, err.Error())
	}
	if len(c.errs) > 0 {
		return &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Msg: "mcptools: " + c.errs[0]}
	}
	c.toolsets = served(c.toolsets)
	ts, err := newTools(ws, c)
	if err != nil {
		return err
	}
	taken, err := toolNames(server)
	if err != nil {
		return &taskdoc.Error{Code: taskdoc.CodeIO, Msg: "mcptools: listing the server's tools: " + err.Error()}
	}
	var clashes []string
	for _, name := range ts.names() {
		if taken[name] {
			clashes = append(clashes, name)
		}
	}
	for _, name := range ts.prompts {
		if taken["prompt "+name] {
			clashes = append(clashes, "prompt "+name)
		}
	}
	for _, uri := range ts.resources {
		if taken["resource "+uri] {
			clashes = append(clashes, "resource "+uri)
		}
	}
	if len(clashes) > 0 {
		return &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Msg: fmt.Sprintf(
			"mcptools: the server already has tools named as taskmd's: %s (Register adds taskmd's tools once, and does not replace a caller's tool)",
			strings.Join(clashes, ", "))}
	}
	ts.addTo(server)
	if c.resources {
		r := c.subscriptions
		if r == nil {
			r = &resources{}
		}
		r.addTo(server, ws, c.shutdown)
	}
	return nil
}

// toolNames lists the names of server's tools, and of its prompts and
// resources as "prompt NAME" and "resource URI". The SDK has no accessor
// for them: they are listed as a client would, through an in-memory
// session that is closed before toolNames returns.
func toolNames(server *mcp.Server) (map[string]bool, error) {
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		return nil, err
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "taskmd-register", Version: version()}, nil).Connect(ctx, ct, nil)
	if err != nil {
		return nil, err
	}
	defer cs.Close()
	names := map[string]bool{}
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		names[tool.Name] = true
	}
	caps := cs.InitializeResult().Capabilities
	if caps.Prompts != nil {
		for prompt, err := range cs.Prompts(ctx, nil) {
			if err != nil {
				return nil, err
			}
			names["prompt "+prompt.Name] = true
		}
	}
	if caps.Resources != nil {
		for resource, err := range cs.Resources(ctx, nil) {
			if err != nil {
				return nil, err
			}
			names["resource "+resource.URI] = true
		}
	}
	return names, nil
}

func toolsetNames(sets []Toolset) string {
	names := make([]string, len(sets))
	for i, g := range sets {
		names[i] = string(g)
	}
	return strings.Join(names, ", ")
}

// served are the toolsets that WithToolsets' toolsets serve, each once:
// every toolset for none or ToolsetAll.
func served(toolsets []Toolset) []Toolset {
	if toolsets == nil || slices.Contains(toolsets, ToolsetAll) {
		return allToolsets
	}
	var out []Toolset
	for _, g := range toolsets {
		if !slices.Contains(out, g) {
			out = append(out, g)
		}
	}
	return out
}

// newTools prepares the tools of the toolsets of c, without touching any
// server, so that a failure leaves the server as it was. With
// WithDynamicToolsets it prepares every toolset's tools, and adds those of
// c's toolsets; the others wait for toolset_enable.
func newTools(ws *workspace.Workspace, c config) (*toolBatch, error) {
	now := c.now
	cfg, err := workspace.ReadConfig(ws.Root())
	if err != nil {
		return nil, err
	}
	plans := plan.New(ws, append(settings.Plan(cfg), plan.WithClock(now))...)
	pivots := worker.New(ws, append(settings.Worker(cfg), worker.WithClock(now))...)
	clarifications := worker.NewClarifications(ws, append(settings.Worker(cfg), worker.WithClock(now))...)
	if c.timer != nil {
		pivots, clarifications = pivots.WithTimer(c.timer), clarifications.WithTimer(c.timer)
	}
	ts := &toolBatch{sessions: newSessions(), shutdown: c.shutdown, readOnly: c.readOnly, enabled: map[Toolset]bool{}}
	for _, g := range c.toolsets {
		ts.enabled[g] = true
	}
	prepared := c.toolsets
	if c.dynamic {
		prepared = allToolsets
	}
	ts.addGuides(guidesFor(c.toolsets))
	var pending func(context.Context, string) *pivotRequest
	// Under WithReadOnly the pivots toolset has no tool: no worker could
	// acknowledge a pivot.
	if slices.Contains(prepared, ToolsetPivots) && !c.readOnly {
		ts.notices = &pivotNotices{pivots: pivots, sessions: ts.sessions}
		pending = ts.notices.pending
	}
	for _, g := range prepared {
		ts.preparing = g
		var err error
		switch g {
		case ToolsetSubagent:
			err = addSubagentTools(ts, subagent.New(ws, subagent.WithClock(now)), now)
		case ToolsetCoordinator:
			err = addCoordinatorTools(ts, coordinator.New(ws, coordinator.WithClock(now)), now)
		case ToolsetAgents:
			err = addAgentTools(ts, plans.Agents(), pending)
		case ToolsetPlans:
			err = addPlanTools(ts, plans, pivots.Workers())
		case ToolsetPivots:
			err = addPivotTools(ts, pivots)
		case ToolsetCheckpoints:
			err = addCheckpointTools(ts, pivots)
		case ToolsetResume:
			err = addResumeTools(ts, pivots)
		case ToolsetClarifications:
			err = addClarificationTools(ts, clarifications)
		case ToolsetWorktrees:
			err = addWorktreeTools(ts, worktree.New(ws, append(settings.Worktree(cfg), worktree.WithClock(now))...))
		case ToolsetQueries:
			err = addQueryTools(ts, ws, subagent.New(ws, subagent.WithClock(now)), coordinator.New(ws, coordinator.WithClock(now)))
		case ToolsetEdits:
			err = addEditTools(ts, ws, subagent.New(ws, subagent.WithClock(now)), coordinator.New(ws, coordinator.WithClock(now)))
		}
		if err != nil {
			return nil, fmt.Errorf("mcptools: toolset %s: %w", g, err)
		}
	}
	ts.preparing = ""
	if c.dynamic {
		if err := addToolsetTools(ts); err != nil {
			return nil, fmt.Errorf("mcptools: %w", err)
		}
	}
	return ts, nil
}

func version() string {
	const module = "github.com/taskmd/taskmd"
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(devel)"
	}
	if info.Main.Path == module {
		return info.Main.Version
	}
	for _, d := range info.Deps {
		if d.Path == module {
			return d.Version
		}
	}
	return "(devel)"
}
