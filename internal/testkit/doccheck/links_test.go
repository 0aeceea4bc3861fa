package doccheck

import (
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yuin/goldmark/ast"

	"github.com/taskmd/taskmd/taskdoc"
)

// TestRelativeLinksExist checks that every relative link of README.md and
// docs/*.md names a file or folder of the repository, and that a #fragment
// into a Markdown page names one of its headings.
func TestRelativeLinksExist(t *testing.T) {
	root := repoRoot(t)
	all := pages(t, root)
	anchors := map[string]map[string]bool{}
	for _, p := range all {
		anchors[p.name] = headingAnchors(p)
	}
	links := 0
	for _, p := range all {
		for _, l := range p.links() {
			u, err := url.Parse(l.dest)
			if err != nil {
				t.Errorf("%s:%d: link %q: %v", p.name, l.line, l.dest, err)
				continue
			}
			if u.Scheme != "" || u.Host != "" {
				continue // not relative
			}
			links++
			target := p.name
			if u.Path != "" {
				target = path.Clean(path.Join(path.Dir(p.name), u.Path))
			}
			if strings.HasPrefix(target, "../") {
				t.Errorf("%s:%d: link %q leaves the repository", p.name, l.line, l.dest)
				continue
			}
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(target))); err != nil {
				t.Errorf("%s:%d: link %q: no file %s", p.name, l.line, l.dest, target)
				continue
			}
			if u.Fragment != "" && strings.HasSuffix(target, ".md") {
				if a, ok := anchors[target]; ok && !a[u.Fragment] {
					t.Errorf("%s:%d: link %q: %s has no heading #%s", p.name, l.line, l.dest, target, u.Fragment)
				}
			}
		}
	}
	if links == 0 {
		t.Fatal("no relative link in README.md or docs/*.md: the pages were not read")
	}
}

type link struct {
	dest string
	line int
}

// links returns the destinations of the page's links and images.
func (p page) links() []link {
	var out []link
	_ = ast.Walk(p.doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		var dest []byte
		switch n := n.(type) {
		case *ast.Link:
			dest = n.Destination
		case *ast.Image:
			dest = n.Destination
		default:
			return ast.WalkContinue, nil
		}
		out = append(out, link{dest: string(dest), line: p.lineOfNode(n)})
		return ast.WalkContinue, nil
	})
	return out
}

// lineOfNode is the line of the first text inside n, or of its block.
func (p page) lineOfNode(n ast.Node) int {
	for c := n; c != nil; c = c.Parent() {
		if c.Type() == ast.TypeBlock && c.Lines().Len() > 0 {
			return lineOf(p.src, c.Lines().At(0).Start)
		}
		if t, ok := c.(*ast.Text); ok {
			return lineOf(p.src, t.Segment.Start)
		}
		if c != n {
			continue
		}
		for k := n.FirstChild(); k != nil; k = k.FirstChild() {
			if t, ok := k.(*ast.Text); ok {
				return lineOf(p.src, t.Segment.Start)
			}
		}
	}
	return 0
}

// headingAnchors are the anchors GitHub gives the page's headings: the
// slug of each, a repeated one with -1, -2, ...
func headingAnchors(p page) map[string]bool {
	seen := map[string]int{}
	out := map[string]bool{}
	_ = ast.Walk(p.doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		h, ok := n.(*ast.Heading)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		var text strings.Builder
		_ = ast.Walk(h, func(k ast.Node, entering bool) (ast.WalkStatus, error) {
			switch k := k.(type) {
			case *ast.Text:
				if entering {
					text.Write(k.Segment.Value(p.src))
				}
			case *ast.CodeSpan:
				if entering {
					for c := k.FirstChild(); c != nil; c = c.NextSibling() {
						if t, ok := c.(*ast.Text); ok {
							text.Write(t.Segment.Value(p.src))
						}
					}
					return ast.WalkSkipChildren, nil
				}
			}
			return ast.WalkContinue, nil
		})
		slug := taskdoc.Slug(text.String())
		if n := seen[slug]; n > 0 {
			out[fmt.Sprintf("%s-%d", slug, n)] = true
		} else {
			out[slug] = true
		}
		seen[slug]++
		return ast.WalkSkipChildren, nil
	})
	return out
}
