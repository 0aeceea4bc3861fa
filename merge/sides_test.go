package merge

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadVersion(t *testing.T) {
	src := []byte("# T\n\n## Tasks\n\n### One\n\n- Status: pending\n\nBody.\n\n  \n### Two\nx\n\n## After\n")
	v, ok := readVersion(src, false)
	require.True(t, ok)
	assert.Equal(t, "# T\n\n## Tasks\n\n", string(v.head))
	assert.Equal(t, "## After\n", string(v.tail))
	assert.Equal(t, []string{"one", "two"}, v.order)
	assert.Equal(t, "### One\n\n- Status: pending\n\nBody.\n", string(v.tasks["one"].text))
	assert.Equal(t, "\n  \n", string(v.tasks["one"].gap))
	assert.Equal(t, "### One\n", string(v.tasks["one"].heading()))
	assert.Equal(t, "### Two\nx\n", string(v.tasks["two"].text))
	assert.Equal(t, "\n", string(v.tasks["two"].gap))

	_, ok = readVersion([]byte("# No tasks\n"), false)
	assert.False(t, ok)
	_, ok = readVersion([]byte("## Tasks\n\n### A\n\n### A\n"), false)
	assert.False(t, ok, "a repeated slug")
	v, ok = readVersion(nil, true)
	require.True(t, ok, "an empty base")
	assert.Empty(t, v.order)
}
