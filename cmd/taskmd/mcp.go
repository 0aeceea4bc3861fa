package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/taskmd/taskmd/mcptools"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// cmdMcp serves taskmd's tools over the Model Context Protocol on stdin
// and stdout (newline-delimited JSON-RPC; see lineTransport) until the
// client closes stdin or a signal ends it, both with status 0. The
// workspace is -root DIR as given, else the one found as for every
// command. The toolsets are --toolsets, else TASKMD_TOOLSETS, else
// taskmd.toml's [mcp] toolsets, else defaultToolsets (see mcpToolsets);
// the documents are resources, to which clients may subscribe.
// stdout carries the protocol and nothing else: logs go to stderr.
func cmdMcp(e *env, args []string) error {
	fs := e.flags("mcp")
	root := fs.String("root", "", "")
	toolsets := fs.String("toolsets", "", "")
	readOnly := fs.Bool("read-only", false, "")
	dynamic := fs.Bool("dynamic-toolsets", false, "")
	if _, err := parseN(fs, args); err != nil {
		return err
	}
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == "toolsets" })
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
	sets, from, err := mcpToolsets(*toolsets, given, cfg.MCPToolsets)
	if err != nil {
		return err
	}
	opts := []mcptools.Option{mcptools.WithShutdown(e.ctx), mcptools.WithToolsets(sets...), mcptools.WithResources()}
	if *readOnly {
		opts = append(opts, mcptools.WithReadOnly())
	}
	if *dynamic {
		opts = append(opts, mcptools.WithDynamicToolsets())
	}
	if e.now != nil {
		opts = append(opts, mcptools.WithClock(e.now))
	}
	server, err := mcptools.NewServer(ws, opts...)
	if te := (*taskdoc.Error)(nil); errors.As(err, &te) && te.Code == taskdoc.CodeInvalidArguments {
		// The toolsets are the only input NewServer checks here.
		return &taskdoc.Error{Code: te.Code, Msg: from + ": " + te.Msg}
	}
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

// checkFileToolsets refuses, as INVALID_ARGUMENTS naming the file, a
// taskmd.toml of root whose [mcp] toolsets names one that is no toolset:
// init checks it before writing anything, as taskmd mcp would refuse it.
func checkFileToolsets(root string, cfg workspace.Config) error {
	sets := make([]mcptools.Toolset, len(cfg.MCPToolsets))
	for i, s := range cfg.MCPToolsets {
		sets[i] = mcptools.Toolset(s)
	}
	if err := mcptools.CheckToolsets(sets...); err != nil {
		name := filepath.Join(root, workspace.MarkerFile)
		return &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Path: name,
			Msg: fmt.Sprintf("%s: [mcp] toolsets: %v", name, err)}
	}
	return nil
}

// toolsetsVar names the toolsets `taskmd mcp` serves when --toolsets
// does not.
const toolsetsVar = "TASKMD_TOOLSETS"

// defaultToolsets are what `taskmd mcp` serves when nothing names the
// toolsets: the tools of one agent working the tasks of documents
// (subagent) and the questions across the workspace (queries, which only
// read). A Go program's mcptools.Register serves every toolset instead.
var defaultToolsets = []mcptools.Toolset{mcptools.ToolsetSubagent, mcptools.ToolsetQueries}

// mcpToolsets chooses the toolsets: list (--toolsets, comma-separated, given
// when given is true), else TASKMD_TOOLSETS, else file (taskmd.toml's),
// else defaultToolsets. It also says where they came from, for errors.
// The names themselves are checked by mcptools, which knows them.
func mcpToolsets(list string, given bool, file []string) ([]mcptools.Toolset, string, error) {
	var names []string
	from := "--toolsets"
	switch env := os.Getenv(toolsetsVar); {
	case given:
		names = strings.Split(list, ",")
	case env != "":
		names, from = strings.Split(env, ","), toolsetsVar
	case len(file) > 0:
		names, from = file, workspace.MarkerFile+" [mcp] toolsets"
	default:
		return defaultToolsets, "the default toolsets", nil
	}
	sets := make([]mcptools.Toolset, len(names))
	for i, name := range names {
		name = strings.TrimSpace(name)
		if name == "" {
			return nil, from, usagef("%s: an empty toolset name in %q: give names separated by commas, such as subagent,queries (or all)", from, strings.Join(names, ","))
		}
		sets[i] = mcptools.Toolset(name)
	}
	return sets, from, nil
}
