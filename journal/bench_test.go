package journal_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/journal"
)

// benchPlan is a plan document of 100 tasks (about 12 KB); Add parses it
// to check that the task exists.
func benchPlan() string {
	var b strings.Builder
	b.WriteString("# Token service\n\n## Tasks\n\n")
	for i := range 100 {
		fmt.Fprintf(&b, "### Implement step %d\n\n- Status: pending\n\nImplement step %d of the signing logic and test it.\n\n", i, i)
	}
	return b.String()
}

const benchTask = "/api/auth.md#implement-step-7"

var benchJournal = filepath.FromSlash("checkpoints/tasks/api/auth.md/implement-step-7.md")

// benchEntry is a typical checkpoint: a summary, two files, a JSON detail.
func benchEntry(i int) journal.Entry {
	return journal.Entry{Agent: "worker-1", Type: journal.TypeProgress,
		Summary:      fmt.Sprintf("Step %d: wrote the signer and its table tests", i),
		FilesChanged: []string{"src/auth/signer.go", "src/auth/signer_test.go"},
		Detail:       fmt.Sprintf(`{"step": %d, "tests": 14, "passed": 14, "notes": "vectors from RFC 7515 appendix A"}`, i),
		Key:          fmt.Sprintf("req-%d", i)}
}

// benchSetup returns a Journal over a workspace with the plan and a
// journal of n entries, and the journal's bytes.
func benchSetup(b testing.TB, n int) (*journal.Journal, string, []byte) {
	j, root := setup(b, map[string]string{"docs/api/auth.md": benchPlan()})
	ctx := context.Background()
	for i := range n {
		_, err := j.Add(ctx, benchTask, benchEntry(i))
		require.NoError(b, err)
	}
	var file []byte
	if n > 0 {
		var err error
		file, err = os.ReadFile(filepath.Join(root, benchJournal))
		require.NoError(b, err)
	}
	return j, root, file
}

// Add to a journal of 0 and of 1,000 entries (about 300 KB): read and
// parse the plan, lock, read and parse the journal, append, durable write.
// The journal is put back before each Add.
func BenchmarkAdd(b *testing.B) {
	for _, n := range []int{0, 1000} {
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			j, root, file := benchSetup(b, n)
			path := filepath.Join(root, benchJournal)
			ctx := context.Background()
			e := benchEntry(n)
			b.SetBytes(int64(len(file)))
			for b.Loop() {
				b.StopTimer()
				if file == nil {
					if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
						b.Fatal(err)
					}
				} else {
					require.NoError(b, os.WriteFile(path, file, 0o644))
				}
				b.StartTimer()
				if _, err := j.Add(ctx, benchTask, e); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// List from a journal of 1,000 entries: the newest 5 (a starting agent)
// and all of them (recovery after a lost context).
func BenchmarkList(b *testing.B) {
	j, _, file := benchSetup(b, 1000)
	ctx := context.Background()
	for _, q := range []struct {
		name string
		q    journal.Query
	}{{"limit=5", journal.Query{Limit: 5}}, {"all", journal.Query{}}} {
		b.Run(q.name, func(b *testing.B) {
			b.SetBytes(int64(len(file)))
			for b.Loop() {
				got, err := j.List(ctx, benchTask, q.q)
				if err != nil || len(got) == 0 {
					b.Fatal(err, len(got))
				}
			}
		})
	}
}

// BenchmarkListLimit lists the newest 5 entries of a journal of 20,000,
// beside listing all of them: only the entries returned are parsed.
func BenchmarkListLimit(b *testing.B) {
	j, _ := longJournal(b, 20000, 0)
	ctx := context.Background()
	for _, q := range []struct {
		name string
		q    journal.Query
	}{{"limit=5", journal.Query{Limit: 5}}, {"all", journal.Query{}}} {
		b.Run(q.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				got, err := j.List(ctx, benchTask, q.q)
				if err != nil || len(got) == 0 {
					b.Fatal(err, len(got))
				}
			}
		})
	}
}
