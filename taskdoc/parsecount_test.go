package taskdoc_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/parsecount"
	"github.com/taskmd/taskmd/taskdoc"
)

// parses runs f and returns how many document and region parses it made.
func parses(f func()) (documents, regions int64) {
	d0, r0 := parsecount.Snapshot()
	f()
	d1, r1 := parsecount.Snapshot()
	return d1 - d0, r1 - r0
}

func TestParseIsOneDocumentParse(t *testing.T) {
	src := benchDocument(100)
	docs, regions := parses(func() {
		_, err := taskdoc.Parse(src)
		require.NoError(t, err)
	})
	require.Equal(t, int64(1), docs)
	require.Equal(t, int64(0), regions)
	docs, regions = parses(func() {
		_, err := taskdoc.ParseFrontMatter(src)
		require.NoError(t, err)
	})
	require.Equal(t, int64(0), docs+regions, "front matter alone needs no Markdown parse")
}
