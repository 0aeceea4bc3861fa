package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
)

// The tests drive the real server: `taskmd mcp` (the binary TestMain
// builds), started as a subprocess per test and talked to through the SDK's
// client over stdin/stdout, as an MCP client would.

// client is one server process and the SDK client session talking to it.
type client struct {
	t       testing.TB
	session *mcp.ClientSession
	stderr  *lockedBuffer
}

// startServer starts a server on root. The process ends with the test; its
// stderr is shown if the test fails.
func startServer(t testing.TB, root string) *client {
	t.Helper()
	stderr := &lockedBuffer{}
	cmd := exec.Command(binary, "mcp", "-root", root, "--toolsets", "all")
	cmd.Stderr = stderr
	c := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "v0"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	session, err := c.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	require.NoError(t, err)
	t.Cleanup(func() {
		closeErr := session.Close()
		switch {
		case closeErr != nil || strings.Contains(stderr.String(), "DATA RACE"):
			t.Errorf("server on %s (close: %v), stderr:\n%s", root, closeErr, stderr.String())
		case t.Failed():
			t.Logf("server on %s, stderr:\n%s", root, stderr.String())
		}
	})
	return &client{t: t, session: session, stderr: stderr}
}

// call calls a tool and fails the test on a protocol error (a tool error is
// a result, not a protocol error).
func (c *client) call(tool string, args any) *mcp.CallToolResult {
	c.t.Helper()
	res, err := c.tryCall(tool, args)
	require.NoError(c.t, err, "calling %s", tool)
	return res
}

// tryCall calls a tool and returns a protocol error instead of failing the
// test, for goroutines other than the test's.
func (c *client) tryCall(tool string, args any) (*mcp.CallToolResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return c.session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
}

// ok calls a tool that must succeed and decodes its structured content into
// out, refusing fields out does not know: the tests' result types are
// written from the tool documentation, so a renamed field fails here. The
// JSON text must carry the same value.
func (c *client) ok(tool string, args, out any) {
	c.t.Helper()
	res := c.call(tool, args)
	require.False(c.t, res.IsError, "%s failed: %s", tool, text(res))
	structured, err := json.Marshal(res.StructuredContent)
	require.NoError(c.t, err)
	require.JSONEq(c.t, string(structured), text(res), "%s: the text is not the structured content", tool)
	dec := json.NewDecoder(bytes.NewReader(structured))
	dec.DisallowUnknownFields()
	require.NoError(c.t, dec.Decode(out), "%s result: %s", tool, structured)
}

// fail calls a tool that must fail and returns the error text.
func (c *client) fail(tool string, args any) string {
	c.t.Helper()
	res := c.call(tool, args)
	require.True(c.t, res.IsError, "%s succeeded: %s", tool, text(res))
	return text(res)
}

// text is the first text content of a result.
func text(res *mcp.CallToolResult) string {
	for _, content := range res.Content {
		if t, ok := content.(*mcp.TextContent); ok {
			return t.Text
		}
	}
	return ""
}

type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// newRoot writes a workspace with files (root-relative name -> text).
func newRoot(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, data := range files {
		filetest.Write(t, root, name, data)
	}
	return root
}

// today is the date the server writes into Completed fields (UTC).
func today() string { return time.Now().UTC().Format(time.DateOnly) }
