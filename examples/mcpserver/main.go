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
	"syscall"

	"github.com/taskmd/taskmd/mcptools"
	"github.com/taskmd/taskmd/workspace"
)

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
	server, err := mcptools.NewServer(ws, mcptools.WithShutdown(ctx))
	if err != nil {
		return err
	}
	err = server.Run(ctx, &lineTransport{in: in, out: out, log: logger})
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}
