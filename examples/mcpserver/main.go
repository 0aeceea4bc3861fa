package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/subagent"
	"github.com/taskmd/taskmd/worker"
	"github.com/taskmd/taskmd/workspace"
)

const instructions = `Two task systems, kept apart on purpose, and the agent protocol.
Coordinator tasks (coordinator_task, start_coordinator_task, complete_coordinator_task): your own sequential to-do list in /coordinator/active.md. It survives context compression; start and complete always take the next task; the first task carries the Main-Workflow; the list archives itself when done.
Subagent tasks (subagent_task, start_subagent_task, complete_subagent_task): ad-hoc work in knowledge-graph documents under docs/, addressed as /document.md#slug and done in any order, usually by subagents.
Plans for several agents (agent_*, workflow_*, task_*, checkpoint_*, the agent protocol): a plan is a docs/ document (workflow_id /api/auth.md), a task its address (/api/auth.md#slug). Lifecycle: agent_register → workflow_next_tasks → task_claim → task_load_context → task_set_plan → task_update_status in_progress → checkpoint_add after each step → agent_heartbeat every next_heartbeat_ms → task_update_status completed with outcome → agent_unregister. After a lost context: workflow_list status [in_progress] → workflow_progress → task_claim again → task_load_context with include {all_checkpoints: true}. The agent registered on a session is its caller: its writes on a task another agent holds are STALE_CLAIM.
Pivots (seed 000): an orchestrator stops a worker mid-task with pivot_worker and gets its checkpoint; the worker sees pivot_request in every result (and heartbeat answer) while one is pending, and answers with pivot_acknowledge and its checkpoint. Worker checkpoints: checkpoint_save, checkpoint_get, checkpoint_list {worker_id}, checkpoint_diff. Paused tasks wait in resume_queue; resume_brief {task_id, worker_id} hands one to a worker with its brief.
Clarifications (seed 004): a worker asks with clarification_ask and waits briefly inside the call; without an answer its checkpoint is saved and it exits. The parent lists requests with clarification_check, answers with clarification_respond and resumes the worker with the resume_prompt.
A failed call's text starts with a stable code, e.g. SUBAGENT_REQUIRES_SLUG or MAIN_WORKFLOW_REQUIRED.`

func main() {
	root := flag.String("root", "", "workspace `directory` that holds docs/, coordinator/, workflows/ and archived/")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: mcpserver -root DIR\n\nServes the taskmd task tools over MCP on stdin/stdout.\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *root == "" || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	// stdout carries the protocol and nothing else: anything that prints
	// to os.Stdout from here on (a dependency, a stray debug line) goes to
	// stderr instead of corrupting the stream.
	stdout := os.Stdout
	os.Stdout = os.Stderr
	logger := log.New(os.Stderr, "mcpserver: ", log.LstdFlags)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, *root, os.Stdin, stdout, logger); err != nil {
		logger.Print(err)
		stop()
		os.Exit(1)
	}
}

// run serves MCP on in and out until the client closes in or ctx ends
// (SIGINT, SIGTERM). Calls in flight then see their context cancelled: the
// library gives up waiting for locks, and an update is either written whole
// or not at all.
func run(ctx context.Context, root string, in io.Reader, out io.Writer, logger *log.Logger) error {
	ws, err := workspace.Open(root)
	if err != nil {
		return err
	}
	defer ws.Close()
	server, err := newServer(ctx, ws, time.Now)
	if err != nil {
		return err
	}
	err = server.Run(ctx, &lineTransport{in: in, out: out, log: logger})
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// newServer wires the task tools and the agent protocol's tools to one
// workspace, with one clock for completion dates, archive names, result
// timestamps, claims, heartbeats and checkpoints. The agent protocol's
// tools keep the state of each MCP session (its agent and claims) for as
// long as the session lasts. Calls in flight when shutdown ends (SIGINT,
// SIGTERM) see their context cancelled.
func newServer(shutdown context.Context, ws *workspace.Workspace, now func() time.Time) (*mcp.Server, error) {
	return newServerTimer(shutdown, ws, now, nil)
}

// newServerTimer is newServer whose waits (pivot_worker, the brief poll of
// clarification_ask) time out on timer (nil: the time package's), for
// tests.
func newServerTimer(shutdown context.Context, ws *workspace.Workspace, now func() time.Time, timer worker.Timer) (*mcp.Server, error) {
	server := mcp.NewServer(
		&mcp.Implementation{Name: "taskmd", Title: "taskmd task tools", Version: version()},
		&mcp.ServerOptions{Instructions: instructions},
	)
	if err := addSubagentTools(server, subagent.New(ws, subagent.WithClock(now)), now); err != nil {
		return nil, err
	}
	if err := addCoordinatorTools(server, coordinator.New(ws, coordinator.WithClock(now)), now); err != nil {
		return nil, err
	}
	plans := plan.New(ws, plan.WithClock(now))
	pivots := worker.New(ws, plan.WithClock(now))
	clarifications := worker.NewClarifications(ws, plan.WithClock(now))
	if timer != nil {
		pivots, clarifications = pivots.WithTimer(timer), clarifications.WithTimer(timer)
	}
	sessions := newSessions()
	notices := pivotNotices{pivots: pivots, sessions: sessions}
	if err := firstError(
		addAgentTools(server, plans.Agents(), sessions, notices.pending),
		addPlanTools(server, plans, pivots.Workers(), sessions),
		addPivotTools(server, pivots, sessions),
		addResumeTools(server, pivots, sessions),
		addClarificationTools(server, clarifications, sessions),
	); err != nil {
		return nil, err
	}
	// notices comes first, so that a schema error's text, which
	// codeSchemaErrors rewrites, keeps the pivot request after it.
	server.AddReceivingMiddleware(notices.middleware, codeSchemaErrors, endWith(shutdown))
	return server, nil
}

// endWith cancels every request when shutdown ends. The SDK's requests do
// not inherit the context of Server.Run, and on shutdown the SDK waits for
// the requests in flight: without this, a call waiting for a lock that
// another process holds would keep a signalled server alive until the lock
// is released.
func endWith(shutdown context.Context) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			ctx, cancel := context.WithCancel(ctx)
			defer cancel()
			defer context.AfterFunc(shutdown, cancel)()
			return next(ctx, method, req)
		}
	}
}

func version() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		return info.Main.Version
	}
	return "(devel)"
}

// readOnly marks the view tools, so that clients may run them without asking.
var readOnly = &mcp.ToolAnnotations{ReadOnlyHint: true}

// addTool registers a typed handler. The output schema is derived here
// rather than by the SDK because results hold a recursive type, which the
// SDK's own derivation refuses (see outputSchema).
func addTool[In, Out any](server *mcp.Server, tool *mcp.Tool, handler mcp.ToolHandlerFor[In, Out]) error {
	out, err := outputSchema[Out]()
	if err != nil {
		return fmt.Errorf("tool %s: %w", tool.Name, err)
	}
	// Every result may carry the caller's pending pivot (pivotNotices).
	if out.Type == "object" && out.Properties != nil && out.Properties["pivot_request"] == nil {
		pr, err := pivotRequestSchema()
		if err != nil {
			return fmt.Errorf("tool %s: %w", tool.Name, err)
		}
		out.Properties["pivot_request"] = pr
	}
	tool.OutputSchema = out
	mcp.AddTool(server, tool, handler)
	return nil
}

// batchInputSchema derives the input schema of subagent_task or
// coordinator_task and narrows it to the tool's operations, so that a
// misspelt operation is refused before anything runs.
func batchInputSchema[In any](operations []string, taskDescription string) (*jsonschema.Schema, error) {
	schema, err := jsonschema.For[In](nil)
	if err != nil {
		return nil, err
	}
	ops := schema.Properties["operations"]
	// A nil slice derives as "array or null"; null is no batch at all.
	ops.Type, ops.Types = "array", nil
	ops.MinItems = jsonschema.Ptr(1)
	item := ops.Items.Properties
	for _, name := range operations {
		item["operation"].Enum = append(item["operation"].Enum, name)
	}
	item["task"].Description = taskDescription
	return schema, nil
}

func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
