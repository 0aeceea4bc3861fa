package checkpoint

// WorkerFile is the workspace path of checkpoint sequence of worker:
// "checkpoints/workers/<worker>/000003.md". A paused task's Checkpoint
// field holds it.
func WorkerFile(worker string, sequence int) string { return workerFile(worker, sequence) }
