package mcptools

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// enumsOf collects the enums of a schema, by property path.
func enumsOf(path string, s *jsonschema.Schema, out map[string][]any) {
	if s == nil {
		return
	}
	if len(s.Enum) > 0 {
		out[path] = s.Enum
	}
	enumsOf(path+"[]", s.Items, out)
	for name, p := range s.Properties {
		enumsOf(path+"."+name, p, out)
	}
}

// Every enum of every input schema lists each value once, in one spelling:
// no two of its values differ only in case.
func TestEnumsHaveOneSpellingPerValue(t *testing.T) {
	server := mcp.NewServer(&mcp.Implementation{Name: "host", Version: "v1"}, nil)
	require.NoError(t, Register(server, openWorkspace(t)))
	seen := 0
	for _, tool := range listTools(t, server) {
		raw, err := json.Marshal(tool.InputSchema)
		require.NoError(t, err)
		var schema jsonschema.Schema
		require.NoError(t, json.Unmarshal(raw, &schema))
		enums := map[string][]any{}
		enumsOf(tool.Name, &schema, enums)
		for path, values := range enums {
			seen++
			folded := map[string]any{}
			for _, v := range values {
				s, ok := v.(string)
				require.True(t, ok, "%s: %v", path, v)
				if prev, dup := folded[strings.ToLower(s)]; dup {
					t.Errorf("%s lists %q and %q", path, prev, s)
				}
				folded[strings.ToLower(s)] = s
			}
		}
	}
	assert.Greater(t, seen, 5, "the check sees the enums")
}

// The canonical spellings are taken; another spelling is refused by the
// schema, whatever the value.
func TestEnumsTakeCanonicalSpellings(t *testing.T) {
	root := newRoot(t, map[string]string{"docs/shop.md": pivotShop})
	call := inProcess(t, root, time.Now)
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"checkpoint_save", map[string]any{"worker_id": "w1", "status": "partial", "phase": "working"}},
		{"checkpoint_save", map[string]any{"worker_id": "w1", "status": "Partial", "phase": "working"}},
		{"checkpoint_save", map[string]any{"worker_id": "w1", "status": "PARTIAL", "pivot_mode": "Graceful", "phase": "working"}},
		{"pivot_worker", map[string]any{"worker_id": "w1", "mode": "HARD", "reason": "x", "wait_seconds": 0}},
		{"checkpoint_add", map[string]any{"task_id": "/shop.md#add-rate-limiting", "type": "Progress", "summary": "x"}},
	} {
		out, failed := call(tc.tool, tc.args)
		require.True(t, failed, "%s %v: %v", tc.tool, tc.args, out)
		assert.Regexp(t, `^INVALID_ARGUMENTS: .*enum`, out["error"], "%s %v", tc.tool, tc.args)
	}
	out, failed := call("checkpoint_save", map[string]any{"worker_id": "w1", "status": "PARTIAL", "pivot_mode": "graceful", "phase": "working"})
	assert.False(t, failed, "%v", out)
}
