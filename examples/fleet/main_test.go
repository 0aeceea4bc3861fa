package main

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/fleet"
)

func TestMain(m *testing.M) {
	fleet.Child()
	os.Exit(m.Run())
}

// A small fleet, two machine processes with two agents each, completes
// every task of two plans through one bare remote with no failed call,
// and the floor is measured.
func TestSmallFleet(t *testing.T) {
	if testing.Short() {
		t.Skip("machine processes through git")
	}
	r, err := fleet.Run(fleet.Options{Machines: 2, Agents: 2, Tasks: 8, Plans: 2, FloorCycles: 3, Dir: t.TempDir()})
	require.NoError(t, err)
	assert.Zero(t, r.Failed, "%v", r.Errors)
	assert.Zero(t, r.Unfinished)
	require.Len(t, r.Completed, 2)
	assert.Equal(t, 8, r.Completed[0]+r.Completed[1])
	assert.Positive(t, r.TasksPerSec)
	assert.Positive(t, r.FloorPerSec)
}
