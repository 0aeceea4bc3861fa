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
// yet, or one git ignores) holds tasks no other machine can see, and a
// change to it could never be committed: a call that would write it is
// refused before anything is written.

// checkTracked returns INVALID_ARGUMENTS naming the first of the
// workspace files files that exists and that git does not track. A file
// found tracked is remembered, so that a plan costs one git command per
// Sync.
func (s *Sync) checkTracked(ctx context.Context, files []string) error {
	s.trackedMu.Lock()
	ask := slices.DeleteFunc(slices.Clone(files), func(f string) bool { return s.tracked[f] })
	s.trackedMu.Unlock()
	var exist []string
	for _, f := range ask {
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
	out, err := s.git(ctx, append([]string{"ls-files", "-z", "--"}, literal(exist)...)...)
	if err != nil {
		if ctx.Err() != nil {
			return cancelled(ctx)
		}
		return err
	}
	listed := strings.Split(out, "\x00")
	s.trackedMu.Lock()
	defer s.trackedMu.Unlock()
	for _, p := range exist {
		f := strings.TrimPrefix(p, s.prefix)
		if !slices.Contains(listed, p) {
			return &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Path: f, Msg: fmt.Sprintf(
				"%s is not committed to git, so no other machine sees its tasks: commit it (git add %s && git commit), then call again", p, p)}
		}
		s.tracked[f] = true
	}
	return nil
}
