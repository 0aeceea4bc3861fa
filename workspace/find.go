package workspace

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/taskmd/taskmd/taskdoc"
)

// MarkerFile is the file at a workspace's root that marks it as one: a
// small TOML file of settings, committed with the documents (see Config).
const MarkerFile = "taskmd.toml"

// CodeNoWorkspace: Find found no workspace in the folder or any parent.
const CodeNoWorkspace taskdoc.Code = "NO_WORKSPACE"

// contentDirs are the folders whose presence makes a folder without
// MarkerFile a workspace made before the marker existed.
var contentDirs = []string{"docs", "coordinator"}

// Find returns the absolute root of the workspace that dir is in, found
// the way git finds a repository: the nearest folder, dir itself or one of
// its parents, that holds MarkerFile; with no marker anywhere up to the
// file system's root, the nearest folder that holds a docs/ or
// coordinator/ folder and is not itself named docs or coordinator (so
// that from docs/api the root is the folder above docs/). Symbolic links
// in dir are kept, as the shell shows the folder. With neither,
// NO_WORKSPACE, whose message says to run `taskmd init` or to name the
// root.
func Find(dir string) (string, error) {
	start, err := filepath.Abs(dir)
	if err != nil {
		return "", fail(dir, "find workspace", err)
	}
	info, err := os.Stat(start)
	if err != nil {
		return "", fail(dir, "find workspace", err)
	}
	if !info.IsDir() {
		return "", &taskdoc.Error{Code: taskdoc.CodeIO, Path: dir,
			Msg: fmt.Sprintf("find workspace: %s is not a directory", dir)}
	}
	legacy := ""
	for d := start; ; d = filepath.Dir(d) {
		if isFile(filepath.Join(d, MarkerFile)) {
			return d, nil
		}
		if legacy == "" && isLegacyRoot(d) {
			legacy = d
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	if legacy != "" {
		return legacy, nil
	}
	return "", &taskdoc.Error{Code: CodeNoWorkspace, Path: start,
		Msg: fmt.Sprintf("no taskmd workspace in %s or any parent: run `taskmd init` here, or pass -C DIR", start)}
}

// notInsideContent refuses root when it is in the docs/, coordinator/ or
// state folder of the workspace around it: a workspace there would be
// found instead of that one from every folder under it, and would lock
// that one's documents apart from it.
func notInsideContent(root string) error {
	outer, err := Find(root)
	if err != nil || outer == root {
		return nil
	}
	rel, err := filepath.Rel(outer, root)
	if err != nil {
		return nil
	}
	first, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
	if !slices.Contains(contentDirs, first) && first != StateDir {
		return nil
	}
	return &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Path: root,
		Msg: fmt.Sprintf("%s is inside %s/ of the workspace %s: a workspace there would hide that one from the commands run in it; run taskmd init outside %s/, or use the workspace %s", root, first, outer, first, outer)}
}

// isLegacyRoot reports whether d holds a content folder and is not one.
func isLegacyRoot(d string) bool {
	base := filepath.Base(d)
	for _, c := range contentDirs {
		if base == c {
			return false
		}
	}
	for _, c := range contentDirs {
		if info, err := os.Stat(filepath.Join(d, c)); err == nil && info.IsDir() {
			return true
		}
	}
	return false
}

func isFile(name string) bool {
	info, err := os.Stat(name)
	return err == nil && info.Mode().IsRegular()
}

// Config is the settings of MarkerFile. A key left out keeps the default
// of the code that reads it; unknown keys are refused, so that a
// misspelled one is not silently ignored.
type Config struct {
	// AgentTimeout is how long an agent stays online after its last
	// heartbeat ("agent_timeout", a Go duration such as "90s"; 0: the
	// default, 60s).
	AgentTimeout time.Duration
	// WorktreeDir is the folder that new git worktrees go in, relative
	// to the repository ("worktree_dir"; "": "<repository>-worktrees"
	// beside it).
	WorktreeDir string
	// MCPToolsets are the MCP toolsets `taskmd mcp` serves ("toolsets"
	// under [mcp]; empty: its default, see docs/mcp.md).
	MCPToolsets []string
}

// configFile is MarkerFile as TOML.
type configFile struct {
	AgentTimeout string `toml:"agent_timeout"`
	WorktreeDir  string `toml:"worktree_dir"`
	MCP          struct {
		Toolsets []string `toml:"toolsets"`
	} `toml:"mcp"`
}

// ReadConfig reads and checks MarkerFile at root: a zero Config when there
// is none; PARSE_ERROR (with the line) for TOML that does not parse or has
// an unknown key, INVALID_ARGUMENTS for a value out of range.
func ReadConfig(root string) (Config, error) {
	name := filepath.Join(root, MarkerFile)
	data, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return Config{}, nil
	}
	if err != nil {
		return Config{}, fail(name, "read "+MarkerFile, err)
	}
	return parseConfig(name, data)
}

// parseConfig parses the content of a MarkerFile; name is its path in
// errors.
func parseConfig(name string, data []byte) (Config, error) {
	var f configFile
	md, err := toml.NewDecoder(bytes.NewReader(data)).Decode(&f)
	if err != nil {
		e := &taskdoc.Error{Code: taskdoc.CodeParse, Path: name, Msg: fmt.Sprintf("%s: %v", name, err)}
		var pe toml.ParseError
		if errors.As(err, &pe) {
			e.Line, e.Column = pe.Position.Line, pe.Position.Col
		}
		return Config{}, e
	}
	if un := md.Undecoded(); len(un) > 0 {
		keys := make([]string, len(un))
		for i, k := range un {
			keys[i] = k.String()
		}
		return Config{}, &taskdoc.Error{Code: taskdoc.CodeParse, Path: name,
			Msg: fmt.Sprintf("%s: unknown key %s; the keys are agent_timeout, worktree_dir and toolsets under [mcp] (see docs/workspace.md)", name, strings.Join(keys, ", "))}
	}
	invalid := func(format string, a ...any) error {
		return &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Path: name, Msg: name + ": " + fmt.Sprintf(format, a...)}
	}
	var c Config
	if f.AgentTimeout != "" {
		d, err := time.ParseDuration(f.AgentTimeout)
		if err != nil || d <= 0 {
			return Config{}, invalid("agent_timeout %q is not a positive duration such as \"90s\" or \"5m\"", f.AgentTimeout)
		}
		c.AgentTimeout = d
	}
	if f.WorktreeDir != "" {
		if filepath.IsAbs(f.WorktreeDir) || strings.ContainsAny(f.WorktreeDir, "\x00\r\n") {
			return Config{}, invalid("worktree_dir %q must be a folder relative to the repository, such as \"../worktrees\"", f.WorktreeDir)
		}
		c.WorktreeDir = filepath.ToSlash(filepath.Clean(f.WorktreeDir))
	}
	for _, t := range f.MCP.Toolsets {
		if strings.TrimSpace(t) == "" {
			return Config{}, invalid("[mcp] toolsets holds an empty name")
		}
	}
	c.MCPToolsets = f.MCP.Toolsets
	return c, nil
}

// defaultConfig is the MarkerFile that Init writes: every key commented
// out, at its default.
const defaultConfig = `# taskmd workspace: this file marks the folder as the root of a taskmd
# workspace (documents in docs/, the coordinator's list in coordinator/).
# Commit it. Every key is optional; the lines below show the defaults.
# See docs/workspace.md in taskmd for the rules.

# How long an agent stays online after its last heartbeat.
# agent_timeout = "60s"

# The folder that new git worktrees go in, relative to the repository
# (default: <repository>-worktrees beside it).
# worktree_dir = "../worktrees"

[mcp]
# The toolsets that ` + "`taskmd mcp`" + ` serves, unless --toolsets or
# TASKMD_TOOLSETS names them: all, or some of subagent, coordinator, agents,
# plans, pivots, checkpoints, resume, clarifications, queries, edits,
# worktrees (default: subagent and queries).
# toolsets = ["subagent", "queries"]
`

// InitResult is what Init did; each field is false when it was there
// already.
type InitResult struct {
	Root         string `json:"root"`
	Marker       bool   `json:"marker"`        // wrote MarkerFile
	Docs         bool   `json:"docs"`          // made docs/
	IgnoreState  bool   `json:"ignore_state"`  // added .taskmd/ to .gitignore
	Existing     bool   `json:"existing"`      // the folder was a workspace already (docs/ or coordinator/, no marker)
	AlreadyThere bool   `json:"already_there"` // nothing was changed
}

// Init makes dir, an existing folder, the root of a workspace: it writes
// MarkerFile (with every setting commented out) unless there is one, makes
// docs/ unless dir is a workspace already (it holds docs/ or coordinator/),
// and adds .taskmd/ to .gitignore (IgnoreState). dir inside the docs/,
// coordinator/ or .taskmd/ of a workspace around it is INVALID_ARGUMENTS. It changes nothing that is
// there already, so a second call writes nothing (AlreadyThere). A
// MarkerFile there already must parse (ReadConfig): Init refuses to leave a
// workspace whose marker every command would refuse.
func Init(ctx context.Context, dir string) (InitResult, error) {
	ws, err := Open(dir)
	if err != nil {
		return InitResult{}, err
	}
	defer ws.Close()
	res := InitResult{Root: ws.Root()}
	if err := notInsideContent(res.Root); err != nil {
		return InitResult{}, err
	}
	hasMarker := isFile(filepath.Join(res.Root, MarkerFile))
	if hasMarker {
		if _, err := ReadConfig(res.Root); err != nil {
			return InitResult{}, err
		}
	} else if _, err := ws.root.Lstat(MarkerFile); err == nil {
		return InitResult{}, &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Path: MarkerFile,
			Msg: MarkerFile + " is there but is not a regular file: remove it and run taskmd init again"}
	}
	for _, c := range contentDirs {
		if info, err := ws.root.Stat(c); err == nil && info.IsDir() {
			res.Existing = true
		}
	}
	if !res.Existing {
		if info, err := ws.root.Lstat("docs"); err == nil && !info.IsDir() {
			return InitResult{}, &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Path: "docs",
				Msg: "docs is there but is not a folder: move it away and run taskmd init again"}
		}
	}
	if !hasMarker {
		if _, err := ws.Update(ctx, MarkerFile, func(cur []byte, exists bool) ([]byte, error) {
			if exists { // another init wrote it first
				return cur, nil
			}
			res.Marker = true
			return []byte(defaultConfig), nil
		}); err != nil {
			return InitResult{}, err
		}
	}
	if !res.Existing {
		err := ws.root.Mkdir("docs", 0o755)
		if err != nil && !errors.Is(err, fs.ErrExist) {
			return res, fail("docs", "make docs", err)
		}
		res.Docs = err == nil
	}
	if res.IgnoreState, err = ws.IgnoreState(ctx); err != nil {
		return res, err
	}
	res.AlreadyThere = !res.Marker && !res.Docs && !res.IgnoreState
	return res, nil
}
