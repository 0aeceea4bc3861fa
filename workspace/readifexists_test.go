package workspace

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

// TestReadIfExists: a missing file is nil, an empty one empty, a bad name
// refused; Canonical gives every spelling through a linked folder one name.
func TestReadIfExists(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, "docs", "team"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "docs", "empty.md"), nil, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(root, "docs", "a.md"), []byte("# A\n"), 0o644))
	require.NoError(t, os.Symlink("team", filepath.Join(root, "docs", "shared")))
	ws, err := Open(root)
	require.NoError(t, err)
	defer ws.Close()
	err = ws.Lock(context.Background(), []string{"docs/a.md"}, func(tx *Tx) error {
		data, err := tx.ReadIfExists("docs/missing.md")
		assert.NoError(t, err)
		assert.Nil(t, data)
		data, err = tx.ReadIfExists("docs/empty.md")
		assert.NoError(t, err)
		assert.NotNil(t, data)
		assert.Empty(t, data)
		data, err = tx.ReadIfExists("docs/a.md")
		assert.NoError(t, err)
		assert.Equal(t, "# A\n", string(data))
		_, err = tx.ReadIfExists("../x.md")
		assert.Equal(t, taskdoc.CodeOutsideRoot, taskdoc.CodeOf(err))
		return nil
	})
	require.NoError(t, err)

	data, err := ws.ReadIfExists(context.Background(), "docs/missing.md")
	assert.NoError(t, err)
	assert.Nil(t, data)
	data, err = ws.ReadIfExists(context.Background(), "docs/empty.md")
	assert.NoError(t, err)
	assert.NotNil(t, data, "an empty file is empty, not missing")
	data, err = ws.ReadIfExists(context.Background(), "docs/a.md")
	assert.NoError(t, err)
	assert.Equal(t, "# A\n", string(data))

	a, err := ws.Canonical("docs/team/plan.md")
	require.NoError(t, err)
	b, err := ws.Canonical("docs/shared/plan.md")
	require.NoError(t, err)
	assert.Equal(t, "docs/team/plan.md", a)
	assert.Equal(t, a, b, "a link's spelling of a file is the file")
	upper, err := ws.Canonical("docs/shared/Plan.md")
	require.NoError(t, err)
	if caseIgnored(t, root) {
		assert.Equal(t, a, upper, "where case is ignored, Plan.md is plan.md")
	} else {
		assert.Equal(t, "docs/team/Plan.md", upper, "where case matters, Plan.md and plan.md are two files")
	}
	_, err = ws.Canonical("/abs.md")
	assert.Equal(t, taskdoc.CodeOutsideRoot, taskdoc.CodeOf(err))
}

// caseIgnored reports whether the file system of dir ignores case.
func caseIgnored(t *testing.T, dir string) bool {
	t.Helper()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "case-probe"), nil, 0o644))
	_, err := os.Stat(filepath.Join(dir, "CASE-PROBE"))
	require.NoError(t, os.Remove(filepath.Join(dir, "case-probe")))
	return err == nil
}
