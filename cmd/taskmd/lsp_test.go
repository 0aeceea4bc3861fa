package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// taskmd lsp runs taskmd-lsp from PATH with its arguments and the tool's
// stdin, stdout and stderr, and exits with its status.
func TestLspRunsTaskmdLsp(t *testing.T) {
	bin := t.TempDir()
	script := "#!/bin/sh\necho \"args: $*\"\necho \"in: $(cat)\"\necho oops >&2\nexit 7\n"
	require.NoError(t, os.WriteFile(filepath.Join(bin, "taskmd-lsp"), []byte(script), 0o755))
	cmdPath := "PATH=" + bin + string(os.PathListSeparator) + "/usr/bin" + string(os.PathListSeparator) + "/bin"
	r := taskmdStdin(t, t.TempDir(), []string{cmdPath}, "hello", "lsp", "--stdio", "-v")
	assert.Equal(t, 7, r.exit)
	assert.Equal(t, "args: --stdio -v\nin: hello\n", r.stdout)
	assert.Equal(t, "oops\n", r.stderr)
}

// Missing, it says how to install it: exit 3, NOT_INSTALLED.
func TestLspNotInstalled(t *testing.T) {
	r := taskmdStdin(t, t.TempDir(), []string{"PATH=" + t.TempDir()}, "", "lsp")
	assert.Equal(t, exitNotFound, r.exit)
	assert.Contains(t, r.stderr, "NOT_INSTALLED")
	assert.Contains(t, r.stderr, "cd cmd/taskmd-lsp && go install .")
	assert.Empty(t, r.stdout)
}
