package mcptools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/taskmd/taskmd/internal/claims"
	"github.com/taskmd/taskmd/taskdoc"
)

// toolBatch is the tools of one Register call, prepared before any of them
// is added, and the state they share.
type toolBatch struct {
	sessions *sessions
	notices  *pivotNotices // nil without ToolsetPivots
	shutdown context.Context
	// inputs holds the resolved input schema of each tool, by name: the
	// middleware tells an input-schema error of one of the set's tools
	// from any other error with it.
	inputs map[string]*jsonschema.Resolved
	adds   []toolAdd
	// prompts and resources are the names of the guides' prompts and the
	// URIs of their resources (guides.go).
	prompts, resources []string
	// readOnly leaves out every tool that is not read-only (WithReadOnly).
	readOnly bool
	// preparing is the toolset whose tools addTool is preparing ("" for
	// toolsets_list and toolset_enable).
	preparing Toolset

	mu      sync.Mutex
	enabled map[Toolset]bool // the toolsets whose tools are on the server
	server  *mcp.Server      // set by addTo
}

// toolAdd adds one prepared tool of toolset set to a server.
type toolAdd struct {
	set  Toolset
	name string
	add  func(*mcp.Server)
}

// isEnabled reports whether g's tools are on the server.
func (ts *toolBatch) isEnabled(g Toolset) bool {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.enabled[g]
}

// names lists the names of the set's tools.
func (ts *toolBatch) names() []string {
	return slices.Sorted(maps.Keys(ts.inputs))
}

// addTo adds the tools to server, with the middleware that serves their
// calls.
func (ts *toolBatch) addTo(server *mcp.Server) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.server = server
	for _, a := range ts.adds {
		if a.set == "" || ts.enabled[a.set] {
			a.add(server)
		}
	}
	server.AddReceivingMiddleware(ts.middleware)
}

// callKey is the context key of a call's *callMark.
type callKey struct{}

// callMark records that one of the set's handlers served a call: the
// handlers set ran, so that the middleware touches only the answers of
// taskmd's own handlers, whatever the call's tool name.
type callMark struct{ ran bool }

// middleware serves the calls of the set's tools, their arguments
// translated first (translateArguments), and passes every other request
// through untouched, so that a caller's own tools keep their
// errors and their output schemas. A call is taskmd's when one of the
// set's handlers served it (its callMark) or when the SDK refused its
// arguments with the very error the set's input schema gives them (an
// input-schema error: the handler never ran). To those answers it adds
// the caller's pending pivot, after the code, so that the error's text
// keeps the code first. The handlers themselves end the call when the
// shutdown context ends (serve).
func (ts *toolBatch) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		call, ok := req.(*mcp.CallToolRequest)
		if !ok || call.Params == nil || ts.inputs[call.Params.Name] == nil {
			return next(ctx, method, req)
		}
		mark := &callMark{}
		var res *mcp.CallToolResult
		if refusal := translateArguments(call.Params); refusal != nil {
			// Before the SDK reads the arguments: nothing ran.
			te := newToolError(refusal)
			res = &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: te.Error()}}}
			res.SetError(te)
		} else {
			// The task systems' writes are fenced as the session writes:
			// its agent and claims, or a caller that is not an agent.
			wctx := claims.WithWriter(context.WithValue(ctx, callKey{}, mark), ts.sessions.of(call))
			result, err := next(wctx, method, req)
			var ok bool
			if res, ok = result.(*mcp.CallToolResult); err != nil || !ok || res == nil {
				return result, err
			}
			if !mark.ran && !codeSchemaError(res, ts.inputs[call.Params.Name], call.Params.Arguments) {
				return res, nil // not answered by taskmd's handler: a tool that replaced it
			}
		}
		if ts.notices != nil && ts.isEnabled(ToolsetPivots) {
			ctx, cancel := context.WithCancel(ctx)
			defer cancel()
			defer context.AfterFunc(ts.shutdown, cancel)()
			if notice := ts.notices.pending(ctx, ts.sessions.of(call).agentID()); notice != nil {
				attachNotice(res, notice)
			}
		}
		return res, nil
	}
}

// serve wraps a handler of the set: it marks the call as served by
// taskmd (callMark), ends it when the shutdown context ends, and gives a
// code to an error that has none (IO_ERROR, as newToolError does), so
// that every tool error's text starts with a code.
func serve[In, Out any](ts *toolBatch, handler mcp.ToolHandlerFor[In, Out]) mcp.ToolHandlerFor[In, Out] {
	return func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
		if mark, ok := ctx.Value(callKey{}).(*callMark); ok {
			mark.ran = true
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		defer context.AfterFunc(ts.shutdown, cancel)()
		res, out, err := handler(ctx, req, in)
		if coded := (*toolError)(nil); err != nil && !errors.As(err, &coded) {
			err = newToolError(err)
		}
		return res, out, err
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
func addTool[In, Out any](ts *toolBatch, tool *mcp.Tool, handler mcp.ToolHandlerFor[In, Out]) error {
	if tool.Annotations == nil {
		return fmt.Errorf("tool %s: no annotations", tool.Name)
	}
	if ts.readOnly && !tool.Annotations.ReadOnlyHint {
		return nil
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
		out.Properties["pivot_request"] = &jsonschema.Schema{Type: "object"}
	}
	compactOutput(out)
	tool.OutputSchema = out
	input, ok := tool.InputSchema.(*jsonschema.Schema)
	if !ok {
		return fmt.Errorf("tool %s: input schema is a %T", tool.Name, tool.InputSchema)
	}
	boundIntegers(input)
	plainTypes(input)
	describeSectionsOnce(input)
	// Resolved as the SDK resolves it, so that the same arguments fail
	// with the same error.
	resolved, err := input.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		return fmt.Errorf("tool %s: input schema: %w", tool.Name, err)
	}
	if ts.inputs == nil {
		ts.inputs = map[string]*jsonschema.Resolved{}
	}
	if ts.inputs[tool.Name] != nil {
		return fmt.Errorf("tool %s: added twice", tool.Name)
	}
	ts.inputs[tool.Name] = resolved
	served := serve(ts, handler)
	ts.adds = append(ts.adds, toolAdd{set: ts.preparing, name: tool.Name, add: func(server *mcp.Server) { mcp.AddTool(server, tool, served) }})
	return nil
}

// sdkInputError starts the error the SDK gives a call whose arguments its
// input schema refuses, before the handler runs (mcp.AddTool's handler).
const sdkInputError = `validating "arguments": `

// codeSchemaError gives a code, INVALID_ARGUMENTS, to a tool error that
// the SDK wrote itself because input, the tool's resolved input schema,
// refuses the call's arguments, and reports whether it did. It recognises
// that error precisely: the SDK's form, whose cause is the error input
// gives the same arguments, so that the error of a tool that replaced one
// of the set's under its name (with another schema, or from its handler)
// is left alone. Without it, input-schema errors would be the only tool
// errors that do not start with a code.
func codeSchemaError(res *mcp.CallToolResult, input *jsonschema.Resolved, arguments any) bool {
	cause := res.GetError()
	if !res.IsError || cause == nil {
		return false
	}
	detail, ok := strings.CutPrefix(cause.Error(), sdkInputError)
	if !ok {
		return false
	}
	var raw []byte
	switch a := arguments.(type) {
	case nil:
	case json.RawMessage:
		raw = a
	default:
		var err error
		if raw, err = json.Marshal(a); err != nil {
			return false
		}
	}
	// As the SDK reads them: an object, its defaults applied.
	var args any = map[string]any{}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &args); err != nil {
			return false
		}
		if args == nil {
			args = map[string]any{}
		}
	}
	var refusal error
	if _, isObject := args.(map[string]any); !isObject {
		// The SDK's own unmarshalling refused them: so would any object
		// schema.
		if !strings.HasPrefix(detail, "unmarshaling arguments: ") {
			return false
		}
		refusal = errors.New(detail)
	} else {
		if err := input.ApplyDefaults(&args); err != nil {
			return false
		}
		if refusal = input.Validate(&args); refusal == nil || refusal.Error() != detail {
			return false
		}
	}
	coded := &toolError{code: codeInvalidArguments, err: fmt.Errorf("%s%w", sdkInputError, refusal)}
	if msg := integerRefusal(input.Schema(), args, ""); msg != "" {
		coded.err = &taskdoc.Error{Code: codeInvalidArguments, Msg: msg, Err: refusal}
	}
	res.Content = []mcp.Content{&mcp.TextContent{Text: coded.Error()}}
	res.SetError(coded)
	return true
}

// maxInteger is the largest integer argument of every tool: a count, a
// sequence number, a budget or a number of seconds, each far below it, and
// each fits an int, and a Duration once multiplied by time.Second.
const maxInteger = math.MaxInt32

// boundIntegers gives every integer property of s, at any depth, the range
// 0 to maxInteger unless it has a bound already. Every argument is decoded
// in one place, the SDK's, after the input schema: bounded there, a number
// that no int holds (1e308) or that no tool takes (-1) is an input-schema
// error, which codeSchemaError codes, and never a decoder's error, which
// has no code.
func boundIntegers(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if s.Type == "integer" || slices.Contains(s.Types, "integer") {
		if s.Minimum == nil {
			s.Minimum = jsonschema.Ptr(0.0)
		}
		if s.Maximum == nil {
			s.Maximum = jsonschema.Ptr(float64(maxInteger))
		}
	}
	for _, p := range s.Properties {
		boundIntegers(p)
	}
	boundIntegers(s.Items)
}

// integerRefusal names the first integer argument in v (arguments as
// decoded into any) that s's range refuses, with the range, or is "".
// name is the path of v ("" for the arguments themselves).
func integerRefusal(s *jsonschema.Schema, v any, name string) string {
	if s == nil || v == nil {
		return ""
	}
	switch v := v.(type) {
	case map[string]any:
		for _, key := range slices.Sorted(maps.Keys(s.Properties)) {
			if value, ok := v[key]; ok {
				if msg := integerRefusal(s.Properties[key], value, strings.TrimPrefix(name+"."+key, ".")); msg != "" {
					return msg
				}
			}
		}
		return ""
	case []any:
		for i, item := range v {
			if msg := integerRefusal(s.Items, item, fmt.Sprintf("%s[%d]", name, i)); msg != "" {
				return msg
			}
		}
		return ""
	}
	if s.Minimum == nil || s.Maximum == nil || s.Type != "integer" && !slices.Contains(s.Types, "integer") {
		return ""
	}
	if f, ok := v.(float64); ok && f == math.Trunc(f) && *s.Minimum <= f && f <= *s.Maximum {
		return ""
	}
	given, _ := json.Marshal(v)
	return fmt.Sprintf("%s %s: give a whole number from %d to %d", name, given, int64(*s.Minimum), int64(*s.Maximum))
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
