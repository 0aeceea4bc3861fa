package mcptools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// connect opens n client sessions on server.
func connect(t *testing.T, server *mcp.Server, n int) []*mcpSession {
	t.Helper()
	out := make([]*mcpSession, n)
	for i := range out {
		ct, st := mcp.NewInMemoryTransports()
		ss, err := server.Connect(context.Background(), st, nil)
		require.NoError(t, err)
		t.Cleanup(func() { ss.Close() })
		cs, err := mcp.NewClient(&mcp.Implementation{Name: fmt.Sprintf("client-%d", i), Version: "v0"}, nil).
			Connect(context.Background(), ct, nil)
		require.NoError(t, err)
		t.Cleanup(func() { cs.Close() })
		out[i] = &mcpSession{t: t, cs: cs}
	}
	return out
}

type projectStatus struct {
	Open int `json:"open"`
}

type projectInput struct {
	Verbose bool `json:"verbose,omitempty"`
}

// A caller's own tools keep their results and errors as they wrote them:
// no pivot_request, no code, even for the session of a worker whose pivot
// is pending, while taskmd's tools carry it.
func TestRegisterLeavesOtherToolsAlone(t *testing.T) {
	root := newRoot(t, map[string]string{"docs/shop.md": pivotShop})
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	server := mcp.NewServer(&mcp.Implementation{Name: "host", Version: "v1"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "project_status", Description: "open issues"},
		func(context.Context, *mcp.CallToolRequest, projectInput) (*mcp.CallToolResult, projectStatus, error) {
			return nil, projectStatus{Open: 3}, nil
		})
	mcp.AddTool(server, &mcp.Tool{Name: "project_fail", Description: "always fails"},
		func(context.Context, *mcp.CallToolRequest, projectInput) (*mcp.CallToolResult, projectStatus, error) {
			return nil, projectStatus{}, errors.New("disk full")
		})
	require.NoError(t, Register(server, ws, WithClock(func() time.Time { return lifecycleStart })))

	s := connect(t, server, 2)
	wk, orch := s[0], s[1]
	worker := wk.register("worker-1")
	wk.ok("task_claim", map[string]any{"task_id": "/shop.md#add-rate-limiting", "agent_id": worker}, nil)
	orch.ok("pivot_worker", map[string]any{"worker_id": worker, "reason": "regroup", "wait_seconds": 0}, nil)

	var view map[string]any
	wk.ok("view_subagent_task", map[string]any{"document": "/shop.md"}, &view)
	assert.Contains(t, view, "pivot_request", "taskmd's tools carry the pending pivot")

	res, err := wk.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "project_status", Arguments: map[string]any{}})
	require.NoError(t, err)
	require.False(t, res.IsError, text(res))
	raw, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	assert.JSONEq(t, `{"open":3}`, string(raw))
	assert.Len(t, res.Content, 1)

	res, err = wk.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "project_fail", Arguments: map[string]any{}})
	require.NoError(t, err)
	require.True(t, res.IsError)
	assert.Equal(t, "disk full", text(res))
	assert.Len(t, res.Content, 1, "no pivot notice after a caller's error")

	res, err = wk.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "project_status", Arguments: map[string]any{"verbose": "yes"}})
	require.NoError(t, err)
	require.True(t, res.IsError)
	assert.False(t, strings.HasPrefix(text(res), "INVALID_ARGUMENTS"), text(res))
}

// WithToolsets registers only the toolsets named; without ToolsetPivots no
// output schema declares pivot_request.
func TestWithToolsets(t *testing.T) {
	server := mcp.NewServer(&mcp.Implementation{Name: "host", Version: "v1"}, nil)
	require.NoError(t, Register(server, openWorkspace(t), WithToolsets(ToolsetSubagent, ToolsetResume)))
	var names []string
	for _, tool := range listTools(t, server) {
		names = append(names, tool.Name)
		raw, err := json.Marshal(tool.OutputSchema)
		require.NoError(t, err)
		assert.NotContains(t, string(raw), "pivot_request", tool.Name)
	}
	assert.ElementsMatch(t, []string{"subagent_task", "start_subagent_task", "complete_subagent_task", "view_subagent_task",
		"resume_queue", "resume_brief"}, names)
}

// Bad arguments and options are INVALID_ARGUMENTS, and the server is left
// without a tool.
func TestRegisterRefusesBadInput(t *testing.T) {
	ws := openWorkspace(t)
	for name, tc := range map[string]struct {
		server *mcp.Server
		ws     *workspace.Workspace
		opts   []Option
	}{
		"nil server":      {nil, ws, nil},
		"nil workspace":   {mcp.NewServer(&mcp.Implementation{Name: "h"}, nil), nil, nil},
		"unknown toolset": {mcp.NewServer(&mcp.Implementation{Name: "h"}, nil), ws, []Option{WithToolsets(ToolsetSubagent, "planz")}},
		"no toolset":      {mcp.NewServer(&mcp.Implementation{Name: "h"}, nil), ws, []Option{WithToolsets()}},
		"nil clock":       {mcp.NewServer(&mcp.Implementation{Name: "h"}, nil), ws, []Option{WithClock(nil)}},
		"nil timer":       {mcp.NewServer(&mcp.Implementation{Name: "h"}, nil), ws, []Option{withTimer(nil)}},
		//lint:ignore SA1012 a nil context is what this case tests
		"nil shutdown": {mcp.NewServer(&mcp.Implementation{Name: "h"}, nil), ws, []Option{WithShutdown(nil)}},
	} {
		t.Run(name, func(t *testing.T) {
			err := Register(tc.server, tc.ws, tc.opts...)
			require.Error(t, err)
			assert.Equal(t, taskdoc.CodeInvalidArguments, taskdoc.CodeOf(err), err.Error())
			if tc.server != nil {
				assert.Empty(t, listTools(t, tc.server))
			}
		})
	}

	// The worktree tools are the toolset worktrees, whatever their tools' names.
	err := Register(mcp.NewServer(&mcp.Implementation{Name: "h"}, nil), ws, WithToolsets("workspaces"))
	assert.ErrorContains(t, err, `unknown toolset "workspaces"`)
	assert.ErrorContains(t, err, "worktrees")
}

// A program that uses the library without mcptools never compiles the MCP
// SDK nor its schema package, on this system or another (build-tagged
// files). The library is every package of the module, as go list finds
// it, but mcptools, the commands (cmd/taskmd serves MCP), the examples and
// the helpers of tests (packages that import testing).
func TestLibraryDoesNotCompileTheSDK(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	const module = "github.com/taskmd/taskmd"
	goList := func(goos string, args ...string) string {
		t.Helper()
		cmd := exec.Command("go", append([]string{"list"}, args...)...)
		cmd.Env = append(os.Environ(), "GOOS="+goos, "CGO_ENABLED=0")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "GOOS=%s go list %v: %s", goos, args, out)
		return string(out)
	}
	sdk := []string{"github.com/modelcontextprotocol/go-sdk", "github.com/google/jsonschema-go"}
	for _, goos := range []string{runtime.GOOS, "windows"} {
		if goos == "windows" && runtime.GOOS == "windows" {
			goos = "linux"
		}
		t.Run(goos, func(t *testing.T) {
			var library []string
			for line := range strings.Lines(goList(goos, "-f", `{{if .GoFiles}}{{.ImportPath}} {{join .Imports " "}}{{end}}`, module+"/...")) {
				fields := strings.Fields(line)
				if len(fields) == 0 {
					continue
				}
				pkg := fields[0]
				switch {
				case pkg == module+"/mcptools", strings.HasPrefix(pkg, module+"/cmd/"), strings.HasPrefix(pkg, module+"/examples/"), slices.Contains(fields[1:], "testing"):
					continue
				}
				library = append(library, pkg)
			}
			for _, want := range []string{"taskdoc", "workspace", "coordinator", "query", "internal/taskflow"} {
				require.Contains(t, library, module+"/"+want, "the library as go list finds it")
			}
			require.NotContains(t, library, module+"/internal/testkit/zerotest", "a helper of tests is no library")
			deps := goList(goos, append([]string{"-deps"}, library...)...)
			for _, line := range strings.Fields(deps) {
				for _, prefix := range sdk {
					assert.False(t, strings.HasPrefix(line, prefix), "the library compiles %s", line)
				}
			}
			assert.Contains(t, goList(goos, "-deps", module+"/mcptools"), sdk[0]+"/mcp", "the check sees the SDK where it is")
		})
	}
}
