package mcptools

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolSet is the tools of one Register call, prepared before any of them
// is added, and the state they share.
type toolSet struct {
	sessions *sessions
	notices  *pivotNotices // nil without GroupPivots
	shutdown context.Context
	names    map[string]bool
	adds     []func(*mcp.Server)
}

// addTo adds the tools to server, with the middleware that serves their
// calls.
func (ts *toolSet) addTo(server *mcp.Server) {
	for _, add := range ts.adds {
		add(server)
	}
	server.AddReceivingMiddleware(ts.middleware)
}

// middleware serves the calls of the set's tools, and passes every other
// request through untouched, so that a caller's own tools keep their
// errors and their output schemas. For the set's tools it ends the call
// when the shutdown context ends, gives a code to the errors the SDK
// writes itself (codeSchemaErrors), then adds the caller's pending pivot
// (after the code, so that the error's text keeps the code first).
func (ts *toolSet) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		call, ok := req.(*mcp.CallToolRequest)
		if !ok || call.Params == nil || !ts.names[call.Params.Name] {
			return next(ctx, method, req)
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		defer context.AfterFunc(ts.shutdown, cancel)()
		result, err := next(ctx, method, req)
		res, ok := result.(*mcp.CallToolResult)
		if err != nil || !ok || res == nil {
			return result, err
		}
		codeSchemaError(res)
		if ts.notices != nil {
			if notice := ts.notices.pending(ctx, ts.sessions.of(call).agentID()); notice != nil {
				attachNotice(res, notice)
			}
		}
		return res, nil
	}
}

// The annotations of the tools, in the MCP's terms. Destructive: the call
// may remove or replace what someone wrote (a task's content, a note, an
// agent, a document); the others only add or move a task along.
// Idempotent: the same call made again changes nothing more (it answers
// with the first call's result, or with an error that says it was done).
// Every tool works on the workspace alone: none reaches an open world.
var (
	readOnly              = annotations(true, false, false)
	additive              = annotations(false, false, false)
	additiveIdempotent    = annotations(false, false, true)
	destructive           = annotations(false, true, false)
	destructiveIdempotent = annotations(false, true, true)
)

func annotations(readOnly, destructive, idempotent bool) *mcp.ToolAnnotations {
	closed := false
	a := &mcp.ToolAnnotations{ReadOnlyHint: readOnly, IdempotentHint: idempotent || readOnly, OpenWorldHint: &closed}
	if !readOnly {
		a.DestructiveHint = &destructive
	}
	return a
}

// addTool prepares a typed handler. Both schemas are derived here, so
// that a type the schema generator refuses is an error of Register rather
// than a panic of the SDK, and the output schema is derived by
// outputSchema because results hold a recursive type.
func addTool[In, Out any](ts *toolSet, tool *mcp.Tool, handler mcp.ToolHandlerFor[In, Out]) error {
	if tool.Annotations == nil {
		return fmt.Errorf("tool %s: no annotations", tool.Name)
	}
	if tool.InputSchema == nil {
		in, err := jsonschema.For[In](nil)
		if err != nil {
			return fmt.Errorf("tool %s: input schema: %w", tool.Name, err)
		}
		tool.InputSchema = in
	}
	out, err := outputSchema[Out]()
	if err != nil {
		return fmt.Errorf("tool %s: %w", tool.Name, err)
	}
	// Every result may carry the caller's pending pivot (pivotNotices).
	if ts.notices != nil && out.Type == "object" && out.Properties != nil && out.Properties["pivot_request"] == nil {
		pr, err := jsonschema.For[PivotRequest](nil)
		if err != nil {
			return fmt.Errorf("tool %s: %w", tool.Name, err)
		}
		out.Properties["pivot_request"] = pr
	}
	tool.OutputSchema = out
	if ts.names == nil {
		ts.names = map[string]bool{}
	}
	ts.names[tool.Name] = true
	ts.adds = append(ts.adds, func(server *mcp.Server) { mcp.AddTool(server, tool, handler) })
	return nil
}

// codeSchemaError gives a code to a tool error that the SDK wrote itself,
// before the handler ran: arguments that fail the input schema. Without it
// they would be the only tool errors that do not start with a code.
func codeSchemaError(res *mcp.CallToolResult) {
	if !res.IsError {
		return
	}
	var coded *toolError
	if cause := res.GetError(); cause != nil && !errors.As(cause, &coded) {
		coded = &toolError{code: codeInvalidArguments, err: cause}
		res.Content = []mcp.Content{&mcp.TextContent{Text: coded.Error()}}
	}
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
	item["status"].Enum = taskStatuses
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
