package parsecount_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/taskmd/taskmd/internal/parsecount"
)

func TestSnapshotReadsBothCounters(t *testing.T) {
	docs, regions := parsecount.Snapshot()
	parsecount.Documents.Add(2)
	parsecount.Regions.Add(3)
	d, r := parsecount.Snapshot()
	assert.Equal(t, docs+2, d)
	assert.Equal(t, regions+3, r)
}
