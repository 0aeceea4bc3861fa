// Command mcpserver is the smallest MCP server that embeds taskmd's tools:
// it opens a workspace and serves mcptools.NewServer on stdin/stdout.
//
//	go run ./examples/mcpserver -root DIR
//
// It is an example of embedding: the server to run is `taskmd mcp`
// (cmd/taskmd), which also finds the workspace, reads taskmd.toml's
// toolsets, survives malformed lines and answers the calls in flight when
// the client closes stdin. A Go MCP server that wants taskmd's tools next
// to its own calls mcptools.Register on its *mcp.Server instead.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/taskmd/taskmd/mcptools"
	"github.com/taskmd/taskmd/workspace"
)

func main() {
	root := flag.String("root", "", "the workspace `directory` (holding docs/)")
	flag.Parse()
	if *root == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: mcpserver -root DIR")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := serve(ctx, *root); err != nil {
		log.Print(err)
		stop()
		os.Exit(1)
	}
}

// serve runs the server on root until the client closes stdin or ctx ends.
func serve(ctx context.Context, root string) error {
	ws, err := workspace.Open(root)
	if err != nil {
		return err
	}
	defer ws.Close()
	server, err := mcptools.NewServer(ws, mcptools.WithShutdown(ctx))
	if err != nil {
		return err
	}
	err = server.Run(ctx, &mcp.StdioTransport{})
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}
