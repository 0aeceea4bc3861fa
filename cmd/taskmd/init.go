package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// cmdInit makes DIR (default -C, else the current folder) a workspace
// (workspace.Init): taskmd.toml, docs/ and .taskmd/ in .gitignore, each
// only if missing. DIR is made if its parent exists. It finds no
// workspace first: init is how one starts.
func cmdInit(e *env, args []string) error {
	pos, err := parse(e.flags("init"), args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return usagef("usage: taskmd init [DIR]")
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
	if cfg, err := workspace.ReadConfig(dir); err == nil { // else Init says why
		if _, err := toolsets(dir, cfg); err != nil {
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
	res, err := workspace.Init(e.ctx, dir)
	if err != nil {
		if made {
			os.Remove(dir) // only while empty: a refusal wrote nothing in it
		}
		return err
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
		what := "initialized taskmd workspace"
		if res.Existing {
			what = "marked existing taskmd workspace"
		}
		fmt.Fprintf(w, "%s in %s: %s\n", what, res.Root, strings.Join(did, ", "))
	})
}
