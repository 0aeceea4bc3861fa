package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// maxDefaultSize and maxAllSize bound what a client of the default
// toolsets, and of every toolset, reads before its first call: tools/list
// and the instructions, in bytes.
const (
	maxDefaultSize = 12_000
	maxAllSize     = 60_000
)

// toolsSize is what testdata/mcpsize/size.mjs prints.
type toolsSize struct {
	Tools                int `json:"tools"`
	ToolsListBytes       int `json:"tools_list_bytes"`
	WithoutOutputSchemas int `json:"without_output_schemas_bytes"`
	InstructionsBytes    int `json:"instructions_bytes"`
}

// The cost of the server to a client before any call, measured with the
// official TypeScript client: the tools/list result, without output
// schemas, and the instructions, for the default toolsets and for all.
// It needs node and npm with the registry in reach; without them it is
// skipped. The default toolsets cost a client at most maxDefaultSize
// characters (tools/list and instructions together), every toolset at
// most maxAllSize.
func TestMcpSizeWithTypeScriptClient(t *testing.T) {
	if testing.Short() {
		t.Skip("installs the TypeScript SDK with npm")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not installed")
	}
	dir := t.TempDir()
	for _, name := range []string{"package.json", "size.mjs"} {
		data, err := os.ReadFile(filepath.Join("testdata", "mcpsize", name))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	install := exec.CommandContext(ctx, npm, "install", "--no-audit", "--no-fund", "--loglevel=error")
	install.Dir = dir
	if out, err := install.CombinedOutput(); err != nil {
		t.Skipf("npm install @modelcontextprotocol/sdk failed (no registry?): %v\n%s", err, out)
	}
	root := t.TempDir()
	measure := func(args ...string) toolsSize {
		t.Helper()
		cmd := exec.CommandContext(ctx, node, append([]string{"size.mjs", binary, "mcp", "-root", root}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), toolsetsVar+"=")
		out, err := cmd.Output()
		require.NoError(t, err, "%s", out)
		var s toolsSize
		require.NoError(t, json.Unmarshal(out, &s), "%s", out)
		t.Logf("%v: %s", args, out)
		return s
	}
	small := measure()
	all := measure("--toolsets", "all")
	assert.Equal(t, len(defaultTools), small.Tools)
	assert.Equal(t, 44, all.Tools)
	assert.Less(t, small.WithoutOutputSchemas, small.ToolsListBytes)
	assert.Less(t, small.ToolsListBytes*5, all.ToolsListBytes, "the default is a small part of every tool")
	assert.Positive(t, small.InstructionsBytes)
	assert.LessOrEqual(t, small.ToolsListBytes+small.InstructionsBytes, maxDefaultSize)
	assert.LessOrEqual(t, all.ToolsListBytes+all.InstructionsBytes, maxAllSize)
	assert.Less(t, small.InstructionsBytes, all.InstructionsBytes, "the default's instructions name only its toolsets")
}
