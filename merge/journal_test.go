package merge

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

const journalBase = "# Checkpoints: /api/auth.md#sign\n\n" +
	"## 1 · plan · 2026-11-23T09:58:10Z · worker-1\n\nSign with RS256\n\n" +
	"## 2 · progress · 2026-11-23T10:00:00Z · worker-1\n\nKeys loaded\n"

func entry(n, summary string, key string) string {
	e := "## " + n + " · progress · 2026-11-23T11:00:00Z · worker-1\n\n" + summary + "\n"
	if key != "" {
		e += "\n- Key: `" + key + "`\n"
	}
	return e
}

func TestJournal(t *testing.T) {
	ours := journalBase + "\n" + entry("3", "Signed", "k1")
	theirs := journalBase + "\n" + entry("3", "Verified", "")
	got := journalFile([]byte(journalBase), []byte(ours), []byte(theirs))
	assert.True(t, got.Clean())
	assert.Equal(t, journalBase+"\n"+entry("3", "Signed", "k1")+"\n"+entry("4", "Verified", ""), string(got.Bytes))

	// The same keyed entry on both sides is kept once.
	theirs = journalBase + "\n" + entry("3", "Signed", "k1") + "\n" + entry("4", "Then this", "")
	got = journalFile([]byte(journalBase), []byte(ours), []byte(theirs))
	assert.True(t, got.Clean())
	assert.Equal(t, journalBase+"\n"+entry("3", "Signed", "k1")+"\n"+entry("4", "Then this", ""), string(got.Bytes))

	// One side only: its bytes.
	got = journalFile([]byte(journalBase), []byte(journalBase), []byte(theirs))
	assert.Equal(t, theirs, string(got.Bytes))

	// A person's edit of an old entry on one side, an entry added on the
	// other: line by line.
	edited := strings.Replace(journalBase, "Sign with RS256", "Sign with RS256 (checked)", 1)
	got = journalFile([]byte(journalBase), []byte(edited), []byte(journalBase+"\n"+entry("3", "Signed", "")))
	assert.True(t, got.Clean())
	assert.Equal(t, edited+"\n"+entry("3", "Signed", ""), string(got.Bytes))
}

func TestFileChoosesByPath(t *testing.T) {
	// Ours changes A's last line, theirs adds C right after it: lines that
	// touch, a conflict line by line, two changes task by task.
	base := []byte("## Tasks\n\n### A\n\nDo a.\n### B\n\nDo b.\n")
	ours := []byte(strings.Replace(string(base), "Do a.", "Did a.", 1))
	theirs := []byte(strings.Replace(string(base), "Do a.\n", "Do a.\n### C\n\nDo c.\n", 1))
	assert.Equal(t, "## Tasks\n\n### A\n\nDid a.\n### C\n\nDo c.\n### B\n\nDo b.\n", string(File("docs/plan.md", base, ours, theirs).Bytes))
	for _, p := range []string{"docs/plan.md", "coordinator/active.md", "/abs/ws/docs/x.MD", "checkpoints/workers/w/000001.md"} {
		assert.True(t, File(p, base, ours, theirs).Clean(), p)
	}
	// Not Markdown: the lines are too close for a line merge.
	assert.False(t, File("docs/plan.txt", base, ours, theirs).Clean())
	j := File("checkpoints/tasks/api/auth.md/sign.md", []byte(journalBase),
		[]byte(journalBase+"\n"+entry("3", "A", "")), []byte(journalBase+"\n"+entry("3", "B", "")))
	assert.True(t, j.Clean())
	assert.Contains(t, string(j.Bytes), "## 4 · progress")
}
