package gitsync

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/taskmd/taskmd/taskdoc"
)

// A plan git does not track (a new document a person has not committed
// yet, staged or not, or one git ignores) holds tasks no other machine
// can see, and a change to it could never be committed: a call that would
// write it is refused before anything is written.

// checkTracked returns INVALID_ARGUMENTS naming the first of the
// workspace files files that exists and that HEAD's commit does not hold.
// It asks git each time (one command a call): a person may commit a
// plan's removal at any moment.
func (s *Sync) checkTracked(ctx context.Context, files []string) error {
	var exist []string
	for _, f := range files {
		_, err := os.Lstat(filepath.Join(s.top, filepath.FromSlash(s.path(f))))
		switch {
		case err == nil:
			exist = append(exist, s.path(f))
		case !errors.Is(err, fs.ErrNotExist):
			return &taskdoc.Error{Code: taskdoc.CodeIO, Path: f, Err: err, Msg: fmt.Sprintf("reading %s: %v", f, err)}
		}
	}
	if len(exist) == 0 {
		return nil // a file the change makes is added with it
	}
	out, err := s.git(ctx, append([]string{"ls-tree", "-z", "--name-only", "--full-tree", "HEAD", "--"}, literal(exist)...)...)
	if err != nil {
		if ctx.Err() != nil {
			return cancelled(ctx)
		}
		if _, herr := s.git(ctx, "rev-parse", "-q", "--verify", "HEAD^{commit}"); herr == nil {
			return err
		}
		out = "" // no commit yet: nothing is tracked
	}
	listed := strings.Split(out, "\x00")
	for _, p := range exist {
		if !slices.Contains(listed, p) {
			return &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Path: strings.TrimPrefix(p, s.prefix), Msg: fmt.Sprintf(
				"%s is not committed to git, so no other machine sees its tasks: commit it (git add %s && git commit), then call again", p, p)}
		}
	}
	return nil
}
