package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// bigDocument is a document of n tasks, every tenth depending on the one
// before it.
func bigDocument(n int) string {
	var b strings.Builder
	b.WriteString("# Big\n\n## Tasks\n\n")
	for i := range n {
		fmt.Fprintf(&b, "### Task %d\n\n- Status: pending\n", i)
		if i%10 == 9 {
			fmt.Fprintf(&b, "- Depends-On: #task-%d\n", i-1)
		}
		fmt.Fprintf(&b, "\nDo the work of task %d, as @/other.md says.\n\n", i)
	}
	return b.String()
}

// benchSession is an in-process server, over pipes, with a 1,000-task
// document open and its first diagnostics in.
func benchSession(b *testing.B) *editorSession {
	root := workspaceDir(b)
	p := startInProcess(b, config{debounce: -1, noWatch: true})
	res := initialize(b, p.client, root, nil)
	s := &editorSession{t: b, c: p.client, root: root, enc: res.Capabilities.PositionEncoding}
	s.open("docs/big.md", bigDocument(1000))
	s.awaitDiagnostics(0)
	return s
}

// awaitDiagnostics waits for the diagnostics of the buffer's version
// among the messages from the from-th on.
func (s *editorSession) awaitDiagnostics(from int) {
	s.c.await("textDocument/publishDiagnostics", from, func(p json.RawMessage) bool {
		var d publishDiagnostics
		return json.Unmarshal(p, &d) == nil && d.URI == s.uri && d.Version != nil && *d.Version == s.version
	})
}

// One keystroke in a 1,000-task document, to the diagnostics of the new
// text back in the editor: the round trip an editor waits for.
func BenchmarkKeystrokeToDiagnostics(b *testing.B) {
	s := benchSession(b)
	at := s.at("Do the work of task 500")
	typed := lspRange{Start: at, End: position{Line: at.Line, Character: at.Character + 1}}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		s.version++
		change := contentChange{Range: &lspRange{Start: at, End: at}, Text: "x"}
		if i%2 == 1 {
			change = contentChange{Range: &typed}
		}
		from := s.c.count()
		s.c.notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": s.uri, "version": s.version},
			"contentChanges": []contentChange{change},
		})
		s.awaitDiagnostics(from)
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/keystroke")
}

// The outline of a 1,000-task document.
func BenchmarkDocumentSymbol(b *testing.B) {
	s := benchSession(b)
	params := map[string]any{"textDocument": map[string]any{"uri": s.uri}}
	for b.Loop() {
		var symbols []documentSymbol
		if err := s.c.call("textDocument/documentSymbol", params, &symbols); err != nil {
			b.Fatal(err)
		}
		if len(symbols) != 1 || len(symbols[0].Children) != 1000 {
			b.Fatalf("got %d symbols", len(symbols))
		}
	}
}

// The code actions of a task in the middle of a 1,000-task document.
func BenchmarkCodeAction(b *testing.B) {
	s := benchSession(b)
	at := s.at("### Task 500")
	params := map[string]any{
		"textDocument": map[string]any{"uri": s.uri},
		"range":        lspRange{Start: at, End: at},
		"context":      map[string]any{"diagnostics": []any{}},
	}
	for b.Loop() {
		var actions []codeAction
		if err := s.c.call("textDocument/codeAction", params, &actions); err != nil {
			b.Fatal(err)
		}
		if len(actions) == 0 {
			b.Fatal("no code actions")
		}
	}
}
