//go:build !linux

package workspace

import (
	"io/fs"
	"os"
)

// readDir lists the folder name of root as its fs.FS does.
func readDir(root *os.Root, name string) ([]fs.DirEntry, error) {
	return fs.ReadDir(root.FS(), name)
}
