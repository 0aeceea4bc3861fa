package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"

	"github.com/taskmd/taskmd/mcptools"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// cmdMcp serves taskmd's tools over the Model Context Protocol on stdin
// and stdout (newline-delimited JSON-RPC; see lineTransport) until the
// client closes stdin or a signal ends it, both with status 0. The
// workspace is -root DIR as given, else the one found as for every
// command. The toolsets are taskmd.toml's [mcp] toolsets (default all);
// the documents are resources, to which clients may subscribe.
// stdout carries the protocol and nothing else: logs go to stderr.
func cmdMcp(e *env, args []string) error {
	fs := e.flags("mcp")
	root := fs.String("root", "", "")
	if _, err := parseN(fs, args); err != nil {
		return err
	}
	var ws *workspace.Workspace
	var err error
	if *root != "" {
		if ws, err = workspace.Open(*root); err == nil {
			e.ws = ws // closed by run
		}
	} else {
		ws, err = e.workspace()
	}
	if err != nil {
		return err
	}
	cfg, err := workspace.ReadConfig(ws.Root())
	if err != nil {
		return err
	}
	sets, err := toolsets(ws.Root(), cfg)
	if err != nil {
		return err
	}
	opts := []mcptools.Option{mcptools.WithShutdown(e.ctx), mcptools.WithResources()}
	if len(sets) > 0 {
		opts = append(opts, mcptools.WithToolsets(sets...))
	}
	if e.now != nil {
		opts = append(opts, mcptools.WithClock(e.now))
	}
	server, err := mcptools.NewServer(ws, opts...)
	if err != nil {
		return err
	}
	// Anything that prints to os.Stdout from here on (a dependency, a
	// stray debug line) goes to stderr instead of corrupting the stream.
	if e.stdout == io.Writer(os.Stdout) {
		os.Stdout = os.Stderr
	}
	e.signalEnds = true
	logger := log.New(e.stderr, "taskmd mcp: ", log.LstdFlags)
	err = server.Run(e.ctx, &lineTransport{in: e.stdin, out: e.stdout, log: logger})
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// toolsets are the toolsets that cfg, the taskmd.toml of root, names
// (none: every toolset); one that is no toolset is INVALID_ARGUMENTS.
func toolsets(root string, cfg workspace.Config) ([]mcptools.Toolset, error) {
	sets := make([]mcptools.Toolset, len(cfg.MCPToolsets))
	for i, s := range cfg.MCPToolsets {
		sets[i] = mcptools.Toolset(s)
	}
	if err := mcptools.CheckToolsets(sets...); err != nil {
		name := filepath.Join(root, workspace.MarkerFile)
		return nil, &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Path: name,
			Msg: fmt.Sprintf("%s: [mcp] toolsets: %v", name, err)}
	}
	return sets, nil
}
