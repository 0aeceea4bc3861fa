package main

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

// schema reads docs/schema/taskmd.schema.json.
func schema(t *testing.T) *jsonschema.Resolved {
	t.Helper()
	b, err := os.ReadFile("../../docs/schema/taskmd.schema.json")
	require.NoError(t, err)
	var s jsonschema.Schema
	require.NoError(t, json.Unmarshal(b, &s))
	rs, err := s.Resolve(nil)
	require.NoError(t, err)
	return rs
}

// jsonLines are command lines covering every command that prints JSON
// without waiting, run in order on the generated workspace; some fail on
// purpose, to check the errors.
var jsonLines = [][]string{
	{"help"}, {"help", "agent"}, {"help", "claim"}, {"version"}, {"completion", "fish"},
	{"list"}, {"list", "/api/auth.md"}, {"list", "--status", "pending"}, {"find", "login"}, {"ready"}, {"workflows"},
	{"show", "/api/auth.md"}, {"create", "/api/auth.md", "--title", "Rotate keys", "--content", "- Depends-On: #sign-tokens"},
	{"start", "/api/auth.md#setup-oauth"}, {"status", "/api/auth.md#rotate-keys", "blocked", "--reason", "vault"},
	{"complete", "/api/auth.md#setup-oauth", "--note", "done"}, {"complete", "/api/auth.md#setup-oauth", "--note", "done"},
	{"rm", "/api/auth.md#rotate-keys"},
	{"coordinator", "create", "--title", "Research"}, {"coordinator", "create", "--title", "Build"}, {"coordinator", "list"},
	{"coordinator", "view"}, {"coordinator", "start"}, {"coordinator", "complete", "--note", "chose"},
	{"coordinator", "clear"}, {"coordinator", "recover"}, {"coordinator", "complete", "--note", "built"},
	{"archive", "/specs/jwt.md"}, {"archives"}, {"archives", "show", "archived/coordinator/active-2026-01-02-030405.md"},
	{"agent", "register", "--id", "w1", "--name", "one", "--runtime", "test"}, {"agent", "list"},
	{"agent", "heartbeat", "w1"}, {"next", "/api/auth.md"}, {"claim", "/api/auth.md#sign-tokens", "--agent", "w1"},
	{"claim", "/api/auth.md#sign-tokens", "--agent", "w9"}, {"progress", "/api/auth.md"},
	{"checkpoint", "add", "/api/auth.md#sign-tokens", "--type", "progress", "--summary", "half", "--agent", "w1", "--token", "1"},
	{"checkpoint", "list", "/api/auth.md#sign-tokens"}, {"context", "/api/auth.md#sign-tokens"},
	{"pivot", "--worker", "w1", "--reason", "stop"}, {"checkpoint", "list"}, {"checkpoint", "list", "--worker", "w2"},
	{"checkpoint", "show", "--worker", "w2"}, {"checkpoint", "diff", "--worker", "w2"}, {"questions"},
	{"answer", "--worker", "w2", "--id", "c1", "yes", "info"}, {"resume-brief", "/shop/cart.md#fix-login-bug"},
	{"status", "/api/auth.md#sign-tokens", "completed", "--note", "signed", "--agent", "w1", "--token", "1"},
	{"release", "/api/auth.md#sign-tokens", "--agent", "w1", "--token", "1"}, {"agent", "unregister", "w1"},
	{"show", "/api/auth.md#nope"}, {"frobnicate"}, {"list", "--status", "doing"},
}

// Every answer and every error of every command validates against the
// schema, and every task in it starts with its address.
func TestJSONSchema(t *testing.T) {
	rs := schema(t)
	root := newWorkspace(t)
	workerState(t, root)
	for _, args := range jsonLines {
		r := taskmd(t, root, "", append([]string{"--json"}, args...)...)
		out := r.stdout
		if r.exit != 0 {
			assert.Empty(t, r.stdout, args)
			out = r.stderr
		}
		require.Equal(t, 1, strings.Count(out, "\n"), "%v: one line: %s", args, out)
		var v any
		require.NoError(t, json.Unmarshal([]byte(out), &v), "%v: %s", args, out)
		assert.NoError(t, rs.Validate(v), "%v: %s", args, out)
		assert.True(t, strings.HasPrefix(out, `{"schema_version":1,`), "%v: %s", args, out)
		var top map[string]json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(out), &top))
		var tasks []json.RawMessage
		if raw, ok := top["task"]; ok {
			tasks = append(tasks, raw)
		}
		for _, key := range []string{"tasks", "current_tasks"} {
			var list []json.RawMessage
			if raw, ok := top[key]; ok {
				require.NoError(t, json.Unmarshal(raw, &list))
			}
			tasks = append(tasks, list...)
		}
		for _, task := range tasks {
			assert.True(t, strings.HasPrefix(string(task), `{"address":"/`), "%v: %s", args, task)
		}
	}
}

// The schema refuses what it should: the task shapes the tool no longer
// prints, a list at the top, an error without its exit status; and its
// statuses are the library's.
func TestJSONSchemaRefuses(t *testing.T) {
	rs := schema(t)
	for _, bad := range []string{
		`[{"address":"/a.md#x","document":"/a.md","title":"X","slug":"x","level":3,"status":"pending","line":1,"version":"v"}]`,
		`{"schema_version":1,"tasks":[{"address":"/a.md#x","document":"/a.md","task":{"title":"X"}}]}`,
		`{"schema_version":1,"tasks":[{"id":"/a.md#x","title":"X","status":"pending"}]}`,
		`{"schema_version":2}`,
		`{"code":"TASK_NOT_FOUND","message":"m","exit":3}`,
		`{"schema_version":1,"code":"TASK_NOT_FOUND","message":"m"}`,
		`{"schema_version":1,"task":{"address":"/a.md#x","document":"/a.md","title":"X","slug":"x","level":3,"status":"doing","line":1,"version":"v"}}`,
	} {
		var v any
		require.NoError(t, json.Unmarshal([]byte(bad), &v))
		assert.Error(t, rs.Validate(v), bad)
	}
	b, err := os.ReadFile("../../docs/schema/taskmd.schema.json")
	require.NoError(t, err)
	var s struct {
		Defs struct {
			Task struct {
				Properties struct {
					Status struct {
						Enum []string `json:"enum"`
					} `json:"status"`
				} `json:"properties"`
			} `json:"task"`
		} `json:"$defs"`
	}
	require.NoError(t, json.Unmarshal(b, &s))
	var want []string
	for _, st := range taskdoc.Statuses {
		want = append(want, string(st))
	}
	assert.ElementsMatch(t, want, s.Defs.Task.Properties.Status.Enum)
	assert.False(t, slices.Contains(s.Defs.Task.Properties.Status.Enum, ""))
}

// --json anywhere on the line makes the answer JSON, also when the line
// asks for help before it or goes wrong before it: a bad flag, an
// unknown command or subcommand.
func TestJSONAfterHelpOrBadFlag(t *testing.T) {
	rs := schema(t)
	root := newWorkspace(t)
	for _, args := range [][]string{
		{"-h", "--json"}, {"--help", "-json"}, {"init", "-h", "--json"}, {"agent", "-h", "--json"},
		{"agent", "list", "-h", "--json=true"}, {"--bogus", "--json"}, {"list", "--bogus", "--json"},
		{"frobnicate", "--json"}, {"agent", "frob", "--json"}, {"claim", "--agent", "w1", "--bogus", "-C", ".", "--json"},
	} {
		r := taskmd(t, root, "", args...)
		out := r.stdout
		if r.exit != 0 {
			assert.Equal(t, exitUsage, r.exit, args)
			assert.Empty(t, r.stdout, args)
			out = r.stderr
		}
		var v any
		if !assert.NoError(t, json.Unmarshal([]byte(out), &v), "%v: %s", args, out) {
			continue
		}
		assert.NoError(t, rs.Validate(v), "%v: %s", args, out)
	}
	r := taskmd(t, root, "", "--bogus", "--json=false")
	assert.True(t, strings.HasPrefix(r.stderr, "taskmd: USAGE: "), r.stderr)
}
