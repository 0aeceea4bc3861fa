package taskdoc_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

func TestAddressOfFile(t *testing.T) {
	for _, tt := range []struct{ file, want string }{
		{"docs/api/auth.md", "/api/auth.md"},
		{"docs/README.md", "/README.md"},
		{"coordinator/active.md", "/coordinator/active.md"},
		{"archived/docs/x.md", "/archived/docs/x.md"},
		{"archived/coordinator/active-2026-11-22-093000.md", "/archived/coordinator/active-2026-11-22-093000.md"},
		{"docs/notes/coordinators.md", "/notes/coordinators.md"},
		{"docs/ünï code/ä.md", "/ünï code/ä.md"},
	} {
		a, err := taskdoc.AddressOfFile(tt.file)
		require.NoError(t, err, tt.file)
		assert.Equal(t, tt.want, a.String(), tt.file)
		assert.Equal(t, tt.file, a.File(), "round trip of %s", tt.file)
	}
}

func TestAddressOfFileRefuses(t *testing.T) {
	for _, file := range []string{
		"", "docs", "docs/", "auth.md", "/docs/api/auth.md", "workflows/tdd.md", "Docs/a.md",
		"Coordinator/active.md", "docs/api/auth.txt", "docs/.md", "docs/a/../b.md", "docs/./b.md",
		"docs//b.md", `docs\b.md`, "docs/a#b.md", "docs/coordinator/x.md", "docs/Archived/x.md",
		"docs/a\x00.md", "docs/\xff.md", ".taskmd/claims/x.md",
	} {
		_, err := taskdoc.AddressOfFile(file)
		require.Error(t, err, "%q", file)
		assert.Equal(t, taskdoc.CodeInvalidAddress, taskdoc.CodeOf(err), "%q", file)
		var e *taskdoc.Error
		require.ErrorAs(t, err, &e)
		assert.Equal(t, file, e.Path)
		assert.True(t, strings.HasPrefix(e.Error(), "file "), e.Error())
	}
}

// FuzzAddressOfFile checks the two functions are inverse: an address whose
// folder is written as File writes it comes back from its file, and a file
// name that has an address is that address's file.
func FuzzAddressOfFile(f *testing.F) {
	for _, s := range []string{"/api/auth.md", "/coordinator/active.md", "/archived/docs/x.md",
		"/Coordinator/x.md", "/a/b/c.md", "docs/a.md", "archived/x.md", "/ä.md#slug"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if a, err := taskdoc.ParseAddress(s); err == nil {
			a.Slug = ""
			got, err := taskdoc.AddressOfFile(a.File())
			if strings.ContainsRune(a.Path, '#') {
				return
			}
			require.NoError(t, err, "address %q, file %q", a.Path, a.File())
			assert.Equal(t, a.File(), got.File())
			if a.Folder() == taskdoc.FolderDocs || strings.HasPrefix(a.Path, "/"+a.Folder()+"/") {
				assert.Equal(t, a, got)
			}
		}
		if a, err := taskdoc.AddressOfFile(s); err == nil {
			assert.Equal(t, s, a.File())
			back, err := taskdoc.ParseAddress(a.String())
			require.NoError(t, err)
			assert.Equal(t, a, back)
		}
	})
}
