package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// brokenFiles hold one of each problem a person or a crash leaves in
// documents; the comment after each says the line check names.
var brokenFiles = map[string]string{
	"docs/a.md": "---\n" +
		"title: [unclosed\n" + // 2: PARSE_ERROR
		"---\n# A\n\n## Tasks\n\n" +
		"### Setup\n" + // 8: DUPLICATE_TASK
		"\n" +
		"- Status: donee\n" + // 10:11 UNKNOWN_STATUS
		"\n" +
		"### Setup\n" + // 12: DUPLICATE_TASK
		"\n### Later\n\nThe description first.\n\n" +
		"- Status: pending\n", // 18: MISPLACED_METADATA
	"docs/b.md": "# B\n\n## Tasks\n\n### X\n\n" +
		"- Depends-On: /c.md#y, /gone.md#z\n", // 7:15 DEPENDENCY_CYCLE, 7:24 DEPENDENCY_NOT_FOUND
	"docs/c.md": "# C\n\n## Tasks\n\n### Y\n\n" +
		"- Depends-On: /b.md#x\n", // 7:15 DEPENDENCY_CYCLE
	"docs/plan.md": "# Plan\n\n## Tasks\n\n### Build\n\n- Status: pending\n",
}

// taskmdAt runs the binary in root with the clock at now.
func taskmdAt(t *testing.T, root string, now time.Time, args ...string) result {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"-C", root}, args...)...)
	cmd.Env = append(os.Environ(), nowVar+"="+now.Format(time.RFC3339))
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

func TestCheckNamesEveryProblemAndFixesWhatItCan(t *testing.T) {
	root := t.TempDir()
	for name, text := range brokenFiles {
		p := filepath.Join(root, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	gitIn(t, root, "init", "-q")
	gitIn(t, root, "config", "merge.taskmd.driver", "/nowhere/taskmd merge-driver %O %A %B %P %L")
	// A claim whose agent stops its heartbeats.
	r := taskmd(t, root, "", "agent", "register", "--name", "w", "--runtime", "test", "--id", "ag_0123456789ab")
	require.Equal(t, 0, r.exit, r.stderr)
	r = taskmd(t, root, "", "claim", "/plan.md#build", "--agent", "ag_0123456789ab")
	require.Equal(t, 0, r.exit, r.stderr)
	r = taskmd(t, root, "", "status", "/plan.md#build", "in_progress", "--agent", "ag_0123456789ab", "--token", "1")
	require.Equal(t, 0, r.exit, r.stderr)
	plan, err := os.ReadFile(filepath.Join(root, "docs", "plan.md"))
	require.NoError(t, err)
	lines := strings.Split(string(plan), "\n")
	assigneeLine := 0
	for i, l := range lines {
		if strings.HasPrefix(l, "- Assignee: ") {
			assigneeLine = i + 1
		}
	}
	require.NotZero(t, assigneeLine, "the claim names its holder:\n%s", plan)
	// A write killed before its rename, two hours ago.
	stray := filepath.Join(root, "docs", ".tmp-0123456789abcdef-0123456789abcdef")
	require.NoError(t, os.WriteFile(stray, []byte("# half"), 0o644))
	old := time.Now().Add(-2 * time.Hour)
	require.NoError(t, os.Chtimes(stray, old, old))
	later, err := time.Parse(time.RFC3339, testNow)
	require.NoError(t, err)
	later = later.Add(time.Hour)

	want := []string{
		".git/config: MERGE_DRIVER_NOT_RUNNABLE: ",
		".gitattributes: MERGE_DRIVER_NOT_SET: ",
		".gitignore: STATE_NOT_IGNORED: ",
		"docs/.tmp-0123456789abcdef-0123456789abcdef: STRAY_TEMP_FILE: ",
		"docs/a.md:2:1: PARSE_ERROR: ",
		"docs/a.md:8:1: DUPLICATE_TASK: ",
		"docs/a.md:10:11: UNKNOWN_STATUS: ",
		"docs/a.md:12:1: DUPLICATE_TASK: ",
		"docs/a.md:18:1: MISPLACED_METADATA: ",
		"docs/b.md:7:15: DEPENDENCY_CYCLE: ",
		"docs/b.md:7:24: DEPENDENCY_NOT_FOUND: ",
		"docs/c.md:7:15: DEPENDENCY_CYCLE: ",
		"docs/plan.md:" + strconv.Itoa(assigneeLine) + ":13: HOLDER_OFFLINE: ",
	}
	r = taskmdAt(t, root, later, "check")
	assert.Equal(t, exitInvalid, r.exit)
	assert.Contains(t, r.stderr, "PROBLEMS_FOUND: 13 problems")
	got := strings.Split(strings.TrimRight(r.stdout, "\n"), "\n")
	require.Len(t, got, len(want), r.stdout)
	for i := range want {
		assert.True(t, strings.HasPrefix(got[i], want[i]), "line %d: want %q, got %q", i, want[i], got[i])
		assert.Contains(t, got[i], "(hint: ", "every problem says what to do")
	}

	r = taskmdAt(t, root, later, "--json", "doctor", "docs/b.md")
	assert.Equal(t, exitInvalid, r.exit)
	var report checked
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &report), r.stdout)
	require.Len(t, report.Problems, 2, "under a path, only its problems")
	assert.Equal(t, "docs/b.md", report.Problems[1].File)
	assert.Equal(t, 7, report.Problems[1].Line)
	assert.Equal(t, 24, report.Problems[1].Column)
	assert.Equal(t, "DEPENDENCY_NOT_FOUND", string(report.Problems[1].Code))

	r = taskmdAt(t, root, later, "check", "--fix", "--command", binary)
	assert.Equal(t, exitInvalid, r.exit, "the documents' problems are left")
	for _, fixed := range []string{
		"fixed: docs/.tmp-0123456789abcdef-0123456789abcdef: STRAY_TEMP_FILE: removed",
		"fixed: .git/config: MERGE_DRIVER_NOT_SET: set merge.taskmd.driver to " + binary + " merge-driver",
		"fixed: .gitattributes: MERGE_DRIVER_NOT_SET: ",
		"fixed: .gitignore: STATE_NOT_IGNORED: added .taskmd/",
	} {
		assert.Contains(t, r.stdout, fixed)
	}
	assert.NoFileExists(t, stray)
	for _, doc := range []string{"docs/a.md", "docs/b.md", "docs/c.md"} {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(doc)))
		require.NoError(t, err)
		assert.Equal(t, brokenFiles[doc], string(b), "--fix never edits a document")
	}

	r = taskmdAt(t, root, later, "check")
	got = strings.Split(strings.TrimRight(r.stdout, "\n"), "\n")
	require.Len(t, got, len(want)-4, r.stdout)
	for i := range got {
		assert.True(t, strings.HasPrefix(got[i], want[i+4]), "line %d: want %q, got %q", i, want[i+4], got[i])
	}
}

func TestCheckCleanWorkspace(t *testing.T) {
	root := newWorkspace(t) // docs/ with good documents, no git
	r := taskmd(t, root, "", "check")
	assert.Equal(t, 0, r.exit, r.stdout+r.stderr)
	assert.Empty(t, r.stdout)

	gitIn(t, root, "init", "-q")
	r = taskmd(t, root, "", "git-setup", "--command", binary)
	require.Equal(t, 0, r.exit, r.stderr)
	r = taskmd(t, root, "", "--json", "check")
	assert.Equal(t, 0, r.exit, r.stdout+r.stderr)
	assert.JSONEq(t, `{"schema_version":1,"problems":[],"fixed":[]}`, r.stdout)

	r = taskmd(t, root, "", "check", "../elsewhere")
	assert.Equal(t, exitInvalid, r.exit)
	assert.Contains(t, r.stderr, "OUTSIDE_ROOT")
}

// check's PATH is taken from the current folder, as a shell takes it:
// `check api` run in docs/ checks docs/api; from outside the workspace
// (TASKMD_ROOT) it is taken from the root.
func TestCheckPathFromSubfolder(t *testing.T) {
	root := t.TempDir()
	for name, text := range map[string]string{
		"taskmd.toml":       "",
		"docs/api/auth.md":  "# Auth\n\n## Tasks\n\n### Sign\n\n- Depends-On: /gone.md#x\n",
		"api/notes.md":      "not a document\n",
		"docs/shop/cart.md": "# Cart\n\n## Tasks\n\n### Pay\n\n- Depends-On: /gone.md#y\n",
	} {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(root, name), []byte(text), 0o644))
	}
	files := func(r result) []string {
		var report checked
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &report), r.stdout+r.stderr)
		var out []string
		for _, p := range report.Problems {
			out = append(out, p.File)
		}
		return out
	}
	docs := filepath.Join(root, "docs")
	assert.Equal(t, []string{"docs/api/auth.md"}, files(taskmdIn(t, docs, nil, "--json", "check", "api")))
	assert.Equal(t, []string{"docs/api/auth.md"}, files(taskmdIn(t, filepath.Join(docs, "api"), nil, "--json", "check", "auth.md")))
	assert.Equal(t, []string{"docs/shop/cart.md"}, files(taskmdIn(t, filepath.Join(docs, "api"), nil, "--json", "check", "../shop")))
	assert.Equal(t, []string{"docs/shop/cart.md"}, files(taskmdIn(t, docs, nil, "--json", "check", filepath.Join(docs, "shop"))))
	assert.Len(t, files(taskmdIn(t, docs, nil, "--json", "check", ".")), 2)
	assert.Equal(t, []string{"docs/api/auth.md"}, files(taskmdIn(t, t.TempDir(), []string{rootVar + "=" + root}, "--json", "check", "docs/api")))

	r := taskmdIn(t, docs, nil, "check", "../..")
	assert.Equal(t, exitInvalid, r.exit)
	assert.Contains(t, r.stderr, "OUTSIDE_ROOT")
}
