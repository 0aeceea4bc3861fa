package gitsync

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"

	"github.com/taskmd/taskmd/merge"
	"github.com/taskmd/taskmd/taskdoc"
)

// yield settles the conflicts of the task document path (repository-
// relative), whose task-aware merge res left some, the way the remote's
// order does: the change pushed first wins. The changes this clone queued
// (committed while the remote could not be reached) on each task in
// conflict are given up, the task taken as the remote has it, and the
// rest merged as before. gave names each task given up ("/plan.md#x")
// with the agent the remote names as its holder ("" for none); ok is
// false, and nothing written, when a conflict is outside the tasks, on
// a task the common version does not have, or on a task our side has as
// the remote's branch or the plan's ref has it (not queued: with plan
// refs, a person's edit, or a change pushed already).
func (s *Sync) yield(ctx context.Context, path string, res merge.Result) (gave map[string]string, ok bool, err error) {
	rel := strings.TrimPrefix(path, s.prefix)
	docs := taskdoc.FolderDocs + "/"
	if len(res.Conflicts) == 0 || !strings.HasPrefix(rel, docs) {
		return nil, false, nil
	}
	base, _, err := s.stage(ctx, 1, path)
	if err != nil {
		return nil, false, err
	}
	ours, _, err := s.stage(ctx, 2, path)
	if err != nil {
		return nil, false, err
	}
	theirs, _, err := s.stage(ctx, 3, path)
	if err != nil {
		return nil, false, err
	}
	baseDoc, err1 := taskdoc.Parse(base)
	theirDoc, err2 := taskdoc.Parse(theirs)
	if err1 != nil || err2 != nil {
		return nil, false, nil
	}
	var slugs []string
	for _, c := range res.Conflicts {
		if c.Task == "" {
			return nil, false, nil
		}
		if !slices.Contains(slugs, c.Task) {
			slugs = append(slugs, c.Task)
		}
	}
	// With plan refs, the remote's branch and the plan's ref.
	var shared []*parsed
	if s.planRefs {
		for _, ref := range []string{s.remoteRef(), s.trackedPlans() + planKey(path)} {
			on, err := s.refDoc(ctx, ref, path)
			if err != nil {
				return nil, false, err
			}
			if on != nil {
				shared = append(shared, on)
			}
		}
	}
	// A task given up goes back to the common version, with what HEAD
	// merged from the branch since (a person's edit) kept.
	kept, err := s.keptDoc(ctx, path, base)
	if err != nil || kept == nil {
		return nil, false, err
	}
	keptDoc, err := taskdoc.Parse(kept)
	if err != nil {
		return nil, false, nil
	}
	gave = map[string]string{}
	for _, slug := range slugs {
		ourDoc, err := taskdoc.Parse(ours)
		if err != nil {
			return nil, false, nil
		}
		was, err1 := baseDoc.Task(slug)
		now, err2 := ourDoc.Task(slug)
		back, err3 := keptDoc.Task(slug)
		if err1 != nil || err2 != nil || err3 != nil {
			return nil, false, nil
		}
		for _, on := range shared {
			// Our side may hold the task as the remote has it: a person's
			// edit merged from the branch, or this clone's change pushed
			// to the plan's ref (another plan's ref carries a person's
			// edit of it). That is not a queued change to give up.
			if tk, err := on.doc.Task(slug); err == nil &&
				bytes.Equal(on.src[tk.Span.Start:tk.Span.End], ours[now.Span.Start:now.Span.End]) &&
				!bytes.Equal(on.src[tk.Span.Start:tk.Span.End], base[was.Span.Start:was.Span.End]) {
				return nil, false, nil
			}
		}
		// Our task as the common version has it (kept): the merge then
		// takes theirs, changed on their side only.
		ours = slices.Concat(ours[:now.Span.Start], kept[back.Span.Start:back.Span.End], ours[now.Span.End:])
		holder := ""
		if tk, err := theirDoc.Task(slug); err == nil {
			holder = assigneeOf(tk)
		}
		gave["/"+strings.TrimPrefix(rel, docs)+"#"+slug] = holder
	}
	again := merge.File(path, base, ours, theirs)
	if !again.Clean() {
		return nil, false, nil
	}
	if err := writeWorking(filepath.Join(s.top, filepath.FromSlash(path)), again.Bytes); err != nil {
		return nil, false, err
	}
	if _, err := s.git(ctx, "add", "--", path); err != nil {
		return nil, false, err
	}
	return gave, true, nil
}

// parsed is a task document with its source.
type parsed struct {
	src []byte
	doc *taskdoc.Document
}

// refDoc is the document path as ref, the clone's copy of a ref of the
// remote, has it (nil when the remote has no such ref or document).
func (s *Sync) refDoc(ctx context.Context, ref, path string) (*parsed, error) {
	src, ok, err := s.lookUp(ctx, "show", ref+":"+path)
	if err != nil || !ok {
		return nil, err
	}
	doc, err := taskdoc.Parse(src)
	if err != nil {
		return nil, nil
	}
	return &parsed{src: src, doc: doc}, nil
}

// keptDoc is the document path as base, the common version of HEAD and
// the ref being merged, has it, with what HEAD merged from the remote's
// branch that base does not have (with plan refs, a person's edit reaches
// HEAD from the branch, and a plan's ref only later): base itself without
// plan refs, nil when the two do not merge cleanly.
func (s *Sync) keptDoc(ctx context.Context, path string, base []byte) ([]byte, error) {
	if !s.planRefs {
		return base, nil
	}
	commit := func(args ...string) (string, bool, error) { // no branch, no common commit: none
		out, ok, err := s.lookUp(ctx, args...)
		return strings.TrimSpace(string(out)), ok, err
	}
	branchBase, ok, err := commit("merge-base", "HEAD", s.remoteRef())
	if err != nil || !ok {
		return base, err
	}
	mergeBase, ok, err := commit("merge-base", "HEAD", "MERGE_HEAD")
	if err != nil || !ok {
		return base, err
	}
	common, ok, err := commit("merge-base", branchBase, mergeBase)
	if err != nil || !ok || common == branchBase {
		return base, err // base has all HEAD merged from the branch
	}
	from, ok, err := s.lookUp(ctx, "show", common+":"+path)
	if err != nil || !ok {
		return base, err
	}
	merged, ok, err := s.lookUp(ctx, "show", branchBase+":"+path)
	if err != nil || !ok {
		return base, err
	}
	res := merge.File(path, from, base, merged)
	if !res.Clean() {
		return nil, nil
	}
	return res.Bytes, nil
}
