package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// taskmdIn runs the binary with dir as its current folder, no -C, and env
// added to the environment (TASKMD_ROOT removed unless env sets it).
func taskmdIn(t *testing.T, dir string, env []string, args ...string) result {
	t.Helper()
	return taskmdStdin(t, dir, env, "", args...)
}

// taskmdStdin is taskmdIn with stdin.
func taskmdStdin(t *testing.T, dir string, env []string, stdin string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, rootVar+"=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(append(cmd.Env, nowVar+"="+testNow), env...)
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

// tree returns every file under dir with its content, for comparing
// before and after.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			files[rel+"/"] = ""
			return nil
		}
		b, err := os.ReadFile(p)
		files[rel] = string(b)
		return err
	}))
	return files
}

func TestInitNewWorkspace(t *testing.T) {
	dir := t.TempDir()
	r := taskmdIn(t, dir, nil, "--json", "init")
	require.Equal(t, 0, r.exit, r.stderr)
	assert.JSONEq(t, `{"schema_version":1,"root":"`+dir+`","marker":true,"docs":true,"ignore_state":true,"existing":false,"already_there":false}`, r.stdout)
	marker, err := os.ReadFile(filepath.Join(dir, "taskmd.toml"))
	require.NoError(t, err)
	assert.Contains(t, string(marker), "# agent_timeout = \"60s\"")
	info, err := os.Stat(filepath.Join(dir, "docs"))
	require.NoError(t, err)
	assert.True(t, info.IsDir())
	ignore, err := os.ReadFile(filepath.Join(dir, ".gitignore"))
	require.NoError(t, err)
	assert.Equal(t, ".taskmd/\n", string(ignore))

	before := tree(t, dir)
	r = taskmdIn(t, dir, nil, "init")
	require.Equal(t, 0, r.exit, r.stderr)
	assert.Equal(t, dir+" is a taskmd workspace already; nothing changed\n", r.stdout)
	assert.Equal(t, before, tree(t, dir), "a second init changes nothing")
}

func TestInitNamedFolderIsMade(t *testing.T) {
	parent := t.TempDir()
	r := taskmdIn(t, parent, nil, "init", "proj")
	require.Equal(t, 0, r.exit, r.stderr)
	assert.FileExists(t, filepath.Join(parent, "proj", "taskmd.toml"))
	assert.NoFileExists(t, filepath.Join(parent, "taskmd.toml"))

	r = taskmdIn(t, parent, nil, "init", "no/such/proj")
	assert.Equal(t, exitOther, r.exit, r.stderr)
	assert.NoDirExists(t, filepath.Join(parent, "no"))
}

// In a workspace made before the marker (docs/ and coordinator/ there),
// init adds the marker and the .gitignore line, nothing else; an existing
// .gitignore keeps its lines and gets .taskmd/ once.
func TestInitExistingWorkspaceOnlyAddsMarker(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "coordinator"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("bin/\n"), 0o644))
	r := taskmdIn(t, dir, nil, "--json", "init")
	require.Equal(t, 0, r.exit, r.stderr)
	assert.JSONEq(t, `{"schema_version":1,"root":"`+dir+`","marker":true,"docs":false,"ignore_state":true,"existing":true,"already_there":false}`, r.stdout)
	assert.NoDirExists(t, filepath.Join(dir, "docs"))
	ignore, err := os.ReadFile(filepath.Join(dir, ".gitignore"))
	require.NoError(t, err)
	assert.Equal(t, "bin/\n.taskmd/\n", string(ignore))
}

func TestInitRefusesBadMarker(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "taskmd.toml"), []byte("agent_timeout = \"soon\"\n"), 0o644))
	before := tree(t, dir)
	r := taskmdIn(t, dir, nil, "init")
	assert.Equal(t, exitInvalid, r.exit)
	assert.Contains(t, r.stderr, "agent_timeout")
	assert.Equal(t, before, tree(t, dir), "a refused init writes nothing")
}

// init in a folder inside a workspace's docs/, coordinator/ or .taskmd/
// (a careless cd) is refused and writes nothing, not even the folder it
// names: a workspace there would hide the outer one's documents from every
// command run in it, and lock them apart from it. Elsewhere in a
// workspace it makes one of its own.
func TestInitRefusesInsideWorkspaceContent(t *testing.T) {
	for _, marked := range []bool{true, false} {
		ws := t.TempDir()
		for _, d := range []string{"docs/api", "coordinator", ".taskmd/locks", "src"} {
			require.NoError(t, os.MkdirAll(filepath.Join(ws, d), 0o755))
		}
		if marked {
			require.NoError(t, os.WriteFile(filepath.Join(ws, "taskmd.toml"), nil, 0o644))
		}
		before := tree(t, ws)
		for _, d := range []string{"docs", "docs/api", "coordinator", ".taskmd/locks"} {
			for _, args := range [][]string{{"init"}, {"init", "proj"}, {"--json", "init", "."}} {
				r := taskmdIn(t, filepath.Join(ws, d), nil, args...)
				assert.Equal(t, exitInvalid, r.exit, "%s %v: %s", d, args, r.stderr)
				assert.Contains(t, r.stderr, "INVALID_ARGUMENTS", "%s %v", d, args)
				assert.Contains(t, r.stderr, ws, "%s %v: names the outer root", d, args)
			}
		}
		r := taskmdIn(t, ws, nil, "-C", "docs", "init")
		assert.Equal(t, exitInvalid, r.exit, r.stderr)
		assert.Equal(t, before, tree(t, ws), "marked %v: a refused init writes nothing", marked)
		r = taskmdIn(t, filepath.Join(ws, "src"), nil, "init")
		assert.Equal(t, 0, r.exit, r.stderr)
		assert.FileExists(t, filepath.Join(ws, "src", "taskmd.toml"))
	}
}

// init refuses, writing nothing, a taskmd.toml whose [mcp] toolsets names
// a toolset that is none: taskmd mcp would refuse to start on it.
func TestInitRefusesUnknownToolset(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "taskmd.toml"), []byte("[mcp]\ntoolsets = [\"queries\", \"agentz\"]\n"), 0o644))
	before := tree(t, dir)
	r := taskmdIn(t, dir, nil, "init")
	assert.Equal(t, exitInvalid, r.exit, r.stderr)
	assert.Contains(t, r.stderr, `"agentz"`)
	assert.Contains(t, r.stderr, "taskmd.toml")
	assert.Equal(t, before, tree(t, dir), "a refused init writes nothing")
	r = taskmdStdin(t, dir, nil, "", "mcp")
	assert.Equal(t, exitInvalid, r.exit, "mcp refuses the same file: %s", r.stderr)
}

// Two inits of one folder at once make one workspace, and only one of
// them says it wrote the marker, made docs/ or added the .gitignore line.
func TestInitConcurrentReportsEachStepOnce(t *testing.T) {
	for range 8 {
		dir := t.TempDir()
		var cmds [2]*exec.Cmd
		var outs [2]bytes.Buffer
		for i := range cmds {
			cmds[i] = exec.Command(binary, "--json", "init", dir)
			cmds[i].Stdout = &outs[i]
		}
		for _, c := range cmds {
			require.NoError(t, c.Start())
		}
		for _, c := range cmds {
			require.NoError(t, c.Wait())
		}
		counts := map[string]int{}
		for _, o := range outs {
			var res map[string]any
			require.NoError(t, json.Unmarshal(o.Bytes(), &res), o.String())
			for _, k := range []string{"marker", "docs", "ignore_state"} {
				if res[k] == true {
					counts[k]++
				}
			}
		}
		assert.Equal(t, map[string]int{"marker": 1, "docs": 1, "ignore_state": 1}, counts, "%s | %s", outs[0].String(), outs[1].String())
	}
}

const authDoc = "# Auth\n\n## Tasks\n\n### Sign\n\n- Status: pending\n\nSign tokens.\n"

// Every command finds the root upward from the current folder: create run
// from docs/api writes docs/auth.md at the root, not docs/api/docs/auth.md.
func TestDiscoveryFromSubfolder(t *testing.T) {
	root := t.TempDir()
	require.Equal(t, 0, taskmdIn(t, root, nil, "init").exit)
	api := filepath.Join(root, "docs", "api")
	require.NoError(t, os.MkdirAll(api, 0o755))
	r := taskmdIn(t, api, nil, "create", "/auth.md", "--title", "T")
	require.Equal(t, 0, r.exit, r.stderr)
	assert.FileExists(t, filepath.Join(root, "docs", "auth.md"))
	assert.NoDirExists(t, filepath.Join(api, "docs"))

	r = taskmdIn(t, api, nil, "--json", "list")
	require.Equal(t, 0, r.exit, r.stderr)
	assert.Contains(t, r.stdout, `"/auth.md"`)
}

// A workspace without the marker is found by its docs/ folder; from inside
// docs/ the root is the folder above it.
func TestDiscoveryLegacyWorkspace(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, "docs", "docs"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "docs", "auth.md"), []byte(authDoc), 0o644))
	for _, from := range []string{root, filepath.Join(root, "docs"), filepath.Join(root, "docs", "docs")} {
		r := taskmdIn(t, from, nil, "--json", "show", "/auth.md#sign")
		require.Equal(t, 0, r.exit, "from %s: %s", from, r.stderr)
	}
}

// -C and TASKMD_ROOT change the folder discovery starts from, as git -C
// does: -C ws/docs finds ws, so /x.md is ws/docs/x.md (not
// ws/docs/docs/x.md).
func TestDiscoveryFromDashC(t *testing.T) {
	parent := t.TempDir()
	ws := filepath.Join(parent, "ws")
	require.Equal(t, 0, taskmdIn(t, parent, nil, "init", "ws").exit)
	r := taskmdIn(t, parent, nil, "-C", "ws/docs", "create", "/x.md", "--title", "X")
	require.Equal(t, 0, r.exit, r.stderr)
	assert.FileExists(t, filepath.Join(ws, "docs", "x.md"))
	assert.NoDirExists(t, filepath.Join(ws, "docs", "docs"))

	r = taskmdIn(t, parent, []string{rootVar + "=" + filepath.Join(ws, "docs")}, "create", "/y.md", "--title", "Y")
	require.Equal(t, 0, r.exit, r.stderr)
	assert.FileExists(t, filepath.Join(ws, "docs", "y.md"))

	// -C wins over TASKMD_ROOT.
	other := t.TempDir()
	r = taskmdIn(t, parent, []string{rootVar + "=" + other}, "-C", ws, "create", "/z.md", "--title", "Z")
	require.Equal(t, 0, r.exit, r.stderr)
	assert.FileExists(t, filepath.Join(ws, "docs", "z.md"))
	assert.NoDirExists(t, filepath.Join(other, "docs"))
}

// No workspace up from the current folder: exit 3 naming init, nothing
// written.
func TestDiscoveryNoWorkspace(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{{"list"}, {"create", "/a.md", "--title", "A"}} {
		r := taskmdIn(t, dir, nil, args...)
		assert.Equal(t, exitNotFound, r.exit, "%v", args)
		assert.Equal(t, "taskmd: NO_WORKSPACE: no taskmd workspace in "+dir+" or any parent: run `taskmd init` here, or pass -C DIR\n", r.stderr)
		assert.Equal(t, map[string]string{"./": ""}, tree(t, dir), "nothing written")
	}
}

// An explicit folder that is no workspace is used as given only when it is
// empty; any other is refused, naming init.
func TestDiscoveryExplicitFolder(t *testing.T) {
	r := taskmdIn(t, t.TempDir(), nil, "-C", "/etc", "list")
	assert.Equal(t, exitNotFound, r.exit, r.stdout)
	assert.Contains(t, r.stderr, "NO_WORKSPACE")
	assert.Contains(t, r.stderr, "taskmd init /etc")

	empty := t.TempDir()
	r = taskmdIn(t, t.TempDir(), nil, "-C", empty, "create", "/a.md", "--title", "A")
	require.Equal(t, 0, r.exit, r.stderr)
	assert.FileExists(t, filepath.Join(empty, "docs", "a.md"))
}

// instructionsText is what `taskmd instructions --role role` prints.
func instructionsText(t *testing.T, role string) string {
	t.Helper()
	r := taskmdIn(t, t.TempDir(), nil, "instructions", "--role", role)
	require.Equal(t, 0, r.exit, r.stderr)
	return r.stdout
}

// init --agent-instructions adds the section to AGENTS.md (making it, or
// after what is there), replaces it in place when it differs, and writes
// nothing when it is the same; every other byte of the file stays.
func TestInitAgentInstructions(t *testing.T) {
	worker, orchestrator := instructionsText(t, "worker"), instructionsText(t, "orchestrator")
	section := func(text string) string { return "<!-- taskmd:begin -->\n" + text + "<!-- taskmd:end -->" }
	agentsMD := func(dir string) string {
		b, err := os.ReadFile(filepath.Join(dir, "AGENTS.md"))
		require.NoError(t, err)
		return string(b)
	}

	fresh := t.TempDir()
	r := taskmdIn(t, fresh, nil, "init", "--agent-instructions", "--json")
	require.Equal(t, 0, r.exit, r.stderr)
	assert.Contains(t, r.stdout, `"agents_md":"appended"`)
	assert.Equal(t, section(worker)+"\n", agentsMD(fresh))
	assert.FileExists(t, filepath.Join(fresh, "taskmd.toml"))

	dir := t.TempDir()
	own := "# Agents\n\nBe kind to the tests." // no final newline
	require.NoError(t, os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte(own), 0o644))
	r = taskmdIn(t, dir, nil, "init", "--agent-instructions")
	require.Equal(t, 0, r.exit, r.stderr)
	assert.Contains(t, r.stdout, "added the taskmd instructions to AGENTS.md")
	assert.Equal(t, own+"\n\n"+section(worker)+"\n", agentsMD(dir))

	// The owner writes below the section; another role replaces it there.
	withTail := agentsMD(dir) + "\n## Our rules\n\nNo force pushes.\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte(withTail), 0o644))
	r = taskmdIn(t, dir, nil, "--json", "init", "--agent-instructions", "--role", "orchestrator")
	require.Equal(t, 0, r.exit, r.stderr)
	assert.Contains(t, r.stdout, `"agents_md":"replaced"`)
	assert.Contains(t, r.stdout, `"already_there":false`)
	assert.Equal(t, own+"\n\n"+section(orchestrator)+"\n\n## Our rules\n\nNo force pushes.\n", agentsMD(dir))

	// The same text again: nothing is written, not even the same bytes.
	before, err := os.Stat(filepath.Join(dir, "AGENTS.md"))
	require.NoError(t, err)
	r = taskmdIn(t, dir, nil, "init", "--agent-instructions", "--role", "orchestrator")
	require.Equal(t, 0, r.exit, r.stderr)
	assert.Equal(t, dir+" is a taskmd workspace already; nothing changed\n", r.stdout)
	after, err := os.Stat(filepath.Join(dir, "AGENTS.md"))
	require.NoError(t, err)
	assert.True(t, os.SameFile(before, after), "AGENTS.md was rewritten")
	assert.Equal(t, before.ModTime(), after.ModTime())

	// CRLF files get the section with CRLF.
	crlf := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(crlf, "AGENTS.md"), []byte("# A\r\n"), 0o644))
	r = taskmdIn(t, crlf, nil, "init", "--agent-instructions")
	require.Equal(t, 0, r.exit, r.stderr)
	assert.Equal(t, "# A\r\n\r\n"+strings.ReplaceAll(section(worker), "\n", "\r\n")+"\r\n", agentsMD(crlf))
}

// What init --agent-instructions refuses, it refuses before writing
// anything: not even taskmd.toml.
func TestInitAgentInstructionsRefusals(t *testing.T) {
	for _, tt := range []struct {
		name, agents string
		args         []string
		exit         int
		want         string
	}{
		{"two begins", "<!-- taskmd:begin -->\nA\n<!-- taskmd:begin -->\nB\n<!-- taskmd:end -->\n", nil, exitInvalid, "keep one of each"},
		{"end first", "<!-- taskmd:end -->\nA\n<!-- taskmd:begin -->\n", nil, exitInvalid, "begin first"},
		{"begin only", "# A\n<!-- taskmd:begin -->\n", nil, exitInvalid, "taskmd:end"},
		{"unknown role", "# A\n", []string{"--role", "boss"}, exitInvalid, "--role worker"},
		{"role alone", "# A\n", []string{"--role", "worker"}, exitUsage, "--agent-instructions"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte(tt.agents), 0o644))
			before := tree(t, dir)
			args := []string{"init"}
			if tt.name != "role alone" {
				args = append(args, "--agent-instructions")
			}
			r := taskmdIn(t, dir, nil, append(args, tt.args...)...)
			assert.Equal(t, tt.exit, r.exit, r.stderr)
			assert.Contains(t, r.stderr, tt.want)
			assert.Equal(t, before, tree(t, dir), "a refused init writes nothing")
		})
	}
}
