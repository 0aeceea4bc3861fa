package query_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/query"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// benchDocuments is the size of the generated workspace.
const benchDocuments = 1000

// benchWorkspace writes benchDocuments documents of four tasks each, in
// 20 folders, and the coordinator list.
func benchWorkspace(b *testing.B) (*workspace.Workspace, string) {
	b.Helper()
	files := map[string]string{}
	statuses := []string{"pending", "in_progress", "completed", "blocked"}
	for i := range benchDocuments {
		var sb strings.Builder
		fmt.Fprintf(&sb, "# Document %d\n\nSome overview text about area %d.\n\n## Tasks\n\n", i, i%20)
		for k := range 4 {
			fmt.Fprintf(&sb, "### Task %d of %d\n\n- Status: %s\n- Workflow: wf-%d\n", k, i, statuses[(i+k)%4], k)
			if k > 0 {
				fmt.Fprintf(&sb, "- Depends-On: #task-%d-of-%d\n", k-1, i)
			}
			fmt.Fprintf(&sb, "\nImplement part %d of feature %d, with tests and docs. See @/specs/s%d.md.\n\n", k, i, i%7)
		}
		files[fmt.Sprintf("docs/area-%02d/doc-%04d.md", i%20, i)] = sb.String()
	}
	files["coordinator/active.md"] = "# Coordinator Tasks\n\n## Tasks\n\n### Plan\n\n- Main-Workflow: m\n"
	ws, root := newWorkspace(b, files)
	return ws, root
}

// BenchmarkFloor reads every file of the workspace without parsing: what
// any query over all documents costs at least.
func BenchmarkFloor(b *testing.B) {
	_, root := benchWorkspace(b)
	b.ResetTimer()
	for b.Loop() {
		n := 0
		err := filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(p)
			n += len(data)
			return err
		})
		require.NoError(b, err)
		require.NotZero(b, n)
	}
}

func BenchmarkDocuments(b *testing.B) {
	ws, _ := benchWorkspace(b)
	b.ResetTimer()
	for b.Loop() {
		docs, err := query.Documents(bg, ws)
		require.NoError(b, err)
		require.Len(b, docs, benchDocuments+1)
	}
}

func BenchmarkFind(b *testing.B) {
	ws, _ := benchWorkspace(b)
	for _, bm := range []struct {
		name   string
		filter query.Filter
		want   int
	}{
		{"status", query.Filter{Statuses: []taskdoc.Status{taskdoc.StatusInProgress}}, benchDocuments},
		{"text", query.Filter{Text: "PART 3 OF FEATURE 99,"}, 1},
		{"folder", query.Filter{Document: "/area-07/", Statuses: []taskdoc.Status{taskdoc.StatusBlocked}}, benchDocuments / 20},
		{"document", query.Filter{Document: "/area-07/doc-0007.md"}, 4},
	} {
		b.Run(bm.name, func(b *testing.B) {
			for b.Loop() {
				got, err := query.Find(bg, ws, bm.filter)
				require.NoError(b, err)
				require.Len(b, got, bm.want)
			}
		})
	}
}
