package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeWorkspace writes files (root-relative name -> text) into a new
// folder.
func writeWorkspace(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	return root
}

// A document that query.Documents lists with an error and no address (a
// file under docs/ that no address can name) is listed, text and --json,
// under its file name; so is a broken one with an address.
func TestListShowsBrokenDocuments(t *testing.T) {
	root := writeWorkspace(t, map[string]string{
		"docs/a.md":             "# A\n\n## Tasks\n\n### X\n",
		"docs/coordinator/x.md": "# X\n\n## Tasks\n\n### Y\n",
		"docs/bad.md":           "## Tasks\n\n### B\xff\n",
	})
	r := taskmd(t, root, "", "--json", "list")
	require.Equal(t, 0, r.exit, r.stderr)
	var list struct {
		Documents []map[string]any `json:"documents"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &list))
	byFile := map[string]map[string]any{}
	for _, d := range list.Documents {
		byFile[d["file"].(string)] = d
	}
	require.Contains(t, byFile, "docs/coordinator/x.md")
	assert.Equal(t, "", byFile["docs/coordinator/x.md"]["address"])
	assert.Equal(t, "INVALID_ADDRESS", byFile["docs/coordinator/x.md"]["code"])
	require.Contains(t, byFile, "docs/bad.md")
	assert.Equal(t, "INVALID_UTF8", byFile["docs/bad.md"]["code"])
	assert.Len(t, list.Documents, 3)

	r = taskmd(t, root, "", "list")
	require.Equal(t, 0, r.exit, r.stderr)
	assert.Contains(t, r.stdout, "docs/coordinator/x.md  -  INVALID_ADDRESS: ")
	assert.Contains(t, r.stdout, "/bad.md                -  INVALID_UTF8: ")

	r = taskmd(t, root, "", "list", "/coordinator/")
	require.Equal(t, 0, r.exit, r.stderr)
	assert.Empty(t, r.stdout, "docs/coordinator/ is not /coordinator/")
}

// A folder is read the same with or without its slashes, by every command
// that takes one.
func TestFolderWithoutSlashes(t *testing.T) {
	root := writeWorkspace(t, map[string]string{
		"docs/api/a.md":   "# A\n\n## Tasks\n\n### X\n",
		"docs/other/b.md": "# B\n\n## Tasks\n\n### Y\n",
	})
	for _, args := range [][]string{
		{"list", "FOLDER"},
		{"list", "FOLDER", "--status", "pending"},
		{"ready", "FOLDER"},
		{"find", "--in", "FOLDER"},
	} {
		var want result
		for i, spelling := range []string{"/api/", "api", "api/", "/api"} {
			line := make([]string, len(args))
			for j, a := range args {
				if a == "FOLDER" {
					a = spelling
				}
				line[j] = a
			}
			r := taskmd(t, root, "", line...)
			assert.Equal(t, 0, r.exit, "%v: %s", line, r.stderr)
			if i == 0 {
				want = r
				assert.Contains(t, r.stdout, "/api/a.md", line)
				assert.NotContains(t, r.stdout, "/other/", line)
				continue
			}
			assert.Equal(t, want, r, line)
		}
	}
	r := taskmd(t, root, "", "list", "a//b")
	assert.Equal(t, exitInvalid, r.exit, r.stderr)
}
