package mcptools_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/taskmd/taskmd/mcptools"
	"github.com/taskmd/taskmd/workspace"
)

type buildInput struct{}

type buildStatus struct {
	Green bool `json:"green"`
}

// A server of one's own, with its own tool and taskmd's next to it.
func ExampleRegister() {
	root, err := os.MkdirTemp("", "taskmd-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(root)
	doc := "# API\n\n## Tasks\n\n### Sign tokens\n\n- Status: pending\n"
	if err := os.MkdirAll(filepath.Join(root, "docs"), 0o755); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "docs", "api.md"), []byte(doc), 0o644); err != nil {
		log.Fatal(err)
	}
	ws, err := workspace.Open(root)
	if err != nil {
		log.Fatal(err)
	}
	defer ws.Close()

	server := mcp.NewServer(&mcp.Implementation{Name: "my-server", Version: "v1"},
		&mcp.ServerOptions{Instructions: "Check the build with build_status.\n" + mcptools.Instructions})
	mcp.AddTool(server, &mcp.Tool{Name: "build_status", Description: "whether the build is green"},
		func(context.Context, *mcp.CallToolRequest, buildInput) (*mcp.CallToolResult, buildStatus, error) {
			return nil, buildStatus{Green: true}, nil
		})
	if err := mcptools.Register(server, ws, mcptools.WithToolsets(mcptools.ToolsetSubagent)); err != nil {
		log.Fatal(err)
	}

	// A client, in process here; over stdio or HTTP in real use.
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, st, nil); err != nil {
		log.Fatal(err)
	}
	client, err := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "v1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	call := func(tool string, args map[string]any) map[string]any {
		res, err := client.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil || res.IsError {
			log.Fatal(tool, err)
		}
		return res.StructuredContent.(map[string]any)
	}
	fmt.Println("build green:", call("build_status", nil)["green"])
	started := call("start_subagent_task", map[string]any{"document": "/api.md#sign-tokens"})
	fmt.Println("started:", started["task"].(map[string]any)["full_path"])
	// Output:
	// build green: true
	// started: /api.md#sign-tokens
}
