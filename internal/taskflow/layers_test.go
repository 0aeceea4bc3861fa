package taskflow_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const module = "github.com/taskmd/taskmd/"

// layers is what each package of the library may import from the module:
// taskdoc ← workspace ← taskcontext ← subagent, coordinator, agent,
// journal, checkpoint ← plan ← examples, with the internal helpers beside
// them. No import points back
// up, and the two task systems do not import each other.
var layers = map[string][]string{
	"internal/parsecount": nil,
	"internal/affix":      nil,
	"internal/hooks":      nil,
	"internal/watch":      nil,
	"internal/plaintext":  nil, // the string rules every layer shares
	"internal/git":        {"taskdoc"},
	"internal/mdtext":     {"taskdoc", "internal/plaintext"}, // the Markdown text rules of journals and worker checkpoints
	"taskdoc":             {"internal/parsecount", "internal/affix", "internal/plaintext"},
	"workspace":           {"taskdoc", "internal/hooks"},
	"taskcontext":         {"taskdoc", "workspace"},
	"internal/taskflow":   {"taskdoc", "workspace", "taskcontext", "internal/plaintext"},
	"internal/budget":     {"taskdoc", "taskcontext"}, // the token budget's machinery, which plan applies
	"subagent":            {"taskdoc", "workspace", "taskcontext", "internal/taskflow", "internal/claims"},
	"coordinator":         {"taskdoc", "workspace", "taskcontext", "internal/taskflow"},
	"query":               {"taskdoc", "workspace", "taskcontext", "internal/taskflow", "coordinator"},
	"internal/claims":     {"taskdoc", "workspace", "internal/taskflow", "internal/plaintext"},
	"journal":             {"taskdoc", "workspace", "internal/taskflow", "internal/claims", "internal/mdtext", "internal/plaintext"},
	"checkpoint":          {"taskdoc", "workspace", "internal/taskflow", "internal/mdtext", "internal/plaintext"},
	"worker":              {"taskdoc", "workspace", "internal/taskflow", "internal/watch", "internal/mdtext", "checkpoint", "plan"},
	"plan":                {"taskdoc", "workspace", "taskcontext", "internal/budget", "internal/taskflow", "internal/claims", "agent", "journal", "internal/plaintext"},
	"agent":               {"taskdoc", "workspace", "internal/taskflow", "internal/plaintext"},
	// The editor's view sits beside the MCP tools, on the library.
	"editor": {"taskdoc", "workspace", "taskcontext", "internal/taskflow", "internal/claims", "coordinator",
		"query", "plan", "agent", "journal", "internal/affix"},
	// Git: the task-aware merge, worktrees per agent, claims through a remote.
	"merge":    {"taskdoc", "workspace", "internal/taskflow", "internal/claims", "journal"},
	"worktree": {"taskdoc", "workspace", "internal/taskflow", "internal/git", "internal/hooks"},
	"gitsync":  {"taskdoc", "workspace", "internal/taskflow", "internal/git", "internal/claims", "agent", "plan", "merge"},
	// The workspace check reads what the editor and git see.
	"check": {"taskdoc", "workspace", "editor", "gitsync", "internal/git"},
	// The MCP tools sit above every library package, below the examples.
	"mcptools": {"taskdoc", "workspace", "taskcontext", "subagent", "coordinator", "query",
		"journal", "checkpoint", "worker", "plan", "agent", "worktree", "merge", "internal/claims", "internal/settings",
		"internal/watch"},
	// The web board for people: pages over the library's operations.
	"internal/board": {"taskdoc", "workspace", "subagent", "coordinator", "query", "plan", "agent", "journal",
		"checkpoint", "worker", "internal/claims", "internal/settings", "internal/watch"},
	// The workspace's settings (taskmd.toml) as each package's options: above
	// the packages it configures, below the faces that read it.
	"internal/settings": {"workspace", "plan", "worker", "worktree"},

	// The test kits: only tests, benchmarks, the examples and other kits
	// import them (TestLayers checks that no library file does).
	"internal/testkit":          nil,
	"internal/testkit/procs":    nil,
	"internal/testkit/floor":    {"taskdoc"},
	"internal/testkit/filetest": nil,                  // files written, read and listed
	"internal/testkit/zerotest": {"taskdoc", "agent"}, // values made without a workspace
	"internal/testkit/doccheck": nil,                  // README.md and docs/*.md checked against the code
	// The benchmark suite measures the library from above.
	"internal/testkit/benchsuite": {"taskdoc", "workspace", "subagent", "coordinator", "query", "plan", "agent", "journal",
		"internal/testkit/procs", "internal/testkit/floor"},
	// The fleet benchmark runs machines sharing plans through a git remote.
	"internal/testkit/fleet": {"taskdoc", "workspace", "plan", "agent", "gitsync", "internal/testkit/procs"},
}

// TestLayers reads the imports of every package's non-test files and
// checks them against layers; a new package must be given its place. No
// library file imports a test kit (internal/testkit/...), whatever layers
// says.
func TestLayers(t *testing.T) {
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	seen := map[string]bool{}
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "examples" || nestedModule(path)) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		require.NoError(t, err)
		pkg := filepath.ToSlash(rel)
		allowed, known := layers[pkg]
		if strings.HasPrefix(pkg, "cmd/") {
			allowed, known = commandLayer(), true // the commands users install sit on top of everything
		}
		if !assert.True(t, known, "package %s has no place in the layers", pkg) {
			return nil
		}
		seen[pkg] = true
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		require.NoError(t, err)
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			require.NoError(t, err)
			if dep, ok := strings.CutPrefix(p, module); ok {
				assert.True(t, slices.Contains(allowed, dep), "%s imports %s, which it may not (layers: %v)", rel, dep, allowed)
				assert.False(t, isTestKit(dep) && !isTestKit(pkg), "%s imports the test kit %s in %s: "+
					"only tests, benchmarks, the examples and other kits may", rel, dep, name)
			}
		}
		return nil
	})
	require.NoError(t, err)
	for pkg := range layers {
		assert.True(t, seen[pkg], "package %s is gone: update layers", pkg)
	}
}

// isTestKit reports whether pkg is internal/testkit or one of its kits.
func isTestKit(pkg string) bool {
	return pkg == "internal/testkit" || strings.HasPrefix(pkg, "internal/testkit/")
}

// commandLayer is what a command under cmd/ may import: every package of
// the library and the engine's internals, never a test kit.
func commandLayer() []string {
	var all []string
	for pkg := range layers {
		if !isTestKit(pkg) {
			all = append(all, pkg)
		}
	}
	return all
}

// nestedModule reports whether dir holds a module of its own (a command
// with dependencies the library does not take), which has its own layers.
func nestedModule(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "go.mod"))
	return err == nil
}
