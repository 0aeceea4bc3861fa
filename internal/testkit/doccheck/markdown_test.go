package doccheck

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// page is one Markdown file of the documentation, parsed.
type page struct {
	name string // relative to the repository, with slashes
	src  []byte
	doc  ast.Node
}

// repoRoot is the folder of the module's go.mod, found upward from the
// test's folder.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	require.NoError(t, err)
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.HasPrefix(data, []byte("module github.com/taskmd/taskmd\n")) {
			return dir
		}
		parent := filepath.Dir(dir)
		require.NotEqual(t, dir, parent, "no go.mod of github.com/taskmd/taskmd above the test's folder")
		dir = parent
	}
}

// pages reads README.md and docs/*.md.
func pages(t *testing.T, root string) []page {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	require.NoError(t, err)
	names = append([]string{filepath.Join(root, "README.md")}, names...)
	var out []page
	for _, name := range names {
		src, err := os.ReadFile(name)
		require.NoError(t, err)
		rel, err := filepath.Rel(root, name)
		require.NoError(t, err)
		out = append(out, page{
			name: filepath.ToSlash(rel),
			src:  src,
			doc:  goldmark.DefaultParser().Parse(text.NewReader(src)),
		})
	}
	return out
}

// lineOf is the 1-based line of offset in src.
func lineOf(src []byte, offset int) int {
	return bytes.Count(src[:offset], []byte("\n")) + 1
}

// codeBlock is a fenced block's text and the line of its first line.
type codeBlock struct {
	code string
	line int
}

// fenced returns the page's fenced code blocks whose info string starts
// with the word lang.
func (p page) fenced(lang string) []codeBlock {
	var out []codeBlock
	_ = ast.Walk(p.doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		b, ok := n.(*ast.FencedCodeBlock)
		if !entering || !ok || string(b.Language(p.src)) != lang {
			return ast.WalkContinue, nil
		}
		var code strings.Builder
		lines := b.Lines()
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			code.Write(seg.Value(p.src))
		}
		line := lineOf(p.src, b.Info.Segment.Start) + 1
		if lines.Len() > 0 {
			line = lineOf(p.src, lines.At(0).Start)
		}
		out = append(out, codeBlock{code: code.String(), line: line})
		return ast.WalkSkipChildren, nil
	})
	return out
}
