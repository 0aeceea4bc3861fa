package workspace

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// A candidate name that holds exactly the data is a finished earlier copy
// only if it is another file: reached through a folder link inside the
// root, or named by base, the original itself is never "reused" and then
// removed.
func TestMoveAsideNeverReusesTheOriginal(t *testing.T) {
	const text = "# A\n\n## Tasks\n\n### Keep me\n\n- Status: pending\n"
	cases := map[string]struct {
		setup func(t *testing.T, root string)
		base  string
	}{
		"folder link inside the root": {
			setup: func(t *testing.T, root string) {
				require.NoError(t, os.MkdirAll(filepath.Join(root, "archived"), 0o755))
				require.NoError(t, os.Symlink("../docs", filepath.Join(root, "archived", "docs")))
			},
			base: "archived/docs/a",
		},
		"base names the original": {
			setup: func(*testing.T, string) {},
			base:  "docs/a",
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			require.NoError(t, os.MkdirAll(filepath.Join(root, "docs"), 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(root, "docs", "a.md"), []byte(text), 0o644))
			c.setup(t, root)
			ws, err := Open(root)
			require.NoError(t, err)
			defer ws.Close()

			var dest string
			err = ws.Lock(context.Background(), []string{"docs/a.md"}, func(tx *Tx) error {
				data, _, err := tx.Read("docs/a.md")
				if err != nil {
					return err
				}
				dest, err = tx.MoveAside("docs/a.md", data, c.base)
				return err
			})
			if err != nil {
				got, rerr := os.ReadFile(filepath.Join(root, "docs", "a.md"))
				require.NoError(t, rerr, "MoveAside failed (%v) and the original is gone", err)
				require.Equal(t, text, string(got))
				return
			}
			got, rerr := os.ReadFile(filepath.Join(root, filepath.FromSlash(dest)))
			require.NoError(t, rerr, "MoveAside reported the copy %s, which does not exist: the file is lost", dest)
			require.Equal(t, text, string(got))
		})
	}
}
