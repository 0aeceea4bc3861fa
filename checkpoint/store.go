package checkpoint

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// Store gives access to the worker checkpoints of one workspace. It keeps
// no state of its own: any number of values, goroutines and processes may
// use one workspace at once.
type Store struct {
	ws  *workspace.Workspace
	cfg taskflow.Config
}

// An Option configures a Store: WithClock. The zero Option is ignored.
type Option struct{ o taskflow.Option }

func config(opts []Option) taskflow.Config {
	return taskflow.Configure(opts, func(o Option) taskflow.Option { return o.o })
}

// WithClock sets the clock that dates checkpoints (in UTC, to the second).
// The default is time.Now; a nil clock is ignored.
func WithClock(now func() time.Time) Option { return Option{taskflow.WithClock(now)} }

// New returns the worker checkpoints of ws. WithClock sets the
// clock that dates them.
func New(ws *workspace.Workspace, opts ...Option) *Store {
	return &Store{ws: ws, cfg: config(opts)}
}

// Save records c as the current checkpoint of its worker (c.Worker) and
// returns it as written: in normal form (see Render), with its Sequence
// (one more than the worker's newest) and Time (the clock's, in UTC, to
// the second); the Sequence and Time of c are ignored. The file is
// checkpoints/workers/<worker>/<sequence, 6 digits>.md, created durably
// and atomically; earlier checkpoints stay as the worker's history.
//
// A checkpoint equal to the worker's current one but for Sequence and Time
// is a retry: Save writes nothing and returns the current one. A current
// checkpoint that a person broke is no reason to refuse a new one: it is
// kept as history, and the new one is saved after it.
//
// A missing or invalid worker id and the values Render refuses are
// INVALID_ARGUMENTS, INVALID_UTF8 or CONTROL_CHARACTER, and nothing is
// written.
func (w *Store) Save(ctx context.Context, c Checkpoint) (Checkpoint, error) {
	if err := CheckWorkerID(c.Worker); err != nil {
		return Checkpoint{}, err
	}
	worker := c.Worker
	c.Time, c.Sequence = time.Time{}, 0
	c, err := c.normal()
	if err != nil {
		return Checkpoint{}, at(err, worker)
	}
	dir := workerDir(c.Worker)
	var saved Checkpoint
	err = w.ws.Lock(ctx, []string{dir}, func(tx *workspace.Tx) error {
		seqs, err := w.sequences(ctx, c.Worker)
		if err != nil {
			return err
		}
		next := 1
		if len(seqs) > 0 {
			last := seqs[len(seqs)-1]
			if last == math.MaxInt {
				return invalid(fmt.Sprintf("worker %s has checkpoint %d, which none can follow", c.Worker, last))
			}
			next = last + 1
			if cur, ok := w.current(tx, c.Worker, last); ok && sameCheckpoint(cur, c) {
				saved = cur
				return nil
			}
		}
		c.Sequence = next
		c.Time = w.cfg.Now().UTC().Truncate(time.Second)
		if y := c.Time.Year(); y < 0 || y > 9999 {
			return invalid(fmt.Sprintf("the clock reads %v, which a checkpoint cannot record (years 0 to 9999)", c.Time))
		}
		if err := tx.Create(workerFile(c.Worker, next), c.render()); err != nil {
			return err
		}
		saved = c
		return nil
	})
	if err != nil {
		return Checkpoint{}, at(err, c.Worker)
	}
	return saved, nil
}

// current reads the checkpoint seq of worker, and reports whether it
// reads.
func (w *Store) current(tx *workspace.Tx, worker string, seq int) (Checkpoint, bool) {
	src, err := tx.ReadData(workerFile(worker, seq))
	if err != nil {
		return Checkpoint{}, false
	}
	c, err := parseWorker(src, workerFile(worker, seq))
	if err != nil {
		return Checkpoint{}, false
	}
	c.Worker, c.Sequence = worker, seq
	return c, true
}

// sameCheckpoint reports whether a and b, both normal, hold the same
// checkpoint apart from Sequence and Time.
func sameCheckpoint(a, b Checkpoint) bool {
	a.Sequence, a.Time, b.Sequence, b.Time = 0, time.Time{}, 0, time.Time{}
	return bytes.Equal(a.render(), b.render())
}

// Get returns checkpoint sequence of worker, or its current (newest) one
// when sequence is 0. The file's folder and name give the Worker and
// Sequence, whatever its front matter says. A worker without checkpoints,
// or without that one, is DOCUMENT_NOT_FOUND; a checkpoint a person broke
// is PARSE_ERROR naming its file.
func (w *Store) Get(ctx context.Context, worker string, sequence int) (Checkpoint, error) {
	if err := CheckWorkerID(worker); err != nil {
		return Checkpoint{}, err
	}
	if sequence < 0 {
		return Checkpoint{}, invalid(fmt.Sprintf("sequence %d is negative: give 0 for the current checkpoint", sequence))
	}
	if sequence == 0 {
		seqs, err := w.sequences(ctx, worker)
		if err != nil {
			return Checkpoint{}, at(err, worker)
		}
		if len(seqs) == 0 {
			return Checkpoint{}, &taskdoc.Error{Code: taskdoc.CodeDocumentNotFound, Path: workerDir(worker),
				Msg: fmt.Sprintf("worker %s has no checkpoint", worker)}
		}
		sequence = seqs[len(seqs)-1]
	}
	return w.read(ctx, worker, sequence)
}

func (w *Store) read(ctx context.Context, worker string, seq int) (Checkpoint, error) {
	name := workerFile(worker, seq)
	src, err := w.ws.ReadData(ctx, name)
	if taskdoc.CodeOf(err) == taskdoc.CodeDocumentNotFound {
		return Checkpoint{}, &taskdoc.Error{Code: taskdoc.CodeDocumentNotFound, Path: name,
			Msg: fmt.Sprintf("worker %s has no checkpoint %d (no %s)", worker, seq, name)}
	}
	if err != nil {
		return Checkpoint{}, err
	}
	c, err := parseWorker(src, name)
	if err != nil {
		return Checkpoint{}, err
	}
	c.Worker, c.Sequence = worker, seq
	return c, nil
}

// List returns the checkpoints of worker, newest first: the newest limit
// of them, or all when limit is 0. A worker without checkpoints has none.
// A checkpoint a person broke is PARSE_ERROR naming its file.
func (w *Store) List(ctx context.Context, worker string, limit int) ([]Checkpoint, error) {
	if err := CheckWorkerID(worker); err != nil {
		return nil, err
	}
	if limit < 0 {
		return nil, invalid(fmt.Sprintf("limit %d is negative: give 0 for all", limit))
	}
	seqs, err := w.sequences(ctx, worker)
	if err != nil {
		return nil, at(err, worker)
	}
	out := make([]Checkpoint, 0, len(seqs))
	for i := len(seqs) - 1; i >= 0 && (limit == 0 || len(out) < limit); i-- {
		c, err := w.read(ctx, worker, seqs[i])
		if taskdoc.CodeOf(err) == taskdoc.CodeDocumentNotFound {
			continue // removed since the folder was listed
		}
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// defaultListAll is how many checkpoints of each worker ListAll returns
// unless told otherwise.
const defaultListAll = 10

// ListAll returns the checkpoints of every worker that has some: the
// workers in the order of their ids, each one's newest first, at most
// limit of each (0 is 10), so that the list stays bounded
// however long the workers have run. A checkpoint a person broke is
// PARSE_ERROR naming its file.
func (w *Store) ListAll(ctx context.Context, limit int) ([]Checkpoint, error) {
	if limit < 0 {
		return nil, invalid(fmt.Sprintf("limit %d is negative: give 0 for the newest %d of each worker", limit, defaultListAll))
	}
	if limit == 0 {
		limit = defaultListAll
	}
	workers, err := w.ListWorkers(ctx)
	if err != nil {
		return nil, err
	}
	out := []Checkpoint{}
	for _, id := range workers {
		list, err := w.List(ctx, id, limit)
		if err != nil {
			return nil, err
		}
		out = append(out, list...)
	}
	return out, nil
}

// ListWorkers returns the ids of the workers that have checkpoints,
// sorted. Folders under checkpoints/workers/ whose names are no worker
// ids, or that hold no checkpoint file, are skipped.
func (w *Store) ListWorkers(ctx context.Context) ([]string, error) {
	var out []string
	err := w.ws.Walk(ctx, FolderWorkers, func(name string, _ *taskdoc.Document, _ error) error {
		// Only the names matter: a checkpoint that is not a plan document
		// or does not read still counts.
		rest, ok := strings.CutPrefix(name, FolderWorkers+"/")
		id, file, ok2 := strings.Cut(rest, "/")
		if !ok || !ok2 || CheckWorkerID(id) != nil {
			return nil
		}
		if _, ok := fileSequence(file); !ok {
			return nil
		}
		if len(out) == 0 || out[len(out)-1] != id {
			out = append(out, id)
		}
		return fs.SkipDir // the rest of this worker's files
	})
	if err != nil {
		return nil, err
	}
	return slices.Compact(out), nil
}

// sequences lists the sequences of worker's checkpoint files, ascending.
func (w *Store) sequences(ctx context.Context, worker string) ([]int, error) {
	names, err := w.ws.List(ctx, workerDir(worker))
	if err != nil {
		return nil, err
	}
	seqs := make([]int, 0, len(names))
	for _, name := range names {
		if n, ok := fileSequence(name[strings.LastIndexByte(name, '/')+1:]); ok {
			seqs = append(seqs, n)
		}
	}
	slices.Sort(seqs)
	return seqs, nil
}

func workerDir(worker string) string { return FolderWorkers + "/" + worker }

func workerFile(worker string, seq int) string {
	return fmt.Sprintf("%s/%06d.md", workerDir(worker), seq)
}

// fileSequence reads a checkpoint file name, "000042.md": the sequence at
// least 6 digits wide, without other leading zeros, from 1.
func fileSequence(base string) (int, bool) {
	digits, ok := strings.CutSuffix(base, ".md")
	if !ok || len(digits) < 6 {
		return 0, false
	}
	n, err := strconv.Atoi(digits)
	if err != nil || n < 1 || fmt.Sprintf("%06d", n) != digits {
		return 0, false
	}
	return n, true
}

// at names the worker's folder in err, when err names no file yet.
func at(err error, worker string) error {
	var e *taskdoc.Error
	if errors.As(err, &e) && e.Path == "" && worker != "" {
		e.Path = workerDir(worker)
	}
	return err
}
