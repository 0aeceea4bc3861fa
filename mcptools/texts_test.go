package mcptools

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

// The budgets of the texts an agent reads before its first call.
const (
	maxToolDescription  = 400    // characters of one tool's description
	maxFieldDescription = 120    // characters of one input field's description
	maxInstructions     = 800    // characters of the server instructions
	maxToolsList        = 96_000 // bytes of tools/list's result, as compact JSON, every toolset
	maxRepeated         = 80     // a paragraph or sentence this long appears in one tool only
)

// newClient serves every toolset on a new server and connects a client.
func newClient(t *testing.T, opts ...Option) *mcp.ClientSession {
	t.Helper()
	server, err := NewServer(openWorkspace(t), opts...)
	require.NoError(t, err)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(context.Background(), st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "reader", Version: "v0"}, nil).Connect(context.Background(), ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

// fieldDescriptions collects the description of every property of s, at
// any depth, by path.
func fieldDescriptions(path string, s map[string]any, out map[string]string) {
	if d, ok := s["description"].(string); ok && path != "" {
		out[path] = d
	}
	if props, ok := s["properties"].(map[string]any); ok {
		for name, p := range props {
			if p, ok := p.(map[string]any); ok {
				fieldDescriptions(path+"."+name, p, out)
			}
		}
	}
	if items, ok := s["items"].(map[string]any); ok {
		fieldDescriptions(path+"[]", items, out)
	}
}

// Each tool's description and each input field's description fits its
// budget, and no paragraph or sentence of maxRepeated characters or more
// is repeated in two tools: the long guidance lives in the guides.
func TestToolTextsFitTheirBudgets(t *testing.T) {
	cs := newClient(t)
	list, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	require.Len(t, list.Tools, 44)
	seen := map[string]string{} // paragraph or sentence -> the tool that has it
	for _, tool := range list.Tools {
		assert.LessOrEqual(t, len(tool.Description), maxToolDescription, "%s: %s", tool.Name, tool.Description)
		raw, err := json.Marshal(tool.InputSchema)
		require.NoError(t, err)
		var input map[string]any
		require.NoError(t, json.Unmarshal(raw, &input))
		fields := map[string]string{}
		fieldDescriptions("", input, fields)
		for path, d := range fields {
			assert.LessOrEqual(t, len(d), maxFieldDescription, "%s%s: %s", tool.Name, path, d)
		}
		var parts []string
		for _, p := range strings.Split(tool.Description, "\n") {
			parts = append(parts, p)
			parts = append(parts, strings.Split(p, ". ")...)
		}
		for _, p := range parts {
			p = strings.TrimSpace(p)
			if len(p) < maxRepeated {
				continue
			}
			if other, ok := seen[p]; ok && other != tool.Name {
				t.Errorf("%s and %s both say %q", other, tool.Name, p)
			}
			seen[p] = tool.Name
		}
	}
}

// What an agent reads before its first call: the instructions and
// tools/list, measured as the Go SDK's client receives them.
func TestToolsListSize(t *testing.T) {
	cs := newClient(t)
	list, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	raw, err := json.Marshal(list)
	require.NoError(t, err)
	instructions := cs.InitializeResult().Instructions
	var descriptions, outputs int
	for _, tool := range list.Tools {
		descriptions += len(tool.Description)
		out, err := json.Marshal(tool.OutputSchema)
		require.NoError(t, err)
		outputs += len(out)
	}
	t.Logf("tools/list %d bytes (descriptions %d, output schemas %d), instructions %d", len(raw), descriptions, outputs, len(instructions))
	assert.LessOrEqual(t, len(raw), maxToolsList)
	assert.LessOrEqual(t, len(instructions), maxInstructions)
	assert.Equal(t, Instructions, instructions)
}

// A server of some toolsets names only those in its instructions, and
// only their guides' prompts.
func TestInstructionsNameOnlyServedToolsets(t *testing.T) {
	instructions := newClient(t, WithToolsets(ToolsetSubagent, ToolsetQueries)).InitializeResult().Instructions
	assert.Contains(t, instructions, "subagent_*")
	assert.Contains(t, instructions, "task-lists")
	assert.Contains(t, instructions, GuideURI)
	for _, other := range []string{"coordinator_*", "workflow_*", "pivot_*", "clarification_*", "work-a-plan", "pivot-protocol", "resume-after-pause"} {
		assert.NotContains(t, instructions, other)
	}
	assert.Less(t, len(instructions), len(Instructions)/2)

	instructions = newClient(t, WithToolsets(ToolsetQueries)).InitializeResult().Instructions
	assert.NotContains(t, instructions, "prompt")
	assert.NotContains(t, instructions, "subagent_*")
	assert.Contains(t, instructions, "TASK_BLOCKED")
}

// The instructions point to the guides, and the server has each: a
// prompt per protocol and the resource taskmd://guide with all of them.
func TestGuidesAreServed(t *testing.T) {
	ctx := context.Background()
	cs := newClient(t)
	want := []string{"task-lists", "work-a-plan", "pivot-protocol", "resume-after-pause"}
	var names []string
	for prompt, err := range cs.Prompts(ctx, nil) {
		require.NoError(t, err)
		names = append(names, prompt.Name)
		assert.NotEmpty(t, prompt.Description, prompt.Name)
	}
	assert.ElementsMatch(t, want, names)
	for _, name := range want {
		assert.Contains(t, Instructions, name)
	}
	assert.Contains(t, Instructions, GuideURI)

	read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: GuideURI})
	require.NoError(t, err)
	require.Len(t, read.Contents, 1)
	guide := read.Contents[0].Text
	assert.Equal(t, "text/markdown", read.Contents[0].MIMEType)
	for _, phrase := range map[string]string{
		"task-lists":         "Main-Workflow belongs only to the coordinator list.",
		"work-a-plan":        "Agents claim tasks with leases: a claim lasts as long as its agent's heartbeats.",
		"pivot-protocol":     "NO_ACK means the worker did not answer in time: pivot it again with mode hard.",
		"resume-after-pause": "Clarifications (ask a person and exit until the answer comes).",
	} {
		assert.Contains(t, guide, phrase)
	}
	for _, name := range want {
		got, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: name})
		require.NoError(t, err, name)
		require.Len(t, got.Messages, 1, name)
		body := got.Messages[0].Content.(*mcp.TextContent).Text
		// The prompt's text is its section of the guide.
		_, section, ok := strings.Cut(body, "\n\n")
		require.True(t, ok, name)
		assert.Contains(t, guide, section, name)
	}

	// A server with some toolsets has the guides of those only.
	cs = newClient(t, WithToolsets(ToolsetPivots))
	names = nil
	for prompt, err := range cs.Prompts(ctx, nil) {
		require.NoError(t, err)
		names = append(names, prompt.Name)
	}
	assert.Equal(t, []string{"pivot-protocol"}, names)
	read, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: GuideURI})
	require.NoError(t, err)
	assert.Contains(t, read.Contents[0].Text, "## Pivots: stopping a worker mid-task")
	assert.NotContains(t, read.Contents[0].Text, "## Working a plan")
}

// A server that has a prompt or resource named as a guide is refused, as
// for a tool, and keeps its own.
func TestRegisterRefusesGuideClashes(t *testing.T) {
	mine := &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "mine"}}}}
	for name, add := range map[string]func(*mcp.Server){
		"prompt work-a-plan": func(s *mcp.Server) {
			s.AddPrompt(&mcp.Prompt{Name: "work-a-plan"}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) { return mine, nil })
		},
		"resource " + GuideURI: func(s *mcp.Server) {
			s.AddResource(&mcp.Resource{URI: GuideURI, Name: "mine"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: GuideURI, Text: "mine"}}}, nil
			})
		},
	} {
		server := mcp.NewServer(&mcp.Implementation{Name: "host", Version: "v1"}, nil)
		add(server)
		err := Register(server, openWorkspace(t))
		var te *taskdoc.Error
		require.True(t, errors.As(err, &te), name)
		assert.Equal(t, taskdoc.CodeInvalidArguments, te.Code, name)
		assert.Contains(t, te.Msg, name)
		assert.Empty(t, listTools(t, server), name)
	}
}

// prose lists the paths of the descriptions in schema s, at any depth.
func prose(path string, s map[string]any) []string {
	var out []string
	if _, ok := s["description"].(string); ok {
		out = append(out, path)
	}
	for _, key := range []string{"properties", "$defs"} {
		if m, ok := s[key].(map[string]any); ok {
			for name, sub := range m {
				if sub, ok := sub.(map[string]any); ok {
					out = append(out, prose(path+"/"+key+"/"+name, sub)...)
				}
			}
		}
	}
	for _, key := range []string{"items", "additionalProperties"} {
		if sub, ok := s[key].(map[string]any); ok {
			out = append(out, prose(path+"/"+key, sub)...)
		}
	}
	return out
}

// The output schemas carry no prose, declare the result's own fields and
// no deeper, and a client that validates results against the schemas it
// listed accepts the results of real calls.
func TestOutputSchemasValidateResults(t *testing.T) {
	ctx := context.Background()
	cs := newClient(t)
	schemas := map[string]*jsonschema.Resolved{}
	list, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	for _, tool := range list.Tools {
		raw, err := json.Marshal(tool.OutputSchema)
		require.NoError(t, err)
		var node map[string]any
		require.NoError(t, json.Unmarshal(raw, &node))
		assert.Empty(t, prose("", node), tool.Name)
		assert.NotContains(t, string(raw), `"additionalProperties":false`, tool.Name)
		var s jsonschema.Schema
		require.NoError(t, json.Unmarshal(raw, &s))
		assert.Empty(t, s.Defs, tool.Name)
		for name, p := range s.Properties {
			assert.Nil(t, p.Properties, "%s.%s", tool.Name, name)
			if p.Items != nil {
				assert.Nil(t, p.Items.Properties, "%s.%s[]", tool.Name, name)
			}
		}
		resolved, err := s.Resolve(nil)
		require.NoError(t, err, tool.Name)
		schemas[tool.Name] = resolved
	}
	call := func(tool string, args map[string]any) map[string]any {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		require.NoError(t, err)
		require.False(t, res.IsError, "%s: %s", tool, text(res))
		raw, err := json.Marshal(res.StructuredContent)
		require.NoError(t, err)
		var out map[string]any
		require.NoError(t, json.Unmarshal(raw, &out))
		require.NoError(t, schemas[tool].Validate(out), tool)
		return out
	}
	agent := call("agent_register", map[string]any{"name": "worker-1", "runtime": "test"})["id"].(string)
	call("workflow_create", map[string]any{"name": "Auth", "path": "/auth.md"})
	call("workflow_set_plan", map[string]any{"workflow_id": "/auth.md", "tasks": []map[string]any{{"name": "Sign tokens"}, {"name": "Verify", "depends_on": []string{"Sign tokens"}}}})
	call("workflow_next_tasks", map[string]any{"workflow_id": "/auth.md"})
	call("task_claim", map[string]any{"task_id": "/auth.md#sign-tokens", "agent_id": agent})
	call("task_load_context", map[string]any{"task_id": "/auth.md#sign-tokens"})
	call("task_update_status", map[string]any{"id": "/auth.md#sign-tokens", "status": "in_progress"})
	call("checkpoint_add", map[string]any{"task_id": "/auth.md#sign-tokens", "type": "progress", "summary": "keys loaded"})
	call("checkpoint_list", map[string]any{"task_id": "/auth.md#sign-tokens"})
	call("workflow_progress", map[string]any{"workflow_id": "/auth.md"})
	call("clarification_ask", map[string]any{"id": "cl_alg", "questions": []map[string]any{{"text": "RS256 or ES256?"}}, "wait_seconds": 0})
	call("clarification_respond", map[string]any{"worker_id": agent, "id": "cl_alg", "responses": []map[string]any{{"question_id": "Q1", "answer": "ES256"}}})
	checked := call("clarification_check", map[string]any{"id": "cl_alg"})
	assert.Equal(t, "answered", checked["status"])
	call("clarification_check", map[string]any{})
	call("documents_list", map[string]any{})
	call("tasks_find", map[string]any{"status": []string{"in_progress"}})

	// The schemas still refuse what the results never are.
	assert.Error(t, schemas["clarification_check"].Validate(map[string]any{"status": "answered", "answer": "ES256"}))
	assert.Error(t, schemas["workflow_progress"].Validate(map[string]any{"counts": []any{1}}))
	assert.Error(t, schemas["checkpoint_list"].Validate(map[string]any{"checkpoints": "none"}))
}
