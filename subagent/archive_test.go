package subagent_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/internal/hooks"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/subagent"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// readFile returns the text of a file under root, and false when it does
// not exist.
func readFile(t *testing.T, root, name string) (string, bool) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
	if errors.Is(err, fs.ErrNotExist) {
		return "", false
	}
	require.NoError(t, err)
	return string(data), true
}

func TestArchive(t *testing.T) {
	const auth = "---\ntitle: Auth\n---\n# Auth\n\n## Tasks\n\n### Sign\n\n+ Status: pending\n"
	tasks, root := setup(t, map[string]string{"docs/api/auth.md": auth})

	name, err := tasks.Archive(bg, "/api/auth.md")
	require.NoError(t, err)
	assert.Equal(t, "archived/docs/api/auth.md", name)
	text, _ := readFile(t, root, name)
	assert.Equal(t, auth, text, "moved byte for byte")
	_, ok := readFile(t, root, "docs/api/auth.md")
	assert.False(t, ok)

	// A new document at the same path archives beside the first.
	filetest.Write(t, root, "docs/api/auth.md", auth+"\n### Verify\n")
	name, err = tasks.Archive(bg, "/api/auth.md")
	require.NoError(t, err)
	assert.Equal(t, "archived/docs/api/auth-2.md", name)
	assert.Equal(t, []string{"archived/docs/api/auth-2.md", "archived/docs/api/auth.md"}, filetest.Under(t, root, "archived"))
}

// TestArchiveAfterCrash: a crash after the copy left both files; archiving
// again removes the document and keeps the one copy.
func TestArchiveAfterCrash(t *testing.T) {
	tasks, root := setup(t, map[string]string{
		"docs/api/auth.md":            "v2",
		"archived/docs/api/auth.md":   "v1",
		"archived/docs/api/auth-2.md": "v2",
	})
	name, err := tasks.Archive(bg, "/api/auth.md")
	require.NoError(t, err)
	assert.Equal(t, "archived/docs/api/auth-2.md", name)
	assert.Equal(t, []string{"archived/docs/api/auth-2.md", "archived/docs/api/auth.md"}, filetest.Under(t, root, "archived"))
	_, ok := readFile(t, root, "docs/api/auth.md")
	assert.False(t, ok)
}

func TestArchiveRefusals(t *testing.T) {
	files := map[string]string{"docs/api/auth.md": "# Auth\n", coordinator.File: "# Coordinator Tasks\n"}
	tests := []struct {
		document string
		code     taskdoc.Code
	}{
		{"/api/auth.md#sign", taskdoc.CodeInvalidAddress},
		{"/coordinator/active.md", taskdoc.CodeInvalidAddress},
		{"/archived/docs/api/auth.md", taskdoc.CodeInvalidAddress},
		{"/../../etc/passwd.md", taskdoc.CodeInvalidAddress},
		{"/api/auth.txt", taskdoc.CodeInvalidAddress},
		{"", taskdoc.CodeInvalidAddress},
		{"/api/missing.md", taskdoc.CodeDocumentNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.document, func(t *testing.T) {
			tasks, root := setup(t, files)
			_, err := tasks.Archive(bg, tt.document)
			requireCode(t, err, tt.code)
			assert.Empty(t, filetest.Under(t, root, "archived"))
			text, _ := readFile(t, root, "docs/api/auth.md")
			assert.Equal(t, "# Auth\n", text)
		})
	}
}

// When archived/docs is a link to docs (inside the root, so it is allowed),
// the archive name for /a.md is the document itself: Archive must never
// take the original for its own copy and remove it.
func TestArchiveThroughFolderLinkLosesNothing(t *testing.T) {
	const text = "# A\n\n## Tasks\n\n### Keep me\n\n- Status: pending\n"
	tasks, root := setup(t, map[string]string{"docs/a.md": text})
	require.NoError(t, os.MkdirAll(filepath.Join(root, "archived"), 0o755))
	require.NoError(t, os.Symlink("../docs", filepath.Join(root, "archived", "docs")))

	name, err := tasks.Archive(bg, "/a.md")
	if err != nil {
		got, rerr := os.ReadFile(filepath.Join(root, "docs", "a.md"))
		require.NoError(t, rerr, "Archive failed (%v) and removed the document", err)
		require.Equal(t, text, string(got))
		return
	}
	got, rerr := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
	require.NoError(t, rerr, "Archive archived to %s, which does not exist: the document is lost", name)
	require.Equal(t, text, string(got))
}

// A person (or a tool that takes no lock) may save the document while its
// archive copy is being written. Removing it then would lose that edit, so
// it is kept and Archive reports CONFLICT; the archive holds the version
// before the edit.
func TestArchiveKeepsAnEditMadeMeanwhile(t *testing.T) {
	const text, edited = "# Auth\n\n## Tasks\n", "# Auth\n\n## Tasks\n\n### added by hand\n"
	tasks, root := setup(t, map[string]string{"docs/api/auth.md": text})
	hooks.BeforeRemoveUnchanged = func() { filetest.Write(t, root, "docs/api/auth.md", edited) }
	defer func() { hooks.BeforeRemoveUnchanged = func() {} }()

	_, err := tasks.Archive(bg, "/api/auth.md")
	requireCode(t, err, taskdoc.CodeConflict)
	assert.Equal(t, edited, filetest.Read(t, root, "docs/api/auth.md"), "the edited document was removed")
	copies := filetest.Under(t, root, "archived")
	require.Len(t, copies, 1)
	assert.Equal(t, text, filetest.Read(t, root, copies[0]))
}

// A file that cannot be read where archives live does not stop a document
// from being archived: it gets the next free name.
func TestArchiveBesideAnUnreadableArchive(t *testing.T) {
	tasks, root := setup(t, map[string]string{"docs/a.md": "# A\n", "archived/docs/a.md/x": "folder"})
	name, err := tasks.Archive(bg, "/a.md")
	require.NoError(t, err)
	assert.Equal(t, "archived/docs/a-2.md", name)
	assert.Equal(t, "# A\n", filetest.Read(t, root, name))
	_, exists := readFile(t, root, "docs/a.md")
	assert.False(t, exists)
}

// Archive a docs document by hand.
func ExampleTasks_Archive() {
	root, err := os.MkdirTemp("", "archive-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(root)
	if err := os.MkdirAll(filepath.Join(root, "docs", "api"), 0o755); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "docs", "api", "auth.md"), []byte("# Auth\n"), 0o644); err != nil {
		log.Fatal(err)
	}
	ws, err := workspace.Open(root)
	if err != nil {
		log.Fatal(err)
	}
	defer ws.Close()

	name, err := subagent.New(ws).Archive(context.Background(), "/api/auth.md")
	if err != nil {
		log.Fatal(err)
	}
	_, err = os.Stat(filepath.Join(root, "docs", "api", "auth.md"))
	fmt.Println(name, os.IsNotExist(err))
	// Output:
	// archived/docs/api/auth.md true
}
