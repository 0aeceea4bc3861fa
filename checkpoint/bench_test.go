package checkpoint_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/checkpoint"
	"github.com/taskmd/taskmd/workspace"
)

// benchWorker is a checkpoint of 200 items (about 16 KB): 80 completed,
// 20 in progress, 60 remaining, 20 blocked, 20 files, and some text.
func benchWorker() checkpoint.Checkpoint {
	c := checkpoint.Checkpoint{Worker: "worker-1", Task: "/api/users.md#add-rate-limiting",
		Status: checkpoint.StatusPartial, Phase: "working",
		OriginalTask: "Add rate limiting to every endpoint of the users API, with tests and documentation.",
		Notes:        "- Redis connection pool may need tuning for high load\n- Left a TODO at line 47 of rateLimit.ts",
		Resumption:   "1. Read the files listed above\n2. Finish the routes in progress\n3. Run `npm test`"}
	add := func(list *[]string, n int, what string) {
		for i := range n {
			*list = append(*list, fmt.Sprintf("%s %d: wire the limiter into `src/routes/r%d.ts` and test it", what, i, i))
		}
	}
	add(&c.Completed, 80, "Route")
	add(&c.InProgress, 20, "Route")
	add(&c.Remaining, 60, "Route")
	add(&c.Blocked, 20, "Route")
	for i := range 20 {
		c.FilesChanged = append(c.FilesChanged, checkpoint.FileChange{Path: fmt.Sprintf("src/routes/r%d.ts", i), Note: "modified"})
	}
	return c
}

// Save a 200-item checkpoint: check, lock, list the worker's folder, read
// and parse the current one to detect a retry, render, durable create.
// Each save differs from the one before, so each writes a file. The floor
// is the durable create of the same bytes under the same lock.
func BenchmarkWorkerSave(b *testing.B) {
	ctx := context.Background()
	c := benchWorker()
	b.Run("save", func(b *testing.B) {
		w, _ := setupWorkers(b)
		i := 0
		for b.Loop() {
			c.Notes = fmt.Sprintf("save %d", i)
			i++
			if _, err := w.Save(ctx, c); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("floor=create", func(b *testing.B) {
		ws := openWorkspace(b, b.TempDir())
		data, err := c.Render()
		require.NoError(b, err)
		b.SetBytes(int64(len(data)))
		i := 0
		for b.Loop() {
			i++
			err := ws.Lock(ctx, []string{"checkpoints/workers/worker-1"}, func(tx *workspace.Tx) error {
				return tx.Create(fmt.Sprintf("checkpoints/workers/worker-1/%06d.md", i), data)
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	})
}

// Get the current 200-item checkpoint of a worker with 10 in its history:
// list the folder, read, parse. The floor is the read of the file.
func BenchmarkWorkerGet(b *testing.B) {
	ctx := context.Background()
	w, root := setupWorkers(b)
	c := benchWorker()
	for i := range 10 {
		c.Notes = fmt.Sprintf("save %d", i)
		_, err := w.Save(ctx, c)
		require.NoError(b, err)
	}
	ws := openWorkspace(b, root)
	data, _, err := ws.Read(ctx, "checkpoints/workers/worker-1/000010.md")
	require.NoError(b, err)
	b.Run("get", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			got, err := w.Get(ctx, "worker-1", 0)
			if err != nil || len(got.Completed) != 80 {
				b.Fatal(err)
			}
		}
	})
	b.Run("floor=read", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, _, err := ws.Read(ctx, "checkpoints/workers/worker-1/000010.md"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("parse", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, err := checkpoint.Parse(data); err != nil {
				b.Fatal(err)
			}
		}
	})
}
