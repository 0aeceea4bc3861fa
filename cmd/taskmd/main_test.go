package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/checkpoint"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/worker"
	"github.com/taskmd/taskmd/workspace"
)

var update = flag.Bool("update", false, "rewrite the golden files (review every change before committing it)")

// binary is the tool, built once by TestMain.
var binary string

const testNow = "2026-01-02T03:04:05Z"

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "taskmd-bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "taskmd")
	build := exec.Command("go", "build", "-race", "-o", binary, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building taskmd:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// result is one run of the binary.
type result struct {
	stdout, stderr string
	exit           int
}

// taskmd runs the binary in root with the fixed clock.
func taskmd(t *testing.T, root, stdin string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, append([]string{"-C", root}, args...)...)
	cmd.Env = append(os.Environ(), nowVar+"="+testNow)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	exit := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		require.True(t, ok, "running taskmd %v: %v", args, err)
		exit = ee.ExitCode()
	}
	return result{out.String(), errOut.String(), exit}
}

// workspaceFiles are the files of the generated workspace.
var workspaceFiles = map[string]string{
	"docs/api/auth.md": `# Auth

Stateless authentication for the API.

## Tasks

### Setup OAuth

- Status: pending
- Workflow: tdd

Install the provider.

@/specs/jwt.md

### Sign tokens

- Status: pending
- Depends-On: #setup-oauth

Sign with RS256.
`,
	"docs/specs/jwt.md": "# JWT\n\nTokens are signed JWTs.\n",
	"docs/shop/cart.md": `# Cart

## Tasks

### Fix login bug

- Status: in_progress

Users cannot log in.
`,
	"workflows/tdd.md": "---\ntitle: Test-driven\ndescription: Red, green, refactor.\n---\n\nWrite the test first.\n",
}

// newWorkspace writes the generated workspace into a new folder.
func newWorkspace(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for name, text := range workspaceFiles {
		p := filepath.Join(root, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	return root
}

// transcript runs each command line (split on spaces, with "~" standing
// for a space inside an argument and "\n" for a line break) and returns
// what a terminal would show: the command, its stdout, its stderr lines
// prefixed "stderr: ", and its exit status when not 0. Pivot request ids,
// random, read pv_ID.
func transcript(t *testing.T, root string, lines []string) string {
	t.Helper()
	var b strings.Builder
	for _, line := range lines {
		var args []string
		for _, f := range strings.Fields(line) {
			args = append(args, strings.NewReplacer("~", " ", `\n`, "\n").Replace(f))
		}
		r := taskmd(t, root, "", args...)
		fmt.Fprintf(&b, "$ taskmd %s\n%s", line, r.stdout)
		for _, l := range strings.SplitAfter(r.stderr, "\n") {
			if l != "" {
				fmt.Fprintf(&b, "stderr: %s", l)
			}
		}
		if r.exit != 0 {
			fmt.Fprintf(&b, "exit %d\n", r.exit)
		}
	}
	return pivotID.ReplaceAllString(b.String(), "pv_ID")
}

var pivotID = regexp.MustCompile(`pv_[0-9a-f]{12}`)

// golden compares got with testdata/name, or writes it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(want), got)
}

// files is every file of root but the library's state, for checking
// that a failed command changed nothing.
func files(t *testing.T, root string) map[string]string {
	t.Helper()
	files := map[string]string{}
	require.NoError(t, filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		require.NoError(t, err)
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() && rel == ".taskmd" {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			b, err := os.ReadFile(p)
			require.NoError(t, err)
			files[rel] = string(b)
		}
		return nil
	}))
	return files
}

// workerState writes two checkpoints of worker w2 and a clarification it
// asked, through the library, as a worker would.
func workerState(t *testing.T, root string) {
	t.Helper()
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	defer ws.Close()
	now := func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }
	cps := checkpoint.New(ws, checkpoint.WithClock(now))
	ctx := context.Background()
	_, err = cps.Save(ctx, checkpoint.Checkpoint{Worker: "w2", Task: "/shop/cart.md#fix-login-bug", Phase: "working",
		OriginalTask: "Fix the login bug.", InProgress: []string{"reproduce"}, Remaining: []string{"fix", "test"}})
	require.NoError(t, err)
	_, err = cps.Save(ctx, checkpoint.Checkpoint{Worker: "w2", Task: "/shop/cart.md#fix-login-bug", Phase: "working",
		OriginalTask: "Fix the login bug.", Completed: []string{"reproduce"}, InProgress: []string{"fix"}, Remaining: []string{"test"},
		FilesChanged: []checkpoint.FileChange{{Path: "login.go", Note: "modified"}}, Decisions: []string{"keep sessions"}})
	require.NoError(t, err)
	_, err = worker.NewClarifications(ws, worker.WithClock(now)).Ask(ctx, "w2", worker.Needed{ID: "c1", BlockedAt: "fix",
		Questions: []worker.Question{{Text: "Keep the old cookie?"}, {Text: "Which log level?"}}})
	require.NoError(t, err)
}

func TestHelp(t *testing.T) {
	r := taskmd(t, t.TempDir(), "", "help")
	assert.Equal(t, 0, r.exit)
	golden(t, "help.golden", r.stdout)
}

// The whole text session: each command's output is reviewed in
// testdata/session.golden.
func TestSession(t *testing.T) {
	root := newWorkspace(t)
	workerState(t, root)
	golden(t, "session.golden", transcript(t, root, sessionLines))
}

var sessionLines = []string{
	"list",
	"list /api/auth.md",
	"ready",
	"show /api/auth.md#sign-tokens",
	`create /api/auth.md --title Rotate~keys --content -~Depends-On:~#sign-tokens\n\nRotate~monthly.`,
	"find --depends-on /api/auth.md#sign-tokens",
	"find login",
	"start /api/auth.md#setup-oauth",
	"status /api/auth.md#rotate-keys blocked --reason waiting~for~vault",
	"list --status blocked,in_progress",
	"complete /api/auth.md#setup-oauth --note Google~provider",
	"ready /api/",
	"status /api/auth.md#setup-oauth pending",
	"show /api/auth.md#setup-oauth",
	"rm /api/auth.md#rotate-keys",
	"workflows",
	`coordinator create --title Research --content -~Main-Workflow:~tdd\n\nCompare.`,
	"coordinator create --title Build",
	"coordinator list",
	"coordinator start",
	"coordinator complete --note Chose~JWT",
	"coordinator complete --note Built",
	"archive /specs/jwt.md",
	"archives",
	"archives show archived/coordinator/active-2026-01-02-030405.md",
	"agent register --id w1 --name worker-1 --runtime claude_code",
	"agent list",
	"next /api/auth.md",
	"claim /api/auth.md#setup-oauth --agent w1",
	"checkpoint add /api/auth.md#setup-oauth --type progress --summary provider~installed --files auth.go --agent w1 --token 1",
	"checkpoint list /api/auth.md#setup-oauth",
	"progress /api/auth.md",
	"context /api/auth.md#setup-oauth",
	"pivot --worker w1 --mode graceful --reason login~is~broken --new-task /shop/cart.md#fix-login-bug",
	"agent heartbeat w1 --task /api/auth.md#setup-oauth --status busy",
	"checkpoint list --worker w2",
	"checkpoint diff --worker w2",
	"checkpoint show --worker w2 --sequence 1",
	"questions",
	"answer --worker w2 --id c1 Q2=debug yes",
	"questions",
	"status /api/auth.md#setup-oauth completed --outcome done --agent w1 --token 1",
	"release /api/auth.md#setup-oauth --agent w1 --token 1",
	"agent unregister w1",
}

// --json prints the library's result types, one line each, with their
// snake_case JSON names and no byte offsets; errors are one JSON object on
// stderr.
func TestSessionJSON(t *testing.T) {
	root := newWorkspace(t)
	workerState(t, root)
	lines := []string{
		"--json list",
		"--json list /api/auth.md",
		"--json ready",
		"--json workflows",
		"--json show /api/auth.md#sign-tokens",
		`--json create /api/auth.md --title Rotate~keys --content -~Depends-On:~#sign-tokens\n\nRotate~monthly.`,
		"--json find --depends-on /api/auth.md#sign-tokens",
		"--json start /api/auth.md#setup-oauth",
		"--json status /api/auth.md#rotate-keys blocked --reason waiting~for~vault",
		"--json complete /api/auth.md#setup-oauth --note Google~provider",
		"--json status /api/auth.md#setup-oauth pending",
		"--json rm /api/auth.md#rotate-keys",
		`--json coordinator create --title Research --content -~Main-Workflow:~tdd\n\nCompare.`,
		"--json coordinator create --title Build",
		"--json coordinator list",
		"--json coordinator view research",
		"--json coordinator start",
		"--json status /coordinator/active.md#research completed --outcome Chose~JWT",
		"--json coordinator complete --note Built",
		"--json archives",
		"--json agent register --id w1 --name worker-1 --runtime claude_code",
		"--json agent list",
		"--json claim /api/auth.md#setup-oauth --agent w1",
		"--json next /api/auth.md",
		"--json checkpoint add /api/auth.md#setup-oauth --type progress --summary provider~installed --files auth.go --agent w1 --token 1",
		"--json checkpoint list /api/auth.md#setup-oauth",
		"--json progress /api/auth.md",
		"--json agent heartbeat w1 --task /api/auth.md#setup-oauth --status busy",
		"--json pivot --worker w1 --reason stop --mode hard",
		"--json checkpoint list --worker w2",
		"--json checkpoint show --worker w2 --sequence 1",
		"--json checkpoint diff --worker w2",
		"--json questions",
		"--json show /api/auth.md#nope",
		"--json claim /api/auth.md#setup-oauth --agent w9",
	}
	got := transcript(t, root, lines)
	golden(t, "session-json.golden", got)
	assert.NotRegexp(t, `"[A-Z]\w*":`, got, "a Go field name")
	assert.NotRegexp(t, `"(span|heading_span|offset)"`, got, "a byte offset")
}

// Tasks in --json output carry their address; every line is one JSON
// value.
func TestJSONTasks(t *testing.T) {
	root := newWorkspace(t)
	r := taskmd(t, root, "", "list", "/api/auth.md", "--json")
	require.Equal(t, 0, r.exit, r.stderr)
	assert.Equal(t, 1, strings.Count(r.stdout, "\n"))
	var list struct {
		Tasks []map[string]any `json:"tasks"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &list))
	got := list.Tasks
	require.Len(t, got, 2)
	assert.Equal(t, "/api/auth.md#setup-oauth", got[0]["address"])
	assert.Equal(t, "/api/auth.md", got[0]["document"])
	assert.Equal(t, "Setup OAuth", got[0]["title"])
}

// Content comes from stdin with --content-file -.
func TestCreateFromStdin(t *testing.T) {
	root := newWorkspace(t)
	r := taskmd(t, root, "- Status: blocked\n\nFrom stdin.\n", "create", "/new.md", "--title", "Piped", "--content-file", "-")
	require.Equal(t, 0, r.exit, r.stderr)
	assert.Equal(t, "created /new.md#piped\n", r.stdout)
	b, err := os.ReadFile(filepath.Join(root, "docs", "new.md"))
	require.NoError(t, err)
	assert.Equal(t, "# New\n\n## Tasks\n\n### Piped\n\n- Status: blocked\n\nFrom stdin.\n", string(b))
}

// Each kind of error exits with its status, prints its code, and changes
// no file.
func TestExitCodes(t *testing.T) {
	root := newWorkspace(t)
	require.Equal(t, 0, taskmd(t, root, "", "agent", "register", "--id", "w1", "--name", "a", "--runtime", "r").exit)
	require.Equal(t, 0, taskmd(t, root, "", "agent", "register", "--id", "w2", "--name", "b", "--runtime", "r").exit)
	require.Equal(t, 0, taskmd(t, root, "", "claim", "/api/auth.md#setup-oauth", "--agent", "w1").exit)
	require.Equal(t, 0, taskmd(t, root, "", "complete", "/shop/cart.md#fix-login-bug", "--note", "fixed").exit)
	cases := []struct {
		name string
		args []string
		exit int
		code string
	}{
		{"unknown command", []string{"frobnicate"}, exitUsage, "USAGE"},
		{"missing argument", []string{"show"}, exitUsage, "USAGE"},
		{"unknown flag", []string{"list", "--colour"}, exitUsage, "USAGE"},
		{"no such task", []string{"start", "/api/auth.md#nope"}, exitNotFound, "TASK_NOT_FOUND"},
		{"no such document", []string{"list", "/nope.md"}, exitNotFound, "DOCUMENT_NOT_FOUND"},
		{"no such agent", []string{"agent", "heartbeat", "w9"}, exitNotFound, "AGENT_NOT_FOUND"},
		{"duplicate", []string{"create", "/api/auth.md", "--title", "Sign tokens"}, exitConflict, "DUPLICATE_TASK"},
		{"held by another agent", []string{"claim", "/api/auth.md#setup-oauth", "--agent", "w2"}, exitConflict, "ALREADY_CLAIMED"},
		{"stale claim", []string{"release", "/api/auth.md#setup-oauth", "--agent", "w1", "--token", "7"}, exitConflict, "STALE_CLAIM"},
		{"completed without an outcome", []string{"status", "/api/auth.md#sign-tokens", "completed"}, exitInvalid, "NOTE_REQUIRED"},
		{"completed again", []string{"complete", "/shop/cart.md#fix-login-bug", "--note", "other"}, exitConflict, "INVALID_TRANSITION"},
		{"bad address", []string{"show", "/api/auth.txt"}, exitInvalid, "INVALID_ADDRESS"},
		{"unknown status", []string{"list", "--status", "doing"}, exitInvalid, "UNKNOWN_STATUS"},
		{"coordinator namespace", []string{"start", "/coordinator/active.md#x"}, exitInvalid, "INVALID_NAMESPACE_FOR_SUBAGENT"},
		{"no acknowledgement", []string{"pivot", "--worker", "w1", "--reason", "stop", "--wait", "--timeout", "100ms"}, exitNoAck, "NO_ACK"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := files(t, root)
			r := taskmd(t, root, "", c.args...)
			assert.Equal(t, c.exit, r.exit, r.stderr)
			assert.True(t, strings.HasPrefix(r.stderr, "taskmd: "+c.code+": "), r.stderr)
			if c.code != "NO_ACK" { // the request stays for the worker to see
				assert.Equal(t, before, files(t, root), "a failed command changed a file")
			}
		})
	}
}

// The table: every code the tool documents has its status, and a
// SUSPENDED worker (a library error the CLI passes on) exits with 6.
func TestExitTable(t *testing.T) {
	var stderr bytes.Buffer
	e := &env{ctx: context.Background(), stderr: &stderr}
	assert.Equal(t, exitSuspended, e.fail(fmt.Errorf("wrapped: %w", &taskdoc.Error{Code: worker.CodeSuspended, Msg: "worker suspended"})))
	assert.Equal(t, "taskmd: SUSPENDED: wrapped: worker suspended\n", stderr.String())
	stderr.Reset()
	assert.Equal(t, exitOther, e.fail(fmt.Errorf("plain")))
	assert.Equal(t, "taskmd: ERROR: plain\n", stderr.String())
	assert.Equal(t, exitOK, e.fail(nil))
}
