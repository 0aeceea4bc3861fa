// Package filetest is a test helper: the files of a test's workspace
// written, read and listed in one call each, failing the test on any
// error. Names are slash-separated and relative to the root, as the
// workspace takes them.
package filetest

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"
)

// Write writes content to name under root, making its folders.
func Write(t testing.TB, root, name, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(name))
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
}

// WriteAll writes each file of files (name: content) under root.
func WriteAll(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		Write(t, root, name, content)
	}
}

// Read returns the content of name under root.
func Read(t testing.TB, root, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
	require.NoError(t, err)
	return string(data)
}

// Snapshot returns every file under root (name: content; a symbolic link
// as "symlink -> target") except the library's own state in .taskmd/, so
// that a test can tell that a failed call changed nothing.
func Snapshot(t testing.TB, root string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == ".taskmd" {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(p)
			files[rel] = "symlink -> " + target
			return err
		}
		data, err := os.ReadFile(p)
		files[rel] = string(data)
		return err
	})
	require.NoError(t, err)
	return files
}

// Under lists the files below dir (root-relative), root-relative and
// sorted; a missing dir has none.
func Under(t testing.TB, root, dir string) []string {
	t.Helper()
	var names []string
	err := filepath.WalkDir(filepath.Join(root, filepath.FromSlash(dir)), func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return filepath.SkipDir
		}
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(root, p)
		names = append(names, filepath.ToSlash(rel))
		return err
	})
	require.NoError(t, err)
	sort.Strings(names)
	return names
}
