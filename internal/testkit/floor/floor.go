// Package floor holds what taskmd's benchmarks measure it against: the
// least any program pays to do the same job with the same bytes. A
// benchmark that reports an operation next to its floor uses these, so
// that every floor of one kind is the same code.
package floor

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/text"

	"github.com/taskmd/taskmd/taskdoc"
)

// Parse is a goldmark parse of src, without front matter, outline or
// tasks: the parse any reader of Markdown pays, with one parser made once
// (making one costs as much as parsing a small document; a goldmark
// parser serves concurrent parses).
func Parse(src []byte) {
	parser.Parse(text.NewReader(src))
}

var parser = goldmark.New().Parser()

// DurableWrite replaces the file name with data the way taskmd's
// workspace does at the least: a temporary file beside it, fsync, rename,
// fsync of the folder.
func DurableWrite(name string, data []byte) error {
	dir := filepath.Dir(name)
	f, err := os.CreateTemp(dir, ".floor-*")
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(f.Name(), name); err != nil {
		return err
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// ReadAndParse reads every document under root's docs/ and parses it with
// taskdoc: what any face pays to show every task of a workspace from
// scratch.
func ReadAndParse(root string) error {
	return filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d fs.DirEntry, err error) error {
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
}
