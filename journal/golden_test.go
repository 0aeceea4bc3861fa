package journal_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/journal"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output (review the diff before committing)")

// goldenCases says why each case exists. A case's journal starts as
// testdata/<name>.md, or absent when there is no such file; the test adds
// goldenEntries and compares the journal with testdata/<name>.golden.
var goldenCases = map[string]string{
	"new": "the format as Add writes it: a new journal, every field, a summary that starts with '#', " +
		"a JSON detail, a detail holding fences and a CRLF, unicode",
	"notes": "a journal a person annotated: a new title, notes and a sub-heading under an entry, a summary " +
		"wrapped by hand, files without backticks, a '## Notes' section whose code block holds an entry-like " +
		"heading and a '- Key:' line, no final newline; appending keeps every byte and numbers from 3",
	"crlf": "a journal saved on Windows: BOM and CRLF; appended sections use CRLF too",
}

var goldenEntries = []journal.Entry{
	{Agent: "worker-1", Type: journal.TypePlan, Summary: "Sign with RS256; rotate keys daily",
		FilesChanged: []string{"src/auth/jwt.go", "src/auth/jwt_test.go"}, Key: "req-7f3a"},
	{Agent: "worker-1", Type: journal.TypeDecision, Summary: "Chose JWT over session cookies for stateless auth",
		Detail: `{"reason": "Better for API-first architecture"}`},
	{Agent: "worker-1", Type: journal.TypeError, Summary: "# go vet failed on `jwt.go`",
		Detail: "```go\nsigner.Sign(nil)\n```\r\n```` four, then a CRLF"},
	{Agent: "wörker · 2", Type: journal.TypeRecovery, Summary: "Resumed after a context reset — état récupéré ✓"},
}

func TestGolden(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("testdata", "*.md"))
	require.NoError(t, err)
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".md")
		require.Contains(t, goldenCases, name, "say why %s exists in goldenCases", in)
	}
	for name, why := range goldenCases {
		t.Run(name, func(t *testing.T) {
			files := map[string]string{}
			before, err := os.ReadFile(filepath.Join("testdata", name+".md"))
			if err == nil {
				files[journalFile] = string(before)
			} else {
				require.ErrorIs(t, err, os.ErrNotExist)
			}
			j, root := setup(t, files)
			ctx := context.Background()
			old, err := j.List(ctx, task, journal.Query{})
			require.NoError(t, err)
			var added []journal.Entry
			for _, e := range goldenEntries {
				got, err := j.Add(ctx, task, e)
				require.NoError(t, err)
				added = append(added, got)
			}
			got := filetest.Read(t, root, journalFile)

			golden := filepath.Join("testdata", name+".golden")
			if *update {
				require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "run go test -update to create it")
			assert.Equal(t, string(want), got, "case %s: %s", name, why)

			// Independently of the golden file: the old bytes are kept, and
			// the entries read back.
			assert.True(t, strings.HasPrefix(got, string(before)), "appending keeps every byte")
			listed, err := j.List(ctx, task, journal.Query{})
			require.NoError(t, err)
			slices.Reverse(added)
			assert.Equal(t, append(added, old...), listed)
		})
	}
}
