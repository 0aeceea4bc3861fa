package mcptools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/workspace"
)

// clientOf connects a client to a server of every group on root, so that a
// test sees protocol errors (a result the output schema refuses) as the
// client does.
func clientOf(t *testing.T, root string) *mcp.ClientSession {
	t.Helper()
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	server, err := NewServer(ws)
	require.NoError(t, err)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(context.Background(), st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(context.Background(), ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

// documents_list and archives_list list a document that does not read
// (a file name that is no address, a symbolic link) with its error and
// empty counts, {}: null counts would fail the output schema, and the
// whole call with them.
func TestListsWithDocumentsThatDoNotRead(t *testing.T) {
	files := queryFiles()
	files["docs/notes#old.md"] = "# Notes\n"
	files["archived/docs/notes#old.md"] = "# Notes\n"
	root := newRoot(t, files)
	outside := filepath.Join(t.TempDir(), "ext.md")
	require.NoError(t, os.WriteFile(outside, []byte("# Ext\n"), 0o644))
	require.NoError(t, os.Symlink(outside, filepath.Join(root, "docs/ext.md")))
	cs := clientOf(t, root)
	for tool, wantBroken := range map[string]int{"documents_list": 2, "archives_list": 1} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: map[string]any{}})
		require.NoError(t, err, "%s lists a broken document with its error", tool)
		require.False(t, res.IsError, text(res))
		raw, err := json.Marshal(res.StructuredContent)
		require.NoError(t, err)
		var out struct {
			Documents []struct {
				Counts map[string]int `json:"counts"`
				Error  string         `json:"error"`
				Code   string         `json:"code"`
			} `json:"documents"`
		}
		require.NoError(t, json.Unmarshal(raw, &out))
		broken := 0
		for _, d := range out.Documents {
			assert.NotNil(t, d.Counts, "%s: counts is never null", tool)
			if d.Error != "" {
				broken++
				assert.NotEmpty(t, d.Code)
				assert.Empty(t, d.Counts)
			}
		}
		assert.Equal(t, wantBroken, broken, tool)
		assert.NotContains(t, string(raw), `"counts":null`)
	}
}

// archive_read reads only archives: no name leads out of archived/, nor
// through a link.
func TestArchiveReadConfinement(t *testing.T) {
	root := newRoot(t, queryFiles())
	outside := filepath.Join(t.TempDir(), "secret.md")
	require.NoError(t, os.WriteFile(outside, []byte("SECRET\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(root, "archived/docs"), 0o755))
	require.NoError(t, os.Symlink(outside, filepath.Join(root, "archived/docs/link.md")))
	require.NoError(t, os.Symlink(filepath.Dir(outside), filepath.Join(root, "archived/docs/dir")))
	cs := clientOf(t, root)
	for _, name := range []string{"../secret.md", "/archived/docs/../../docs/api/auth.md", "archived/docs/../../docs/api/auth.md",
		outside, "/archived/docs/link.md", "/archived/docs/dir/secret.md", "archived/coordinator/../../coordinator/active.md",
		"/archived/", "/archived/docs", "archived\\docs\\x.md", ""} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "archive_read", Arguments: map[string]any{"name": name}})
		require.NoError(t, err, name)
		assert.True(t, res.IsError, "%q was read: %s", name, text(res))
		assert.NotContains(t, text(res), "SECRET", name)
	}
}

// task_remove and task_set_status on the coordinator list's address
// without a slug are INVALID_ADDRESS: TASK_NOT_FOUND is what task_remove
// answers for a removal that already happened, so an agent would read
// the mistake as success.
func TestCoordinatorAddressWithoutSlugIsInvalidAddress(t *testing.T) {
	root := newRoot(t, queryFiles())
	call := inProcess(t, root, time.Now)
	for _, task := range []string{"/coordinator/active.md", "/coordinator/active.md#"} {
		for _, tool := range []string{"task_remove", "task_set_status"} {
			args := map[string]any{"task": task}
			if tool == "task_set_status" {
				args["status"] = "blocked"
			}
			out, failed := call(tool, args)
			require.True(t, failed, "%s %s", tool, task)
			msg, _ := out["error"].(string)
			assert.True(t, strings.HasPrefix(msg, "INVALID_ADDRESS: "), "%s %s: %s", tool, task, msg)
		}
	}
	// The same mistake on a document of docs/, as task_remove's
	// description says.
	out, failed := call("task_remove", map[string]any{"task": "/api/auth.md"})
	require.True(t, failed)
	assert.True(t, strings.HasPrefix(out["error"].(string), "SUBAGENT_REQUIRES_SLUG: "), out["error"])
}
