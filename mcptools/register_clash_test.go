package mcptools

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// callersTool is a caller's tool named name, whose answer is {"open": open}.
func callersTool(server *mcp.Server, name, description string, open int) {
	mcp.AddTool(server, &mcp.Tool{Name: name, Description: description},
		func(context.Context, *mcp.CallToolRequest, projectInput) (*mcp.CallToolResult, projectStatus, error) {
			return nil, projectStatus{Open: open}, nil
		})
}

// A server that already has a tool named as one of taskmd's is refused,
// INVALID_ARGUMENTS naming the clash, and keeps its tools as they were;
// without the toolset that has the name, Register succeeds.
func TestRegisterRefusesTakenNames(t *testing.T) {
	server := mcp.NewServer(&mcp.Implementation{Name: "host", Version: "v1"}, nil)
	callersTool(server, "tasks_find", "the caller's", 1)
	callersTool(server, "archive_read", "the caller's too", 2)
	err := Register(server, openWorkspace(t))
	require.Error(t, err)
	assert.Equal(t, taskdoc.CodeInvalidArguments, taskdoc.CodeOf(err), err.Error())
	assert.Contains(t, err.Error(), "archive_read, tasks_find")
	tools := listTools(t, server)
	require.Len(t, tools, 2, "the server is unchanged")
	for _, tool := range tools {
		assert.True(t, strings.HasPrefix(tool.Description, "the caller's"), tool.Name)
	}

	require.NoError(t, Register(server, openWorkspace(t), WithToolsets(ToolsetSubagent)))
	assert.Len(t, listTools(t, server), 6)
}

// A second Register on the same server finds taskmd's names taken and is
// refused; the first one's tools go on serving, with one notice per
// result.
func TestRegisterTwiceIsRefused(t *testing.T) {
	root := newRoot(t, map[string]string{"docs/shop.md": pivotShop})
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	server := mcp.NewServer(&mcp.Implementation{Name: "host", Version: "v1"}, nil)
	clock := func() time.Time { return lifecycleStart }
	require.NoError(t, Register(server, ws, WithClock(clock)))
	before := len(listTools(t, server))
	err = Register(server, ws, WithClock(clock), WithToolsets(ToolsetAgents, ToolsetPlans, ToolsetPivots))
	require.Error(t, err)
	assert.Equal(t, taskdoc.CodeInvalidArguments, taskdoc.CodeOf(err), err.Error())
	assert.Len(t, listTools(t, server), before)

	s := connect(t, server, 2)
	wk, orch := s[0], s[1]
	w := wk.register("worker-1")
	wk.ok("task_claim", map[string]any{"task_id": "/shop.md#add-rate-limiting", "agent_id": w}, nil)
	orch.ok("pivot_worker", map[string]any{"worker_id": w, "reason": "regroup", "wait_seconds": 0}, nil)
	res, err := wk.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "task_claim",
		Arguments: map[string]any{"task_id": "/shop.md#nope", "agent_id": w}})
	require.NoError(t, err)
	assert.Len(t, res.Content, 2, "one error text and one notice")
}

// A tool that a caller adds after Register under one of taskmd's names
// (not supported, but possible) serves its calls as its handler answers
// them: no pending pivot added, its errors and its input-schema errors not
// recoded. taskmd's other tools still are.
func TestReplacedToolIsLeftAlone(t *testing.T) {
	root := newRoot(t, map[string]string{"docs/shop.md": pivotShop})
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	server := mcp.NewServer(&mcp.Implementation{Name: "host", Version: "v1"}, nil)
	require.NoError(t, Register(server, ws, WithClock(func() time.Time { return lifecycleStart })))
	callersTool(server, "documents_list", "mine", 7)
	mcp.AddTool(server, &mcp.Tool{Name: "archives_list", Description: "mine, failing"},
		func(context.Context, *mcp.CallToolRequest, projectInput) (*mcp.CallToolResult, projectStatus, error) {
			return nil, projectStatus{}, context.DeadlineExceeded
		})
	s := connect(t, server, 2)
	wk, orch := s[0], s[1]
	worker := wk.register("worker-1")
	wk.ok("task_claim", map[string]any{"task_id": "/shop.md#add-rate-limiting", "agent_id": worker}, nil)
	orch.ok("pivot_worker", map[string]any{"worker_id": worker, "reason": "regroup", "wait_seconds": 0}, nil)

	res, err := wk.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "documents_list", Arguments: map[string]any{}})
	require.NoError(t, err)
	raw, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	assert.JSONEq(t, `{"open":7}`, string(raw), "the caller's result is as its handler wrote it")
	assert.Len(t, res.Content, 1)

	res, err = wk.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "archives_list", Arguments: map[string]any{}})
	require.NoError(t, err)
	assert.Equal(t, context.DeadlineExceeded.Error(), text(res), "the caller's error is not recoded")
	assert.Len(t, res.Content, 1, "the caller's error gets no notice")

	res, err = wk.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "documents_list", Arguments: map[string]any{"verbose": "yes"}})
	require.NoError(t, err)
	require.True(t, res.IsError)
	assert.False(t, strings.HasPrefix(text(res), "INVALID_ARGUMENTS"), "the caller's schema error is not recoded: %s", text(res))
	assert.Len(t, res.Content, 1)

	// taskmd's own tools: the input-schema error is coded, the notice added.
	res, err = wk.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "workflows_list", Arguments: map[string]any{"verbose": "yes"}})
	require.NoError(t, err)
	require.True(t, res.IsError)
	assert.True(t, strings.HasPrefix(text(res), "INVALID_ARGUMENTS: "), text(res))
	assert.Len(t, res.Content, 2, "the error and the notice")
}

// codeSchemaError codes only the SDK's input-schema error whose cause is
// the error the tool's own schema gives the same arguments: not another
// error, not another schema's.
func TestCodeSchemaErrorIsPrecise(t *testing.T) {
	schema, err := inputSchema[taskRemoveInput](nil)
	require.NoError(t, err)
	resolved, err := schema.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	require.NoError(t, err)
	args := json.RawMessage(`{"task_id":"/a.md#b","verbose":true}`)
	refusal := resolved.Validate(&map[string]any{"task_id": "/a.md#b", "verbose": true})
	require.Error(t, refusal)

	failed := func(err error) *mcp.CallToolResult {
		res := &mcp.CallToolResult{}
		res.SetError(err)
		return res
	}
	for name, err := range map[string]error{
		"a handler's error":            errors.New("disk full"),
		"a handler's error that looks": errors.New(`validating "arguments": disk full`),
		"another schema's refusal":     errors.New(`validating "arguments": validating root: verbose: wrong type`),
	} {
		res := failed(err)
		assert.False(t, codeSchemaError(res, resolved, args), name)
		assert.Equal(t, err.Error(), text(res), name)
	}
	res := failed(errors.New(`validating "arguments": ` + refusal.Error()))
	require.True(t, codeSchemaError(res, resolved, args))
	assert.Equal(t, `INVALID_ARGUMENTS: validating "arguments": `+refusal.Error(), text(res))
	assert.False(t, codeSchemaError(&mcp.CallToolResult{}, resolved, args), "not an error")
}
