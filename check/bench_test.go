package check_test

import (
	"context"
	"testing"

	"github.com/taskmd/taskmd/check"
	"github.com/taskmd/taskmd/internal/testkit/benchsuite"
	"github.com/taskmd/taskmd/internal/testkit/floor"
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
			if err := floor.ReadAndParse(root); err != nil {
				b.Fatal(err)
			}
		}
	})
}
