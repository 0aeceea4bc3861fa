package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// initResult is what init did: workspace.Init's result and, with
// --agent-instructions, what became of AGENTS.md.
type initResult struct {
	workspace.InitResult
	// AgentsMD is "appended", "replaced" or "unchanged"; "" without
	// --agent-instructions.
	AgentsMD string `json:"agents_md,omitempty"`
}

// cmdInit makes DIR (default -C, else the current folder) a workspace
// (workspace.Init): taskmd.toml, docs/ and .taskmd/ in .gitignore, each
// only if missing. DIR is made if its parent exists. It finds no
// workspace first: init is how one starts. --agent-instructions also
// puts the text of taskmd instructions into AGENTS.md (agentsSection),
// checked before anything is written.
func cmdInit(e *env, args []string) error {
	flags := e.flags("init")
	withText := flags.Bool("agent-instructions", false, "")
	role := flags.String("role", "worker", "")
	pos, err := parse(flags, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return usagef("usage: taskmd init [DIR] [--agent-instructions [--role worker|orchestrator]]")
	}
	roleGiven := false
	flags.Visit(func(f *flag.Flag) { roleGiven = roleGiven || f.Name == "role" })
	if roleGiven && !*withText {
		return usagef("init: --role goes with --agent-instructions")
	}
	var text string
	if *withText {
		if text, err = instructions(*role); err != nil {
			return err
		}
	}
	dir := e.root
	if len(pos) == 1 {
		dir = pos[0]
		if e.root != "" && !filepath.IsAbs(dir) {
			dir = filepath.Join(e.root, dir)
		}
	}
	if dir == "" {
		dir = "."
	}
	if *withText {
		// Refuse an AGENTS.md that cannot take the section before
		// the workspace is made.
		cur, err := os.ReadFile(filepath.Join(dir, agentsFile))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return &taskdoc.Error{Code: taskdoc.CodeIO, Path: agentsFile, Err: err,
				Msg: fmt.Sprintf("cannot read %s (%v): make it a readable file, or leave out --agent-instructions", agentsFile, err)}
		}
		if _, err := agentsSection(cur, text); err != nil {
			return err
		}
	}
	if cfg, err := workspace.ReadConfig(dir); err == nil { // else Init says why
		if err := checkFileToolsets(dir, cfg); err != nil {
			return err
		}
	}
	made := false
	if info, err := os.Stat(dir); err == nil && !info.IsDir() {
		return &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Path: dir,
			Msg: dir + " is a file: name a folder to make a workspace of"}
	} else if errors.Is(err, fs.ErrNotExist) {
		if err := os.Mkdir(dir, 0o755); err != nil {
			return &taskdoc.Error{Code: taskdoc.CodeIO, Path: dir, Err: err,
				Msg: fmt.Sprintf("cannot make %s (%v): make its parent folder first", dir, err)}
		}
		made = true
	}
	ws, err := workspace.Init(e.ctx, dir)
	if err != nil {
		if made {
			os.Remove(dir) // only while empty: a refusal wrote nothing in it
		}
		return err
	}
	res := initResult{InitResult: ws}
	if *withText {
		if res.AgentsMD, err = writeAgentsSection(e, res.Root, text); err != nil {
			return err
		}
		res.AlreadyThere = res.AlreadyThere && res.AgentsMD == "unchanged"
	}
	return e.print(res, func(w io.Writer) {
		if res.AlreadyThere {
			fmt.Fprintf(w, "%s is a taskmd workspace already; nothing changed\n", res.Root)
			return
		}
		var did []string
		if res.Marker {
			did = append(did, "wrote "+workspace.MarkerFile)
		}
		if res.Docs {
			did = append(did, "made docs/")
		}
		if res.IgnoreState {
			did = append(did, "added .taskmd/ to .gitignore")
		}
		switch res.AgentsMD {
		case "appended":
			did = append(did, "added the taskmd instructions to "+agentsFile)
		case "replaced":
			did = append(did, "updated the taskmd instructions in "+agentsFile)
		}
		what := "initialized taskmd workspace"
		if res.Existing {
			what = "marked existing taskmd workspace"
		}
		fmt.Fprintf(w, "%s in %s: %s\n", what, res.Root, strings.Join(did, ", "))
	})
}

// agentsFile is the file, at the root, that --agent-instructions writes
// the text of taskmd instructions into, between agentsBegin and agentsEnd.
const (
	agentsFile  = "AGENTS.md"
	agentsBegin = "<!-- taskmd:begin -->"
	agentsEnd   = "<!-- taskmd:end -->"
)

// agentsSection returns cur, AGENTS.md's content (nil: no file), with text
// between the markers: the section replaced where the markers are, else
// appended after a blank line. Every byte outside the section is kept; a
// file with CRLF line ends gets the section with CRLF. Markers that are
// not one begin before one end are refused: the section cannot be found.
func agentsSection(cur []byte, text string) ([]byte, error) {
	nl := "\n"
	if bytes.Contains(cur, []byte("\r\n")) {
		nl = "\r\n"
	}
	section := []byte(agentsBegin + nl + strings.ReplaceAll(text, "\n", nl) + agentsEnd)
	nb, ne := bytes.Count(cur, []byte(agentsBegin)), bytes.Count(cur, []byte(agentsEnd))
	begin, end := bytes.Index(cur, []byte(agentsBegin)), bytes.Index(cur, []byte(agentsEnd))
	switch {
	case nb == 0 && ne == 0:
		out := slices.Clip(cur)
		if len(out) > 0 {
			if !bytes.HasSuffix(out, []byte("\n")) {
				out = append(out, nl...)
			}
			out = append(out, nl...)
		}
		return append(append(out, section...), nl...), nil
	case nb == 1 && ne == 1 && begin < end:
		out := append(slices.Clip(cur[:begin]), section...)
		return append(out, cur[end+len(agentsEnd):]...), nil
	}
	return nil, &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Path: agentsFile,
		Msg: fmt.Sprintf("%s has %d %s and %d %s lines: keep one of each, begin first, around the taskmd section (or remove both), then run taskmd init --agent-instructions again",
			agentsFile, nb, agentsBegin, ne, agentsEnd)}
}

// writeAgentsSection puts text into root's AGENTS.md (agentsSection) and
// says what it did: "appended", "replaced" or "unchanged".
func writeAgentsSection(e *env, root, text string) (string, error) {
	ws, err := workspace.Open(root)
	if err != nil {
		return "", err
	}
	defer ws.Close()
	did := "unchanged"
	_, err = ws.Update(e.ctx, agentsFile, func(cur []byte, exists bool) ([]byte, error) {
		out, err := agentsSection(cur, text)
		switch {
		case err != nil || bytes.Equal(out, cur):
		case bytes.Contains(cur, []byte(agentsBegin)):
			did = "replaced"
		default:
			did = "appended"
		}
		return out, err
	})
	return did, err
}
