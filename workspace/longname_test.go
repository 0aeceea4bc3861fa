package workspace

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A legal name stays writable: the temporary file beside it has a short
// name of its own, however long the target's base name is (up to the 255
// bytes most file systems allow for one element).
func TestLongNamesCanBeWritten(t *testing.T) {
	ctx := context.Background()
	for _, n := range []int{200, 240, 255} {
		base := strings.Repeat("a", n-len(".md")) + ".md"
		require.Len(t, base, n)
		t.Run(strconv.Itoa(n)+" bytes", func(t *testing.T) {
			ws, dir := newWorkspace(t)
			if n == 255 {
				requireNameLimit255(t, dir)
			}
			name := "docs/" + base
			_, err := ws.Update(ctx, name, func([]byte, bool) ([]byte, error) { return []byte("# One\n"), nil })
			require.NoError(t, err, "create by Update")
			_, err = ws.Update(ctx, name, func([]byte, bool) ([]byte, error) { return []byte("# Two\n"), nil })
			require.NoError(t, err, "replace by Update")
			got, _, err := ws.Read(ctx, name)
			require.NoError(t, err)
			assert.Equal(t, "# Two\n", string(got))

			archived := "archived/docs/" + base
			err = ws.Lock(ctx, []string{name}, func(tx *Tx) error {
				require.NoError(t, tx.Create(archived, []byte("# Copy\n")), "Tx.Create")
				require.NoError(t, tx.Write(name, []byte("# Three\n")), "Tx.Write")
				return nil
			})
			require.NoError(t, err)
			names, err := ws.List(ctx, "archived/docs")
			require.NoError(t, err)
			assert.Equal(t, []string{archived}, names)
			assert.Empty(t, tempFiles(t, dir))
		})
	}
}

// requireNameLimit255 skips a test on a file system that takes names over
// 255 bytes, where it would prove nothing.
func requireNameLimit255(t *testing.T, dir string) {
	t.Helper()
	long := filepath.Join(dir, strings.Repeat("b", 256))
	if err := os.WriteFile(long, nil, 0o644); err == nil {
		os.Remove(long)
		t.Skip("the file system takes names over 255 bytes")
	}
}
