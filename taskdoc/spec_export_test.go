package taskdoc

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// SpecExample is one example of the CommonMark spec (testdata/spec.json,
// see testdata/LICENSE-commonmark).
type SpecExample struct {
	Markdown string `json:"markdown"`
	Example  int    `json:"example"`
	Section  string `json:"section"`
}

// SpecExamples loads the 652 examples of the CommonMark 0.31.2 spec: the
// corpus every parse and edit test of this package runs over. It is
// defined in a test file of the package so that its own tests and those
// of taskdoc_test share it.
func SpecExamples(t testing.TB) []SpecExample {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "spec.json"))
	require.NoError(t, err)
	var examples []SpecExample
	require.NoError(t, json.Unmarshal(data, &examples))
	require.Len(t, examples, 652, "spec.json is the CommonMark 0.31.2 example set")
	return examples
}
