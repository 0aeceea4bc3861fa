package check_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taskmd/taskmd/check"
	"github.com/taskmd/taskmd/internal/testkit/benchsuite"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// BenchmarkCheck checks a generated workspace of 2,000 documents (every
// one with tasks under way, dependencies and references), warm: the files
// are in the page cache, each check a new Workspace. Floor: reading and
// parsing every document with taskdoc.Parse, in the same run.
func BenchmarkCheck(b *testing.B) {
	root := b.TempDir()
	if err := benchsuite.WriteWorkspace(root, 2000); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.Run("check", func(b *testing.B) {
		for b.Loop() {
			ws, err := workspace.Open(root)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := check.Run(ctx, ws); err != nil {
				b.Fatal(err)
			}
			ws.Close()
		}
	})
	b.Run("floor: read + taskdoc.Parse", func(b *testing.B) {
		for b.Loop() {
			err := filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
					return err
				}
				data, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				_, err = taskdoc.Parse(data)
				return err
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	})
}
