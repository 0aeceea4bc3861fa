package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMcpResourceUpdates: `taskmd mcp` serves the documents as resources;
// a client subscribed to one hears within a few seconds that another
// process (`taskmd complete`) completed a task in it, and hears nothing
// after it unsubscribes.
func TestMcpResourceUpdates(t *testing.T) {
	root := newWorkspace(t)
	updates := make(chan string, 16)
	stderr := &lockedBuffer{}
	cmd := exec.Command(binary, "mcp", "-root", root)
	cmd.Stderr = stderr
	c := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "v0"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			updates <- req.Params.URI
		}})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// The protocol where resources/subscribe is a request answered at once.
	session, err := c.Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	require.NoError(t, err)
	t.Cleanup(func() {
		if err := session.Close(); err != nil || t.Failed() {
			t.Logf("server stderr (close: %v):\n%s", err, stderr.String())
		}
	})
	caps := session.InitializeResult().Capabilities
	require.NotNil(t, caps.Resources, "taskmd mcp serves no resources")
	require.True(t, caps.Resources.Subscribe)

	const uri = "taskmd://docs/api/auth.md"
	listed := map[string]bool{}
	for r, err := range session.Resources(ctx, nil) {
		require.NoError(t, err)
		listed[r.URI] = true
	}
	assert.True(t, listed[uri], "%v", listed)
	read, err := session.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	require.NoError(t, err)
	onDisk, err := os.ReadFile(filepath.Join(root, "docs", "api", "auth.md"))
	require.NoError(t, err)
	assert.Equal(t, string(onDisk), read.Contents[0].Text)

	require.NoError(t, session.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}))
	start := time.Now()
	r := taskmd(t, root, "", "complete", "/api/auth.md#setup-oauth", "--note", "done")
	require.Equal(t, 0, r.exit, r.stderr)
	ran := time.Since(start)
	select {
	case got := <-updates:
		assert.Equal(t, uri, got)
		t.Logf("update %v after the complete process started (which ran %v)", time.Since(start), ran)
	case <-time.After(5 * time.Second):
		t.Fatalf("no notifications/resources/updated within 5s of taskmd complete")
	}
	drain(updates)

	require.NoError(t, session.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: uri}))
	r = taskmd(t, root, "", "complete", "/api/auth.md#sign-tokens", "--note", "done")
	require.Equal(t, 0, r.exit, r.stderr)
	select {
	case got := <-updates:
		t.Fatalf("notifications/resources/updated for %s after unsubscribe", got)
	case <-time.After(time.Second):
	}
}

// drain empties updates once they stop coming: the events of one write
// may be seen by two checks.
func drain(updates <-chan string) {
	for {
		select {
		case <-updates:
		case <-time.After(300 * time.Millisecond):
			return
		}
	}
}
