package workspace_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

func mkdirs(t *testing.T, root string, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		require.NoError(t, os.MkdirAll(filepath.Join(root, d), 0o755))
	}
}

func TestFind(t *testing.T) {
	root := t.TempDir()
	mkdirs(t, root, "marked/docs/api", "marked/sub/docs", "old/docs/docs/x", "old/coordinator", "bare/deep", "coordonly/coordinator")
	require.NoError(t, os.WriteFile(filepath.Join(root, "marked", workspace.MarkerFile), nil, 0o644))
	for from, want := range map[string]string{
		"marked":                "marked",
		"marked/docs/api":       "marked",
		"marked/sub":            "marked", // a marker above wins over docs/ nearer
		"marked/sub/docs":       "marked",
		"old":                   "old",
		"old/docs":              "old", // docs itself is never a root
		"old/docs/docs/x":       "old",
		"old/coordinator":       "old",
		"coordonly/coordinator": "coordonly",
	} {
		got, err := workspace.Find(filepath.Join(root, from))
		require.NoError(t, err, from)
		assert.Equal(t, filepath.Join(root, want), got, from)
	}
	_, err := workspace.Find(filepath.Join(root, "bare", "deep"))
	assert.Equal(t, workspace.CodeNoWorkspace, taskdoc.CodeOf(err))
	assert.Contains(t, err.Error(), "run `taskmd init` here")
}

func TestReadConfig(t *testing.T) {
	readConfig := func(text string) (workspace.Config, error) {
		dir := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(dir, workspace.MarkerFile), []byte(text), 0o644))
		return workspace.ReadConfig(dir)
	}
	c, err := readConfig("agent_timeout = \"90s\"\nworktree_dir = \"../wt\"\n[mcp]\ntoolsets = [\"queries\"]\n")
	require.NoError(t, err)
	assert.Equal(t, workspace.Config{AgentTimeout: 90 * time.Second, WorktreeDir: "../wt", MCPToolsets: []string{"queries"}}, c)

	for text, code := range map[string]taskdoc.Code{
		"agent_timeout = \"soon\"\n": taskdoc.CodeInvalidArguments,
		"agent_timeout = \"-1s\"\n":  taskdoc.CodeInvalidArguments,
		"worktree_dir = \"/abs\"\n":  taskdoc.CodeInvalidArguments,
		"[mcp]\ntoolsets = [\"\"]\n": taskdoc.CodeInvalidArguments,
		"agent_timout = \"1s\"\n":    taskdoc.CodeParse,
		"agent_timeout = \n":         taskdoc.CodeParse,
		"agent_timeout = 5\n":        taskdoc.CodeParse,
	} {
		_, err := readConfig(text)
		assert.Equal(t, code, taskdoc.CodeOf(err), text)
	}
	// The file Init writes parses, to the defaults.
	dir := t.TempDir()
	_, err = workspace.Init(context.Background(), dir)
	require.NoError(t, err)
	c, err = workspace.ReadConfig(dir)
	require.NoError(t, err)
	assert.Equal(t, workspace.Config{}, c)
}

func TestInitRefusesDocsFile(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "docs"), []byte("x"), 0o644))
	_, err := workspace.Init(context.Background(), dir)
	assert.Equal(t, taskdoc.CodeInvalidArguments, taskdoc.CodeOf(err))
	assert.NoFileExists(t, filepath.Join(dir, workspace.MarkerFile))
	assert.NoFileExists(t, filepath.Join(dir, ".gitignore"))
}
