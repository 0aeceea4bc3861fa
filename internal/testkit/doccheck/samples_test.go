package doccheck

import (
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// stdPackages are the standard library packages a sample may use without
// importing them.
var stdPackages = []string{
	"context", "errors", "fmt", "io", "log", "os", "path/filepath",
	"slices", "strings", "time",
}

// mcpPackage is the MCP SDK's package, which the MCP samples use.
const mcpPackage = "github.com/modelcontextprotocol/go-sdk/mcp"

// givens are the values a sample is handed by the text around it, so it
// need not make them: a context, an open workspace and a few more.
const givens = `package sample

import (
	"context"

	"github.com/taskmd/taskmd/workspace"
)

var (
	ctx  context.Context      // every call that reads, writes or waits takes it
	ws   *workspace.Workspace // an open workspace (workspace.Open)
	root string               // the workspace's folder
)
`

// TestGoSamplesCompile type-checks every go-fenced block of README.md
// and docs/*.md against the module's packages as they are built now.
func TestGoSamplesCompile(t *testing.T) {
	root := repoRoot(t)
	var blocks []sampleBlock
	for _, p := range pages(t, root) {
		for _, b := range p.fenced("go") {
			blocks = append(blocks, sampleBlock{page: p.name, codeBlock: b})
		}
	}
	require.NotEmpty(t, blocks, "no ```go block in README.md or docs/*.md")

	c := newChecker(t, root)
	for _, b := range blocks {
		t.Run(fmt.Sprintf("%s:%d", b.page, b.line), func(t *testing.T) {
			for _, err := range c.check(b) {
				t.Error(err)
			}
		})
	}
}

type sampleBlock struct {
	page string
	codeBlock
}

// checker type-checks samples with the export data of the packages the
// go command built.
type checker struct {
	fset     *token.FileSet
	importer types.Importer
	byName   map[string]string // package name -> import path a sample may use unimported
}

func newChecker(t *testing.T, root string) *checker {
	t.Helper()
	args := append([]string{"list", "-e", "-export", "-deps", "-json=ImportPath,Name,Export,Standard,Error",
		"github.com/taskmd/taskmd/...", mcpPackage}, stdPackages...)
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	require.NoError(t, err, "go list -export")

	exports := map[string]string{}
	c := &checker{fset: token.NewFileSet(), byName: map[string]string{}}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p struct {
			ImportPath, Name, Export string
			Standard                 bool
			Error                    *struct{ Err string }
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else {
			require.NoError(t, err)
		}
		require.Nil(t, p.Error, "go list: %s", p.ImportPath)
		exports[p.ImportPath] = p.Export
		public := strings.HasPrefix(p.ImportPath, "github.com/taskmd/taskmd/") &&
			!strings.Contains(p.ImportPath+"/", "/internal/") && p.Name != "main"
		if public || p.ImportPath == mcpPackage || slices.Contains(stdPackages, p.ImportPath) {
			c.byName[p.Name] = p.ImportPath
		}
	}
	c.importer = importer.ForCompiler(c.fset, "gc", func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok || file == "" {
			return nil, fmt.Errorf("no export data for %q", path)
		}
		return os.Open(file)
	})
	return c
}

var undefined = regexp.MustCompile(`^undefined: (\w+)$`)

// check returns the errors of one sample, each naming its line in the page.
func (c *checker) check(b sampleBlock) []error {
	form, prefix, body, suffix := shape(b.code)
	var imports []string
	for {
		src := prefix
		if len(imports) > 0 {
			src += "import (\n\t\"" + strings.Join(imports, "\"\n\t\"") + "\"\n)\n"
		}
		shift := strings.Count(src, "\n")
		src += body + suffix

		errs, missing := c.typecheck(b, form, src, shift)
		var added bool
		for _, name := range missing {
			if path, ok := c.byName[name]; ok && !slices.Contains(imports, path) {
				imports = append(imports, path)
				added = true
			}
		}
		if !added {
			return errs
		}
	}
}

type form int

const (
	wholeFile form = iota
	declarations
	statements
)

// shape tells a sample's form and what goes around it.
func shape(code string) (f form, prefix, body, suffix string) {
	if _, err := parser.ParseFile(token.NewFileSet(), "", code, parser.PackageClauseOnly); err == nil {
		return wholeFile, "", code, ""
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "", "package sample\n"+code, parser.SkipObjectResolution); err == nil {
		// Imports first: the sample's own import block follows the
		// added one, before its declarations.
		return declarations, "package sample\n", code, ""
	}
	return statements, "package sample\n", "func sample() error {\n" + code, "return nil\n}\n"
}

// typecheck checks src and returns its errors and the names it uses
// without declaring them.
func (c *checker) typecheck(b sampleBlock, f form, src string, shift int) (errs []error, missing []string) {
	if f == statements {
		shift++ // the func line
	}
	name := fmt.Sprintf("%s:%d", b.page, b.line)
	file, err := parser.ParseFile(c.fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return []error{c.at(b, err, shift)}, nil
	}
	files := []*ast.File{file}
	if f != wholeFile {
		g, err := parser.ParseFile(c.fset, "givens.go", givens, parser.SkipObjectResolution)
		if err != nil {
			panic(err) // givens is this file's constant
		}
		files = append(files, g)
	}
	conf := types.Config{
		Importer: c.importer,
		Error: func(err error) {
			te := err.(types.Error)
			if m := undefined.FindStringSubmatch(te.Msg); m != nil {
				missing = append(missing, m[1])
			}
			if f == statements && te.Soft && strings.HasPrefix(te.Msg, "declared and not used") {
				return
			}
			errs = append(errs, c.at(b, err, shift))
		},
	}
	_, _ = conf.Check(file.Name.Name, c.fset, files, nil)
	return errs, missing
}

// at names the page's line of a type-checking or parse error.
func (c *checker) at(b sampleBlock, err error, shift int) error {
	var te types.Error
	if errors.As(err, &te) {
		pos := c.fset.Position(te.Pos)
		if pos.Filename == "givens.go" {
			return fmt.Errorf("givens: %s", te.Msg)
		}
		return fmt.Errorf("%s:%d: %s", b.page, b.line+pos.Line-1-shift, te.Msg)
	}
	return fmt.Errorf("%s:%d: %v (shifted %d lines)", b.page, b.line, err, shift)
}
