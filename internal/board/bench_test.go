package board_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/taskmd/taskmd/internal/board"
	"github.com/taskmd/taskmd/internal/testkit/benchsuite"
	"github.com/taskmd/taskmd/internal/testkit/floor"
	"github.com/taskmd/taskmd/workspace"
)

// BenchmarkBoardIndex renders the board's plans page ("/") of a generated
// workspace of 2,000 documents, warm: the board has read the workspace
// once, and each page reads every file again and renders the whole page,
// parsing and rendering only what changed (nothing). Floor: reading and
// parsing every document with taskdoc.Parse, in the same run, which a
// board without its cache would pay on every page.
func BenchmarkBoardIndex(b *testing.B) {
	root := b.TempDir()
	if err := benchsuite.WriteWorkspace(root, 2000); err != nil {
		b.Fatal(err)
	}
	ws, err := workspace.Open(root)
	if err != nil {
		b.Fatal(err)
	}
	defer ws.Close()
	srv, err := board.New(ws, board.Options{Token: "t"})
	if err != nil {
		b.Fatal(err)
	}
	h := srv.Handler()
	b.Run("index, warm", func(b *testing.B) {
		var size int
		for b.Loop() {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
			if rec.Code != http.StatusOK {
				b.Fatal(rec.Code, rec.Body.String())
			}
			size = rec.Body.Len()
		}
		b.ReportMetric(float64(size)/1e6, "MB/page")
	})
	b.Run("index, cold: a new board", func(b *testing.B) {
		for b.Loop() {
			ws, err := workspace.Open(root)
			if err != nil {
				b.Fatal(err)
			}
			srv, err := board.New(ws, board.Options{Token: "t"})
			if err != nil {
				b.Fatal(err)
			}
			rec := httptest.NewRecorder()
			srv.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
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
