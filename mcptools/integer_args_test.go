package mcptools

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/workspace"
)

// integerArgument is an integer property of a tool's input schema: its
// path from the arguments ("include.recent_checkpoints").
type integerArgument struct {
	tool string
	path []string
}

// integerProperties lists the integer properties of schema, at any depth
// of objects.
func integerProperties(schema map[string]any, path []string) [][]string {
	var out [][]string
	props, _ := schema["properties"].(map[string]any)
	for _, name := range slices.Sorted(maps.Keys(props)) {
		p, _ := props[name].(map[string]any)
		at := append(slices.Clone(path), name)
		types := []any{p["type"]}
		if many, ok := p["type"].([]any); ok {
			types = many
		}
		if slices.Contains(types, any("integer")) {
			out = append(out, at)
		}
		out = append(out, integerProperties(p, at)...)
	}
	return out
}

// Every integer argument of every tool that no handler can take (too big
// for an int, negative, not whole, not a number) is INVALID_ARGUMENTS,
// naming the argument and the range, and writes nothing.
func TestIntegerArgumentsOutOfRange(t *testing.T) {
	root := newRoot(t, map[string]string{"docs/plan.md": "# Plan\n\n## Tasks\n\n### A\n\n- Status: pending\n"})
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	server, err := NewServer(ws, WithClock(func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }))
	require.NoError(t, err)
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := server.Connect(ctx, st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	session, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "v0"}, nil).Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { session.Close() })

	var args []integerArgument
	required := map[string]map[string]any{}
	for tool, err := range session.Tools(ctx, nil) {
		require.NoError(t, err)
		raw, err := json.Marshal(tool.InputSchema)
		require.NoError(t, err)
		var schema map[string]any
		require.NoError(t, json.Unmarshal(raw, &schema))
		for _, path := range integerProperties(schema, nil) {
			args = append(args, integerArgument{tool: tool.Name, path: path})
		}
		required[tool.Name] = validRequired(t, raw)
	}
	names := map[string]bool{}
	for _, a := range args {
		names[a.path[len(a.path)-1]] = true
	}
	for _, want := range []string{"sequence", "from", "to", "limit", "since_sequence", "wait_seconds", "max_tokens", "recent_checkpoints"} {
		assert.True(t, names[want], "no tool has an integer %s: the list of tools changed", want)
	}

	before := filetest.Snapshot(t, root)
	for _, a := range args {
		for _, bad := range []any{1e308, -1, 1.5, "x"} {
			call := maps.Clone(required[a.tool])
			// Set the bad value at the argument's path.
			at := call
			for _, step := range a.path[:len(a.path)-1] {
				next := map[string]any{}
				at[step] = next
				at = next
			}
			at[a.path[len(a.path)-1]] = bad
			res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: a.tool, Arguments: call})
			require.NoError(t, err)
			name := strings.Join(a.path, ".")
			require.True(t, res.IsError, "%s %s=%v was taken", a.tool, name, bad)
			msg := text(res)
			assert.True(t, strings.HasPrefix(msg, "INVALID_ARGUMENTS: "+name+" "), "%s %s=%v: %s", a.tool, name, bad, msg)
			assert.Contains(t, msg, "from 0 to 2147483647", "%s %s=%v", a.tool, name, bad)
		}
	}
	assert.Equal(t, before, filetest.Snapshot(t, root), "a refused call wrote nothing")
}

// validRequired gives each required property of the input schema raw a
// value of its type (the first of an enum), so that the integer argument is
// the only fault of a call.
func validRequired(t *testing.T, raw []byte) map[string]any {
	t.Helper()
	var schema jsonschema.Schema
	require.NoError(t, json.Unmarshal(raw, &schema))
	out := map[string]any{}
	for _, name := range schema.Required {
		p := schema.Properties[name]
		switch {
		case len(p.Enum) > 0:
			out[name] = p.Enum[0]
		case p.Type == "string":
			out[name] = "/plan.md#a"
		case p.Type == "boolean":
			out[name] = false
		case p.Type == "array":
			out[name] = []any{}
		case p.Type == "object":
			out[name] = map[string]any{}
		}
	}
	return out
}
