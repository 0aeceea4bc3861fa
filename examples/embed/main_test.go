package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/taskmd/taskmd/workspace"
)

const api = `# API

## Tasks

### Sign tokens

- Status: in_progress

### Validate tokens

- Status: pending

### Rotate keys

- Status: blocked
`

// client serves a workspace holding docs/api.md on the project's server
// and connects an SDK client to it over in-memory transports.
func client(t *testing.T) (*mcp.ClientSession, string) {
	t.Helper()
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "docs", "api.md"), []byte(api), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := workspace.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	ctx := context.Background()
	server, err := newServer(ctx, ws)
	if err != nil {
		t.Fatal(err)
	}
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, root
}

// call calls a tool that must succeed and decodes its structured content
// into out.
func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any, out any) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if res.IsError {
		t.Fatalf("%s failed: %v", tool, res.Content[0].(*mcp.TextContent).Text)
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		t.Fatalf("%s: %v in %s", tool, err, raw)
	}
}

// The project's own tool and taskmd's are served side by side, and a
// change made through taskmd's tool shows in the project's.
func TestOwnToolNextToTaskmds(t *testing.T) {
	cs, root := client(t)

	var names []string
	for tool, err := range cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tool.Name)
	}
	for _, want := range []string{"project_status", "subagent_task", "complete_subagent_task", "task_claim", "pivot_worker"} {
		if !strings.Contains(" "+strings.Join(names, " ")+" ", " "+want+" ") {
			t.Errorf("tool %s missing from %v", want, names)
		}
	}

	var before projectStatus
	call(t, cs, "project_status", nil, &before)
	if want := (projectStatus{Documents: 1, Tasks: 3, Open: 3, InProgress: 1, Blocked: 1}); before != want {
		t.Errorf("project_status = %+v, want %+v", before, want)
	}

	var done struct {
		CompletedTask struct {
			Slug string `json:"slug"`
			Note string `json:"note"`
		} `json:"completed_task"`
	}
	call(t, cs, "complete_subagent_task", map[string]any{"document": "/api.md#sign-tokens", "note": "signed with Ed25519"}, &done)
	if done.CompletedTask.Slug != "sign-tokens" || done.CompletedTask.Note != "signed with Ed25519" {
		t.Errorf("complete_subagent_task = %+v", done)
	}
	data, err := os.ReadFile(filepath.Join(root, "docs", "api.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "- Note: signed with Ed25519") {
		t.Errorf("docs/api.md does not hold the note:\n%s", data)
	}

	var after projectStatus
	call(t, cs, "project_status", nil, &after)
	if want := (projectStatus{Documents: 1, Tasks: 3, Open: 2, InProgress: 0, Blocked: 1}); after != want {
		t.Errorf("project_status after the completion = %+v, want %+v", after, want)
	}
}

// A failed call of taskmd's tool is a tool error with its code; the
// project's tool is not touched by it.
func TestTaskmdErrorsKeepTheirCodes(t *testing.T) {
	cs, _ := client(t)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "start_subagent_task",
		Arguments: map[string]any{"document": "/api.md"}})
	if err != nil {
		t.Fatal(err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if !res.IsError || !strings.HasPrefix(text, "SUBAGENT_REQUIRES_SLUG: ") {
		t.Errorf("start without a slug: isError %v, %q", res.IsError, text)
	}
}
