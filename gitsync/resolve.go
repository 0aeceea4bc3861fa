package gitsync

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/taskmd/taskmd/internal/git"
	"github.com/taskmd/taskmd/merge"
)

// unmerged lists the files git left in conflict (repository-relative).
func (s *Sync) unmerged(ctx context.Context) ([]string, error) {
	out, err := s.git(ctx, "diff", "--name-only", "-z", "--diff-filter=U")
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, p := range strings.Split(out, "\x00") {
		if p != "" {
			paths = append(paths, p)
		}
	}
	return paths, nil
}

// stage reads the version of path git staged in conflict stage n (1 the
// common base, 2 ours, 3 theirs); ok is false when there is none (the file
// was added on one side, or removed on one).
func (s *Sync) stage(ctx context.Context, n int, path string) (data []byte, ok bool, err error) {
	return s.lookUp(ctx, "show", fmt.Sprintf(":%d:%s", n, path))
}

// lookUp runs a git command that reads something which may not be there
// (a file of a commit, a common commit): ok is false, with no error, when
// git refuses (there is none); an error is the command's that did not
// run to its end (ctx ended, git could not start).
func (s *Sync) lookUp(ctx context.Context, args ...string) (out []byte, ok bool, err error) {
	out, err = git.RunInput(ctx, s.top, nil, args...)
	if err != nil {
		if _, isGit := git.As(err); isGit && ctx.Err() == nil {
			return nil, false, nil
		}
		return nil, false, err
	}
	return out, true, nil
}

// resolve merges the conflicted file path with merge.File from its staged
// versions and writes the result to the working tree. ok reports a clean
// merge; the file is then staged too. A file removed on one side is not
// resolved (res is empty).
func (s *Sync) resolve(ctx context.Context, path, oursLabel, theirsLabel string) (res merge.Result, ok bool, err error) {
	base, _, err := s.stage(ctx, 1, path)
	if err != nil {
		return res, false, err
	}
	ours, hasOurs, err := s.stage(ctx, 2, path)
	if err != nil {
		return res, false, err
	}
	theirs, hasTheirs, err := s.stage(ctx, 3, path)
	if err != nil || !hasOurs || !hasTheirs {
		return res, false, err
	}
	res = merge.File(path, base, ours, theirs, merge.WithLabels(oursLabel, theirsLabel))
	if !res.Clean() {
		return res, false, nil
	}
	if err := writeWorking(filepath.Join(s.top, filepath.FromSlash(path)), res.Bytes); err != nil {
		return res, false, err
	}
	if _, err := s.git(ctx, "add", "--", path); err != nil {
		return res, false, err
	}
	return res, true, nil
}

// writeWorking writes a merged file into the working tree, keeping its
// mode, as git's own merge does.
func writeWorking(name string, data []byte) error {
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(name); err == nil {
		mode = fi.Mode().Perm()
	}
	return os.WriteFile(name, data, mode)
}

// describe names a file left in conflict: its tasks and fields when the
// task-aware merge found them.
func describe(path string, res merge.Result) string {
	if len(res.Conflicts) == 0 {
		return path + " (changed on one side, removed on the other)"
	}
	var parts []string
	for _, c := range res.Conflicts {
		if c.Task != "" {
			parts = append(parts, fmt.Sprintf("#%s %s", c.Task, c.Field))
		} else {
			parts = append(parts, fmt.Sprintf("line %d", c.Line))
		}
	}
	return fmt.Sprintf("%s conflicts at %s", path, strings.Join(parts, ", "))
}
