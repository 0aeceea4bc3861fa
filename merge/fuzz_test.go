package merge

import (
	"bytes"
	"testing"

	"github.com/taskmd/taskmd/taskdoc"
)

func FuzzTasks(f *testing.F) {
	for _, s := range [][3]string{
		{planBase, planOne, planTwo},
		{"## Tasks\n\n### A\n\nx", "## Tasks\n\n### A\n\n- Status: completed\n\nx\n", "## Tasks\n\n### B\n\n### A\n\nx"},
		{"", "## Tasks\n\n### A\n", "## Tasks\n\n### A\n\nother\n"},
		{"# T\r\n\r\n## Tasks\r\n\r\nA\r\n---\r\n\r\nx\r\n", "# T\r\n\r\n## Tasks\r\n\r\nA\r\n---\r\n\r\ny\r\n", "# T\r\n\r\n## Tasks\r\n\r\nB\r\n---\r\n\r\nx\r\n"},
	} {
		f.Add([]byte(s[0]), []byte(s[1]), []byte(s[2]))
	}
	f.Fuzz(func(t *testing.T, base, x, y []byte) {
		if len(base)+len(x)+len(y) > 1<<14 {
			return
		}
		r := Tasks(base, x, y)
		if _, err := taskdoc.Parse(x); err == nil {
			if _, err := taskdoc.Parse(y); err == nil {
				if _, err := taskdoc.Parse(r.Bytes); err != nil {
					t.Fatalf("the merge of two documents that parse does not parse: %v\n%q", err, r.Bytes)
				}
			}
		}
		// A side that changed nothing gives way to the other, byte for byte.
		for _, c := range [][3][]byte{{x, x, y}, {x, y, x}, {x, y, y}} {
			got := Tasks(c[0], c[1], c[2])
			if !got.Clean() || !bytes.Equal(got.Bytes, y) {
				t.Fatalf("merge(%q, %q, %q) = %q (conflicts %v), want %q", c[0], c[1], c[2], got.Bytes, got.Conflicts, y)
			}
		}
	})
}
