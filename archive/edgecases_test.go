package archive_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/archive"
)

// When archived/docs is a link to docs (inside the root, so it is allowed),
// the archive name for /a.md is the document itself: Document must never
// take the original for its own copy and remove it.
func TestDocumentThroughFolderLinkLosesNothing(t *testing.T) {
	const text = "# A\n\n## Tasks\n\n### Keep me\n\n- Status: pending\n"
	ws, root := newWorkspace(t, map[string]string{"docs/a.md": text})
	require.NoError(t, os.MkdirAll(filepath.Join(root, "archived"), 0o755))
	require.NoError(t, os.Symlink("../docs", filepath.Join(root, "archived", "docs")))

	name, err := archive.Document(bg, ws, "/a.md")
	if err != nil {
		got, rerr := os.ReadFile(filepath.Join(root, "docs", "a.md"))
		require.NoError(t, rerr, "Document failed (%v) and removed the document", err)
		require.Equal(t, text, string(got))
		return
	}
	got, rerr := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
	require.NoError(t, rerr, "Document archived to %s, which does not exist: the document is lost", name)
	require.Equal(t, text, string(got))
}
