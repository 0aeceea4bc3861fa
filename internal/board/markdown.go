package board

import (
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// newMarkdown is the board's Markdown renderer: goldmark's defaults (no
// html.WithUnsafe, dangerous links dropped), with raw HTML shown as the
// text a person wrote instead of left out, so that a <script> in a task
// reads as text and never runs.
func newMarkdown() goldmark.Markdown {
	return goldmark.New(goldmark.WithRendererOptions(
		renderer.WithNodeRenderers(util.Prioritized(rawAsText{}, 100)),
	))
}

// rawAsText renders raw HTML, inline and in blocks, escaped.
type rawAsText struct{}

func (rawAsText) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindRawHTML, func(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			segs := n.(*ast.RawHTML).Segments
			for i := 0; i < segs.Len(); i++ {
				s := segs.At(i)
				w.Write(util.EscapeHTML(s.Value(src)))
			}
		}
		return ast.WalkSkipChildren, nil
	})
	reg.Register(ast.KindHTMLBlock, func(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		b := n.(*ast.HTMLBlock)
		w.WriteString("<pre class=\"raw-html\">")
		for i := 0; i < b.Lines().Len(); i++ {
			l := b.Lines().At(i)
			w.Write(util.EscapeHTML(l.Value(src)))
		}
		if b.HasClosure() {
			w.Write(util.EscapeHTML(b.ClosureLine.Value(src)))
		}
		w.WriteString("</pre>\n")
		return ast.WalkSkipChildren, nil
	})
}

type mdRenderer = goldmark.Markdown
