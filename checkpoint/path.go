package checkpoint

import "strings"

// WorkerFile is the workspace path of checkpoint sequence of worker:
// "checkpoints/workers/<worker>/000003.md". A paused task's Checkpoint
// field holds it.
func WorkerFile(worker string, sequence int) string { return workerFile(worker, sequence) }

// WorkerDir is the workspace folder of worker's checkpoints, and of the
// files kept beside them (pivot requests, clarifications).
func WorkerDir(worker string) string { return workerDir(worker) }

// ParseWorkerFile reads a path WorkerFile wrote back into its worker and
// sequence; ok is false for any other path.
func ParseWorkerFile(path string) (worker string, sequence int, ok bool) {
	rest, found := strings.CutPrefix(path, FolderWorkers+"/")
	if !found {
		return "", 0, false
	}
	worker, base, found := strings.Cut(rest, "/")
	if !found || CheckWorkerID(worker) != nil {
		return "", 0, false
	}
	sequence, ok = fileSequence(base)
	return worker, sequence, ok
}
