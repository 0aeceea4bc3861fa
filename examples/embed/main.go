// Command embed is an MCP server of its own that serves taskmd's tools
// next to one of its own, project_status, on stdin/stdout:
//
//	go run . -root DIR
//
// It lives in a module of its own, as a program that imports taskmd
// would: mcptools.Register adds taskmd's tools to the server it made.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/taskmd/taskmd/mcptools"
	"github.com/taskmd/taskmd/query"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// statusInput is project_status's input: none.
type statusInput struct{}

// projectStatus is how the project's work stands, across every task
// document.
type projectStatus struct {
	Documents  int `json:"documents"`
	Tasks      int `json:"tasks"`
	Open       int `json:"open" jsonschema:"tasks neither completed nor skipped"`
	InProgress int `json:"in_progress"`
	Blocked    int `json:"blocked"`
}

// newServer is the project's MCP server on ws: its own tool and taskmd's.
func newServer(ctx context.Context, ws *workspace.Workspace) (*mcp.Server, error) {
	server := mcp.NewServer(&mcp.Implementation{Name: "project", Version: "v1"},
		&mcp.ServerOptions{Instructions: "project_status says how the work stands.\n" + mcptools.Instructions})
	mcp.AddTool(server, &mcp.Tool{
		Name:        "project_status",
		Description: "How the project's work stands: documents, tasks, open, in progress and blocked tasks.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, func(ctx context.Context, _ *mcp.CallToolRequest, _ statusInput) (*mcp.CallToolResult, projectStatus, error) {
		docs, err := query.Documents(ctx, ws)
		if err != nil {
			return nil, projectStatus{}, err
		}
		out := projectStatus{Documents: len(docs)}
		for _, d := range docs {
			out.Tasks += d.Tasks
			out.InProgress += d.Counts[taskdoc.StatusInProgress]
			out.Blocked += d.Counts[taskdoc.StatusBlocked]
			for status, n := range d.Counts {
				if !status.Final() {
					out.Open += n
				}
			}
		}
		return nil, out, nil
	})
	if err := mcptools.Register(server, ws, mcptools.WithShutdown(ctx)); err != nil {
		return nil, err
	}
	return server, nil
}

func main() {
	root := flag.String("root", "", "the taskmd workspace `directory`")
	flag.Parse()
	if *root == "" {
		fmt.Fprintln(os.Stderr, "usage: embed -root DIR")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, *root)
	stop()
	if err != nil {
		log.Fatal(err)
	}
}

// run serves the project's tools on stdin/stdout until the client leaves
// or ctx ends.
func run(ctx context.Context, root string) error {
	ws, err := workspace.Open(root)
	if err != nil {
		return err
	}
	defer ws.Close()
	server, err := newServer(ctx, ws)
	if err != nil {
		return err
	}
	if err := server.Run(ctx, &mcp.StdioTransport{}); err != nil && ctx.Err() == nil {
		return err
	}
	return nil
}
