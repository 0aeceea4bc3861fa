package taskflow_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// owners is the package that declares each error code that is not a
// document's: the one whose rule answers it. The packages that export a
// code of a package below them do so by name, not by writing it again.
var owners = map[string]string{
	"AGENT_NOT_FOUND":    "agent",
	"STALE_CLAIM":        "internal/claims",
	"TASK_BLOCKED":       "taskdoc",
	"NO_ACK":             "worker",
	"SUSPENDED":          "worker",
	"GIT_ERROR":          "internal/git",
	"WORKTREE_NOT_FOUND": "worktree",
	"MERGE_CONFLICT":     "merge",
}

// TestCodesDeclaredOnce reads the constants of type Code written with a
// string in every package's non-test files: each code is declared in one
// package, and the codes above the documents in the package of owners.
func TestCodesDeclaredOnce(t *testing.T) {
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	declared := map[string][]string{} // code -> packages that write it
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "examples") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		require.NoError(t, err)
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				v := spec.(*ast.ValueSpec)
				if !isCode(v.Type) {
					continue
				}
				for _, val := range v.Values {
					if lit, ok := val.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						code, err := strconv.Unquote(lit.Value)
						require.NoError(t, err)
						declared[code] = append(declared[code], filepath.ToSlash(rel))
					}
				}
			}
		}
		return nil
	})
	require.NoError(t, err)
	require.Contains(t, declared, "TASK_NOT_FOUND", "the walk found taskdoc's codes")
	for code, pkgs := range declared {
		assert.Len(t, pkgs, 1, "%s is declared in %v", code, pkgs)
		if owner, ok := owners[code]; ok {
			assert.Equal(t, []string{owner}, pkgs, "%s belongs to the package whose rule answers it", code)
		}
	}
	for code := range owners {
		assert.Contains(t, declared, code, "%s is declared nowhere", code)
	}
}

// isCode reports whether a constant's type is taskdoc.Code (Code inside
// taskdoc).
func isCode(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name == "Code"
	case *ast.SelectorExpr:
		x, ok := e.X.(*ast.Ident)
		return ok && x.Name == "taskdoc" && e.Sel.Name == "Code"
	}
	return false
}
