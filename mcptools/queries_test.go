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
	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/workspace"
)

func queryFiles() map[string]string {
	return map[string]string{
		"docs/api/auth.md": "# Auth\n\n## Tasks\n\n### Setup keys\n\n- Status: completed\n- Completed: 2031-01-01\n- Note: keys in vault\n\n" +
			"### Sign tokens\n\n- Status: in_progress\n- Workflow: tdd\n- Depends-On: #setup-keys\n\nSign with Ed25519.\n\n" +
			"### Rotate keys\n\n- Status: pending\n\nEvery 90 days.\n",
		"docs/billing.md": "# Billing\n\n## Tasks\n\n### Invoices\n\n- Status: blocked\n",
		"coordinator/active.md": "# Coordinator Tasks\n\n## Tasks\n\n### Lead\n\n- Status: in_progress\n- Main-Workflow: tdd\n\n" +
			"### Follow\n\n- Status: pending\n",
		"workflows/tdd.md": "---\ntitle: TDD\ndescription: Test first\nwhenToUse:\n  - new code\n---\n# TDD\n\nRed, green, refactor.\n",
	}
}

// documents_list, tasks_find and workflows_list answer across the
// workspace, and read only.
func TestQueryTools(t *testing.T) {
	root := newRoot(t, queryFiles())
	call := inProcess(t, root, time.Now)
	before := filetest.Snapshot(t, root)

	docs, failed := call("documents_list", nil)
	require.False(t, failed, "%v", docs)
	assert.EqualValues(t, 3, docs["count"])
	first := docs["documents"].([]any)[0].(map[string]any)
	assert.Equal(t, "/api/auth.md", first["address"])
	assert.Equal(t, map[string]any{"completed": 1.0, "in_progress": 1.0, "pending": 1.0}, first["counts"])

	found, failed := call("tasks_find", map[string]any{"status": []string{"in_progress"}})
	require.False(t, failed, "%v", found)
	var addresses []string
	for _, task := range found["tasks"].([]any) {
		addresses = append(addresses, task.(map[string]any)["address"].(string))
	}
	assert.Equal(t, []string{"/api/auth.md#sign-tokens", "/coordinator/active.md#lead"}, addresses)

	found, failed = call("tasks_find", map[string]any{"depends_on": "/api/auth.md#setup-keys", "text": "ED25519"})
	require.False(t, failed, "%v", found)
	require.EqualValues(t, 1, found["count"])
	task := found["tasks"].([]any)[0].(map[string]any)
	assert.Equal(t, "tdd", task["workflow"])
	assert.NotEmpty(t, task["version"])

	out, failed := call("tasks_find", map[string]any{"document": "api/auth"})
	require.True(t, failed)
	assert.True(t, strings.HasPrefix(out["error"].(string), "INVALID_ADDRESS: "), out["error"])

	flows, failed := call("workflows_list", nil)
	require.False(t, failed, "%v", flows)
	require.EqualValues(t, 1, flows["count"])
	flow := flows["workflows"].([]any)[0].(map[string]any)
	assert.Equal(t, "tdd", flow["name"])
	assert.Equal(t, "Test first", flow["description"])
	assert.Equal(t, before, filetest.Snapshot(t, root))
}

// task_set_status blocks, unblocks and reopens a task in place, in a
// document and in the coordinator list; a retry writes nothing.
func TestTaskSetStatus(t *testing.T) {
	root := newRoot(t, queryFiles())
	call := inProcess(t, root, time.Now)

	out, failed := call("task_set_status", map[string]any{"task": "/api/auth.md#rotate-keys", "status": "blocked", "reason": "waiting on vault"})
	require.False(t, failed, "%v", out)
	assert.Equal(t, "blocked", out["task"].(map[string]any)["status"])
	doc := filetest.Snapshot(t, root)["docs/api/auth.md"]
	assert.Contains(t, doc, "### Rotate keys\n\n- Status: blocked\n- Blocked: waiting on vault\n\nEvery 90 days.\n")

	again, failed := call("task_set_status", map[string]any{"task": "/api/auth.md#rotate-keys", "status": "blocked", "reason": "waiting on vault"})
	require.False(t, failed, "%v", again)
	assert.Equal(t, doc, filetest.Snapshot(t, root)["docs/api/auth.md"], "a retry writes nothing")

	_, failed = call("task_set_status", map[string]any{"task": "/api/auth.md#rotate-keys", "status": "pending"})
	require.False(t, failed)
	assert.Contains(t, filetest.Snapshot(t, root)["docs/api/auth.md"], "### Rotate keys\n\n- Status: pending\n\nEvery 90 days.\n")

	_, failed = call("task_set_status", map[string]any{"task": "/api/auth.md#setup-keys", "status": "pending"})
	require.False(t, failed)
	reopened := filetest.Snapshot(t, root)["docs/api/auth.md"]
	assert.Contains(t, reopened, "### Setup keys\n\n- Status: pending\n")
	assert.NotContains(t, reopened, "keys in vault", "a reopen clears the Note")

	_, failed = call("task_set_status", map[string]any{"task": "/coordinator/active.md#follow", "status": "blocked"})
	require.False(t, failed)
	assert.Contains(t, filetest.Snapshot(t, root)["coordinator/active.md"], "### Follow\n\n- Status: blocked\n")

	before := filetest.Snapshot(t, root)
	out, failed = call("task_set_status", map[string]any{"task": "/api/auth.md#sign-tokens", "status": "completed"})
	require.True(t, failed, "%v", out)
	assert.True(t, strings.HasPrefix(out["error"].(string), "INVALID_ARGUMENTS: "), "completed is not in the enum: %v", out["error"])
	out, failed = call("task_set_status", map[string]any{"task": "/api/auth.md#nope", "status": "blocked"})
	require.True(t, failed, "%v", out)
	assert.True(t, strings.HasPrefix(out["error"].(string), "TASK_NOT_FOUND: "), out["error"])
	assert.Equal(t, before, filetest.Snapshot(t, root))
}

// task_remove takes a task out, refuses one that others depend on or
// that is in progress, and a retry is TASK_NOT_FOUND.
func TestTaskRemove(t *testing.T) {
	root := newRoot(t, queryFiles())
	call := inProcess(t, root, time.Now)
	before := filetest.Snapshot(t, root)
	for task, code := range map[string]string{
		"/api/auth.md#setup-keys":  "INVALID_TASK",       // sign-tokens depends on it
		"/api/auth.md#sign-tokens": "INVALID_TRANSITION", // in progress
		"/api/auth.md#nope":        "TASK_NOT_FOUND",
	} {
		out, failed := call("task_remove", map[string]any{"task": task})
		require.True(t, failed, "%s: %v", task, out)
		assert.True(t, strings.HasPrefix(out["error"].(string), code+": "), "%s: %v", task, out["error"])
	}
	assert.Equal(t, before, filetest.Snapshot(t, root))

	out, failed := call("task_remove", map[string]any{"task": "/api/auth.md#rotate-keys"})
	require.False(t, failed, "%v", out)
	assert.Equal(t, "Rotate keys", out["task"].(map[string]any)["title"])
	assert.NotContains(t, filetest.Snapshot(t, root)["docs/api/auth.md"], "Rotate keys")
	out, failed = call("task_remove", map[string]any{"task": "/api/auth.md#rotate-keys"})
	require.True(t, failed, "%v", out)
	assert.True(t, strings.HasPrefix(out["error"].(string), "TASK_NOT_FOUND: "), out["error"])

	_, failed = call("task_remove", map[string]any{"task": "/coordinator/active.md#follow"})
	require.False(t, failed)
	assert.NotContains(t, filetest.Snapshot(t, root)["coordinator/active.md"], "Follow")
}

// document_archive moves a document to /archived/docs/, archives_list
// lists it and archive_read reads it back, bytes unchanged.
func TestDocumentArchive(t *testing.T) {
	root := newRoot(t, queryFiles())
	call := inProcess(t, root, time.Now)
	billing := filetest.Snapshot(t, root)["docs/billing.md"]

	out, failed := call("document_archive", map[string]any{"document": "/billing.md"})
	require.False(t, failed, "%v", out)
	assert.Equal(t, "/archived/docs/billing.md", out["archived_to"])
	files := filetest.Snapshot(t, root)
	assert.NotContains(t, files, "docs/billing.md")
	assert.Equal(t, billing, files["archived/docs/billing.md"])

	out, failed = call("document_archive", map[string]any{"document": "/billing.md"})
	require.True(t, failed, "%v", out)
	assert.True(t, strings.HasPrefix(out["error"].(string), "DOCUMENT_NOT_FOUND: "), out["error"])
	out, failed = call("document_archive", map[string]any{"document": "/api/auth.md#setup-keys"})
	require.True(t, failed, "%v", out)
	assert.True(t, strings.HasPrefix(out["error"].(string), "INVALID_ADDRESS: "), out["error"])

	list, failed := call("archives_list", nil)
	require.False(t, failed, "%v", list)
	docs := list["documents"].([]any)
	require.Len(t, docs, 1)
	assert.Equal(t, "/archived/docs/billing.md", docs[0].(map[string]any)["address"])
	assert.Equal(t, []any{}, list["coordinator_lists"])

	read, failed := call("archive_read", map[string]any{"name": "/archived/docs/billing.md"})
	require.False(t, failed, "%v", read)
	assert.Equal(t, billing, read["content"])
	out, failed = call("archive_read", map[string]any{"name": "/docs/api/auth.md"})
	require.True(t, failed, "%v", out)
	assert.True(t, strings.HasPrefix(out["error"].(string), "INVALID_ADDRESS: "), out["error"])
}

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
