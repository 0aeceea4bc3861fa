package mcptools

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The toolset tools (WithDynamicToolsets) let an agent that started with
// a few toolsets add another while the server runs, rather than carry
// every tool's description from the start.

type toolsetEnableInput struct {
	Name string `json:"name" jsonschema:"the toolset, as toolsets_list names it"`
}

// toolsetsListResult is the result of toolsets_list.
type toolsetsListResult struct {
	Toolsets []string `json:"toolsets"`
}

// toolsetEnableResult is the result of toolset_enable.
type toolsetEnableResult struct {
	Toolset        string   `json:"toolset"`
	Tools          []string `json:"tools"`
	AlreadyEnabled bool     `json:"already_enabled,omitempty"`
}

const (
	toolsetsListDescription = `List the toolsets of this server, one line each: its name, enabled or not, and its tools. toolset_enable adds a toolset that is not enabled. Reads only.`

	toolsetEnableDescription = `Add a toolset's tools to this server (toolsets_list names them), for every session of the server; the server then sends notifications/tools/list_changed. Returns {toolset, tools}; a toolset already enabled changes nothing (already_enabled true). Changes no file.`
)

func addToolsetTools(ts *toolBatch) error {
	var names []any
	for _, g := range allToolsets {
		if len(ts.toolsOf(g)) > 0 {
			names = append(names, string(g))
		}
	}
	enable, err := inputSchema[toolsetEnableInput](map[string]enum{"name": {values: names}})
	if err != nil {
		return err
	}
	// toolset_enable is read-only as the MCP means it: it changes no
	// file, only which of this server's tools are listed.
	return firstError(
		addTool(ts, &mcp.Tool{Name: "toolsets_list", Description: toolsetsListDescription, Annotations: readOnly}, ts.listToolsets),
		addTool(ts, &mcp.Tool{Name: "toolset_enable", Description: toolsetEnableDescription, InputSchema: enable, Annotations: readOnly}, ts.enableToolset),
	)
}

// toolsOf names the prepared tools of toolset g.
func (ts *toolBatch) toolsOf(g Toolset) []string {
	var names []string
	for _, a := range ts.adds {
		if a.set == g {
			names = append(names, a.name)
		}
	}
	return names
}

func (ts *toolBatch) listToolsets(_ context.Context, _ *mcp.CallToolRequest, _ noInput) (*mcp.CallToolResult, toolsetsListResult, error) {
	var lines []string
	for _, g := range allToolsets {
		tools := ts.toolsOf(g)
		if len(tools) == 0 {
			continue // under WithReadOnly, a toolset without a read-only tool
		}
		state := "not enabled"
		if ts.isEnabled(g) {
			state = "enabled"
		}
		lines = append(lines, fmt.Sprintf("%s (%s): %s", g, state, strings.Join(tools, ", ")))
	}
	return nil, toolsetsListResult{Toolsets: lines}, nil
}

func (ts *toolBatch) enableToolset(_ context.Context, _ *mcp.CallToolRequest, in toolsetEnableInput) (*mcp.CallToolResult, toolsetEnableResult, error) {
	g := Toolset(in.Name)
	tools := ts.toolsOf(g)
	if len(tools) == 0 { // the input schema's enum refuses these first
		return nil, toolsetEnableResult{}, &toolError{code: codeInvalidArguments, err: fmt.Errorf("no toolset %q on this server: toolsets_list names them", in.Name)}
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.enabled[g] {
		return nil, toolsetEnableResult{Toolset: in.Name, Tools: tools, AlreadyEnabled: true}, nil
	}
	ts.enabled[g] = true
	for _, a := range ts.adds {
		if a.set == g {
			a.add(ts.server)
		}
	}
	return nil, toolsetEnableResult{Toolset: in.Name, Tools: tools}, nil
}
