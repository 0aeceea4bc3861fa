package mcptools

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/workspace"
)

const (
	resAuth = "# Auth\n\n## Tasks\n\n### Sign tokens\n- Status: pending\n\nUse ed25519.\n"
	resList = "# Coordinator\n\n## Tasks\n\n### Ship it\n- Status: pending\n"
)

// legacyProtocol is the protocol before subscriptions/listen, where
// resources/subscribe is a request answered at once (most clients speak
// it).
const legacyProtocol = "2025-11-25"

// resourceClient opens a client session on server, speaking protocol (""
// for the SDK's latest), whose resource update notifications go to
// updates.
func resourceClient(t *testing.T, server *mcp.Server, protocol string, updates chan<- string) (*mcp.ClientSession, *mcp.ServerSession) {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(context.Background(), st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	opts := &mcp.ClientOptions{ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
		if updates != nil {
			updates <- req.Params.URI
		}
	}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "reader", Version: "v0"}, opts).Connect(context.Background(), ct,
		&mcp.ClientSessionOptions{ProtocolVersion: protocol})
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs, ss
}

func openResourceWorkspace(t *testing.T, root string) *workspace.Workspace {
	t.Helper()
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	return ws
}

// resources/list names every document under docs/ and the coordinator's
// list, by address, with their titles; resources/read returns each one's
// bytes as they are on disk, CRLF and all.
func TestResourcesListAndRead(t *testing.T) {
	root := newRoot(t, map[string]string{
		"docs/api/auth.md":      resAuth,
		"docs/notes/my plan.md": "# My plan\r\n\r\n## Tasks\r\n",
		"coordinator/active.md": resList,
		"archived/docs/old.md":  "# Old\n",
		"docs/readme.txt":       "not a document",
		"docs/coordinator/x.md": "# Stray\n", // no address names it
		"workflows/build.md":    "# Build\n",
	})
	server, err := NewServer(openResourceWorkspace(t, root), WithResources())
	require.NoError(t, err)
	cs, _ := resourceClient(t, server, legacyProtocol, nil)
	ctx := context.Background()

	res, err := cs.ListResources(ctx, nil)
	require.NoError(t, err)
	var uris, titles []string
	for _, r := range res.Resources {
		uris = append(uris, r.URI)
		titles = append(titles, r.Title)
		assert.Equal(t, "text/markdown", r.MIMEType, r.URI)
	}
	require.NotEmpty(t, uris)
	assert.Equal(t, GuideURI, uris[0], "the server's own resources (the guide) come first")
	assert.Equal(t, []string{
		"taskmd://docs/api/auth.md",
		"taskmd://docs/coordinator/active.md",
		"taskmd://docs/notes/my%20plan.md",
	}, uris[1:])
	assert.Equal(t, []string{"Auth", "Coordinator", "My plan"}, titles[1:])
	assert.Empty(t, res.NextCursor)

	tmpl, err := cs.ListResourceTemplates(ctx, nil)
	require.NoError(t, err)
	require.Len(t, tmpl.ResourceTemplates, 1)
	assert.Equal(t, "taskmd://docs/{+path}", tmpl.ResourceTemplates[0].URITemplate)

	for uri, want := range map[string]string{
		"taskmd://docs/api/auth.md":           resAuth,
		"taskmd://docs/coordinator/active.md": resList,
		"taskmd://docs/notes/my%20plan.md":    "# My plan\r\n\r\n## Tasks\r\n",
		// A task: its text, heading to last line.
		"taskmd://docs/api/auth.md/sign-tokens":       "### Sign tokens\n- Status: pending\n\nUse ed25519.\n",
		"taskmd://docs/coordinator/active.md/ship-it": "### Ship it\n- Status: pending\n",
	} {
		got, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		require.NoError(t, err, uri)
		require.Len(t, got.Contents, 1)
		assert.Equal(t, want, got.Contents[0].Text, uri)
		assert.Equal(t, uri, got.Contents[0].URI)
		assert.Equal(t, "text/markdown", got.Contents[0].MIMEType)
	}
}

// A document that does not exist is the protocol's "resource not found"
// (invalid params) with DOCUMENT_NOT_FOUND; a URI that names no document
// (a task, a "..", not .md, an archived document) is INVALID_ADDRESS.
// Nothing is written.
func TestResourcesReadRefusals(t *testing.T) {
	root := newRoot(t, map[string]string{"docs/api/auth.md": resAuth, "archived/docs/old.md": "# Old\n"})
	server, err := NewServer(openResourceWorkspace(t, root), WithResources())
	require.NoError(t, err)
	cs, _ := resourceClient(t, server, legacyProtocol, nil)
	before := filetest.Snapshot(t, root)

	for _, tc := range []struct {
		uri  string
		rpc  int64
		code string
	}{
		{"taskmd://docs/api/missing.md", jsonrpc.CodeInvalidParams, "DOCUMENT_NOT_FOUND"},
		{"taskmd://docs/api/auth.txt", jsonrpc.CodeInvalidParams, "INVALID_ADDRESS"},
		{"taskmd://docs/api/../auth.md", jsonrpc.CodeInvalidParams, "INVALID_ADDRESS"},
		{"taskmd://docs/api/auth.md#sign-tokens", jsonrpc.CodeInvalidParams, "INVALID_ADDRESS"},
		{"taskmd://docs/api/auth.md/", jsonrpc.CodeInvalidParams, "INVALID_ADDRESS"},
		{"taskmd://docs/api/auth.md/no-such-task", jsonrpc.CodeInvalidParams, "TASK_NOT_FOUND"},
		{"taskmd://docs/api/missing.md/sign-tokens", jsonrpc.CodeInvalidParams, "DOCUMENT_NOT_FOUND"},
		{"taskmd://docs/archived/docs/old.md/x", jsonrpc.CodeInvalidParams, "INVALID_ADDRESS"},
		{"taskmd://docs/archived/docs/old.md", jsonrpc.CodeInvalidParams, "INVALID_ADDRESS"},
	} {
		_, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: tc.uri})
		var rpc *jsonrpc.Error
		require.True(t, errors.As(err, &rpc), "%s: %v", tc.uri, err)
		assert.Equal(t, tc.rpc, rpc.Code, tc.uri)
		assert.Regexp(t, "^"+tc.code+": ", rpc.Message, tc.uri)
		assert.JSONEq(t, fmt.Sprintf(`{"code":%q,"uri":%q}`, tc.code, tc.uri), string(rpc.Data), tc.uri)
	}
	assert.Equal(t, before, filetest.Snapshot(t, root), "a refused read writes nothing")
}

// resources/list is paged: ResourcesPage documents an answer, then a
// cursor for the rest, after the server's own resources.
func TestResourcesListPages(t *testing.T) {
	files := map[string]string{}
	for i := range ResourcesPage + 3 {
		files[fmt.Sprintf("docs/d%04d.md", i)] = "# D\n"
	}
	ws := openResourceWorkspace(t, newRoot(t, files))
	server := mcp.NewServer(&mcp.Implementation{Name: "host", Version: "v1"}, nil)
	server.AddResource(&mcp.Resource{URI: "host://readme", Name: "readme"},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "host://readme", Text: "hi"}}}, nil
		})
	require.NoError(t, Register(server, ws, WithToolsets(ToolsetQueries), WithResources()))
	cs, _ := resourceClient(t, server, legacyProtocol, nil)
	ctx := context.Background()

	first, err := cs.ListResources(ctx, nil)
	require.NoError(t, err)
	require.Len(t, first.Resources, 1+ResourcesPage)
	assert.Equal(t, "host://readme", first.Resources[0].URI)
	assert.Equal(t, "taskmd://docs/d0000.md", first.Resources[1].URI)
	require.NotEmpty(t, first.NextCursor)
	second, err := cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: first.NextCursor})
	require.NoError(t, err)
	var uris []string
	for _, r := range second.Resources {
		uris = append(uris, r.URI)
	}
	assert.Equal(t, []string{"taskmd://docs/d0500.md", "taskmd://docs/d0501.md", "taskmd://docs/d0502.md"}, uris)
	assert.Empty(t, second.NextCursor)

	// A server of the caller's own reads documents but takes no subscriptions.
	got, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "taskmd://docs/d0001.md"})
	require.NoError(t, err)
	assert.Equal(t, "# D\n", got.Contents[0].Text)
	assert.Error(t, cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "taskmd://docs/d0001.md"}))
}

// A subscribed session hears of every change of its document's content,
// whoever writes it, and of nothing after it unsubscribes; a change of
// another document or a rewrite with the same bytes is not reported. When
// the last session ends, the watch ends with it: no goroutine is left.
func TestResourcesSubscribe(t *testing.T) {
	root := newRoot(t, map[string]string{"docs/api/auth.md": resAuth, "docs/other.md": "# Other\n"})
	ws := openResourceWorkspace(t, root)
	before := runtime.NumGoroutine()
	server, err := NewServer(ws, WithResources(), WithToolsets(ToolsetQueries, ToolsetEdits))
	require.NoError(t, err)
	updates := make(chan string, 16)
	cs, ss := resourceClient(t, server, legacyProtocol, updates)
	ctx := context.Background()
	const uri = "taskmd://docs/api/auth.md"

	err = cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "taskmd://docs/api/../x.md"})
	var rpc *jsonrpc.Error
	require.True(t, errors.As(err, &rpc), "%v", err)
	assert.Regexp(t, "^INVALID_ADDRESS: ", rpc.Message)

	require.NoError(t, cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}))
	file := filepath.Join(root, "docs", "api", "auth.md")
	require.NoError(t, os.WriteFile(filepath.Join(root, "docs", "other.md"), []byte("# Other 2\n"), 0o644))
	// The same bytes, replaced atomically (os.WriteFile would show an empty file meanwhile).
	tmp := filepath.Join(root, "docs", "api", "auth.tmp")
	require.NoError(t, os.WriteFile(tmp, []byte(resAuth), 0o644))
	require.NoError(t, os.Rename(tmp, file))
	expectNoUpdate(t, updates)

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "task_set_status",
		Arguments: map[string]any{"task": "/api/auth.md#sign-tokens", "status": "blocked"}})
	require.NoError(t, err)
	require.False(t, res.IsError, text(res))
	expectUpdate(t, updates, uri)
	require.NoError(t, os.Remove(file))
	expectUpdate(t, updates, uri)
	require.NoError(t, os.WriteFile(file, []byte(resAuth), 0o644))
	expectUpdate(t, updates, uri)

	require.NoError(t, cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: uri}))
	time.Sleep(100 * time.Millisecond) // a listen stream's unsubscribe ends after the call
	require.NoError(t, os.WriteFile(file, []byte(resAuth+"More.\n"), 0o644))
	expectNoUpdate(t, updates)

	require.NoError(t, cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}))
	require.NoError(t, cs.Close())
	require.NoError(t, ss.Wait())
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	assert.LessOrEqual(t, runtime.NumGoroutine(), before, "goroutines left after the last session ended")
}

func expectUpdate(t *testing.T, updates <-chan string, uri string) {
	t.Helper()
	select {
	case got := <-updates:
		assert.Equal(t, uri, got)
	case <-time.After(5 * time.Second):
		t.Fatalf("no notifications/resources/updated for %s", uri)
	}
	for {
		select { // the events of one write may come as two checks
		case got := <-updates:
			assert.Equal(t, uri, got)
		case <-time.After(200 * time.Millisecond):
			return
		}
	}
}

func expectNoUpdate(t *testing.T, updates <-chan string) {
	t.Helper()
	select {
	case got := <-updates:
		t.Fatalf("unexpected notifications/resources/updated for %s", got)
	case <-time.After(500 * time.Millisecond):
	}
}

// A subscription to a task is told when its text changes, and only then:
// not when another task of its document does.
func TestResourcesSubscribeToATask(t *testing.T) {
	const doc = "# Auth\n\n## Tasks\n\n### Sign tokens\n- Status: pending\n\n### Verify\n- Status: pending\n"
	root := newRoot(t, map[string]string{"docs/api/auth.md": doc})
	server, err := NewServer(openResourceWorkspace(t, root), WithResources(), WithToolsets(ToolsetQueries, ToolsetEdits))
	require.NoError(t, err)
	updates := make(chan string, 16)
	cs, _ := resourceClient(t, server, legacyProtocol, updates)
	ctx := context.Background()
	const uri = "taskmd://docs/api/auth.md/sign-tokens"
	require.NoError(t, cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}))

	setStatus := func(task, status string) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "task_set_status",
			Arguments: map[string]any{"task": task, "status": status, "reason": "waits"}})
		require.NoError(t, err)
		require.False(t, res.IsError, text(res))
	}
	setStatus("/api/auth.md#verify", "blocked")
	expectNoUpdate(t, updates)
	setStatus("/api/auth.md#sign-tokens", "blocked")
	expectUpdate(t, updates, uri)
	got, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	require.NoError(t, err)
	assert.Contains(t, got.Contents[0].Text, "- Status: blocked")
	assert.NotContains(t, got.Contents[0].Text, "Verify")
	// The task removed: a change; the document gone and back without it: none.
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "task_remove", Arguments: map[string]any{"task": "/api/auth.md#sign-tokens"}})
	require.NoError(t, err)
	require.False(t, res.IsError, text(res))
	expectUpdate(t, updates, uri)
	setStatus("/api/auth.md#verify", "pending")
	expectNoUpdate(t, updates)
}

// Under the protocol of subscriptions/listen, a subscription is a stream
// the client opens and cancels: updates arrive while it is open, and the
// watch ends with the session.
func TestResourcesSubscribeListen(t *testing.T) {
	root := newRoot(t, map[string]string{"docs/api/auth.md": resAuth})
	ws := openResourceWorkspace(t, root)
	before := runtime.NumGoroutine()
	server, err := NewServer(ws, WithResources(), WithToolsets(ToolsetQueries, ToolsetEdits))
	require.NoError(t, err)
	updates := make(chan string, 64)
	cs, ss := resourceClient(t, server, "", updates)
	const uri = "taskmd://docs/api/auth.md"
	require.NoError(t, cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: uri}))
	// The stream is opened in the background: write until its first update.
	file := filepath.Join(root, "docs", "api", "auth.md")
	got := ""
	for i := 0; got == "" && i < 50; i++ {
		require.NoError(t, os.WriteFile(file, fmt.Appendf(nil, "%sEdit %d.\n", resAuth, i), 0o644))
		select {
		case got = <-updates:
		case <-time.After(100 * time.Millisecond):
		}
	}
	assert.Equal(t, uri, got)
	require.NoError(t, cs.Close())
	require.NoError(t, ss.Wait())
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	assert.LessOrEqual(t, runtime.NumGoroutine(), before, "goroutines left after the last session ended")
}
