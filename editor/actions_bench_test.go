package editor_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/editor"
	"github.com/taskmd/taskmd/taskdoc"
)

// The actions' benchmarks work on the middle task of benchPlan's
// 1,000-task plan, open in a buffer whose parse the Session already holds
// (an editor asks for actions as the cursor moves, between keystrokes).
// Each action is the task system's edit of the document (a splice and a
// parse of the task, see BenchmarkCompleteFloor) and a diff of the
// result against the buffer.

const benchSlug = "task-500-wire-the-service"

// benchActionSession opens benchPlan in a buffer and returns the Session,
// the buffer and the line of the middle task's heading.
func benchActionSession(b *testing.B) (*editor.Session, string, int) {
	ctx := context.Background()
	src := benchPlan(benchTasks)
	s, _ := newTestSession(b, map[string]string{planPath: src}, editor.WithClock(testClock))
	require.NoError(b, s.Open(ctx, planPath, 1, src))
	line := strings.Count(src[:strings.Index(src, fmt.Sprintf("### Task %d:", benchTasks/2))], "\n")
	acts, err := s.Actions(ctx, planPath, span(line, 4, line, 4))
	require.NoError(b, err)
	require.Len(b, acts, 4, "start, complete, block and add_task on a pending task")
	return s, src, line
}

// BenchmarkActions is the code actions at a task: start, block and
// add_task computed as edits, complete offered.
func BenchmarkActions(b *testing.B) {
	ctx := context.Background()
	s, src, line := benchActionSession(b)
	r := span(line, 4, line, 4)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := s.Actions(ctx, planPath, r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkApplyComplete is completing the task with a note: the edits
// the editor applies.
func BenchmarkApplyComplete(b *testing.B) {
	ctx := context.Background()
	s, src, _ := benchActionSession(b)
	req := editor.ActionRequest{Name: editor.ActionComplete, Path: planPath, Slug: benchSlug, Note: "Wired.", Version: 1, CheckVersion: true}
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		de, err := s.Apply(ctx, req)
		if err != nil || len(de.Edits) != 2 {
			b.Fatal(err, de.Edits)
		}
	}
}

// BenchmarkCompleteFloor is taskdoc's completion of the same task in the
// same parsed document: what BenchmarkApplyComplete cannot go below.
func BenchmarkCompleteFloor(b *testing.B) {
	src := benchPlan(benchTasks)
	doc, err := taskdoc.Parse([]byte(src))
	require.NoError(b, err)
	date := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, _, err := doc.Complete(benchSlug, "Wired.", date); err != nil {
			b.Fatal(err)
		}
	}
}
