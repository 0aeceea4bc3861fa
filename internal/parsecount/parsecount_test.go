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

func TestDuringCountsWhatFnParses(t *testing.T) {
	docs, regions := parsecount.During(func() {
		parsecount.Documents.Add(1)
		parsecount.Regions.Add(4)
	})
	assert.Equal(t, int64(1), docs)
	assert.Equal(t, int64(4), regions)
}
