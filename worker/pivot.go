package worker

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"time"

	"github.com/taskmd/taskmd/checkpoint"
	"github.com/taskmd/taskmd/internal/mdtext"
	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/internal/watch"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// DefaultAckTimeout is how long Wait waits for an acknowledgement unless
// told otherwise.
const DefaultAckTimeout = 60 * time.Second

// The states of a pivot request.
const (
	StatePending      = "pending"      // the worker has not acknowledged yet
	StateAcknowledged = "acknowledged" // the worker saved its checkpoint and let go
)

// Pivot is what an orchestrator asks of a worker.
type Pivot struct {
	Mode    checkpoint.PivotMode `json:"mode,omitempty"`     // graceful ("" too), immediate or hard
	Reason  string               `json:"reason"`             // why; one line
	NewTask string               `json:"new_task,omitempty"` // optional: a task address (claimed for the worker) or free text
	// Task is the task the worker is pivoted from; "" takes the current
	// task of the worker's last heartbeat, or none when that task is
	// completed or skipped. A named task that is completed or skipped is
	// INVALID_TRANSITION: the worker has nothing left to let go of.
	Task string `json:"task,omitempty"`
}

// Request is a pivot request as recorded in the worker's pivot.json.
type Request struct {
	ID        string               `json:"id"`
	Worker    string               `json:"worker"`
	Task      string               `json:"task,omitempty"`
	Mode      checkpoint.PivotMode `json:"mode"`
	Reason    string               `json:"reason"`
	NewTask   string               `json:"new_task,omitempty"`
	Requested time.Time            `json:"requested"`
	State     string               `json:"state"`
	// Set by Acknowledge:
	Acknowledged time.Time   `json:"acknowledged,omitzero"`
	Checkpoint   string      `json:"checkpoint,omitempty"` // the saved checkpoint's path
	Sequence     int         `json:"sequence,omitempty"`   // and its sequence
	NewClaim     *plan.Claim `json:"new_claim,omitempty"`  // the claim of the new task, when it was an address
}

// Pivots gives orchestrators and workers the pivots of one workspace. It
// keeps no state of its own.
type Pivots struct {
	ws      *workspace.Workspace
	plans   *plan.Plans
	workers *checkpoint.Store
	cfg     taskflow.Config
	timer   watch.Clock
}

// An Option configures Pivots or Clarifications: WithClock,
// WithAgentTimeout. The zero Option is ignored.
type Option struct{ o taskflow.Option }

// WithClock sets the clock that dates requests, acknowledgements, claims
// and checkpoints. The default is time.Now; a nil clock is ignored.
func WithClock(now func() time.Time) Option { return Option{taskflow.WithClock(now)} }

// WithAgentTimeout sets how long an agent stays online after its last
// heartbeat, and so how long the claims the pivots make and move last
// without one (plan.WithAgentTimeout); zero or less is ignored.
func WithAgentTimeout(d time.Duration) Option { return Option{taskflow.WithAgentTimeout(d)} }

func config(opts []Option) taskflow.Config {
	return taskflow.Configure(opts, func(o Option) taskflow.Option { return o.o })
}

// Timer gives Wait its timeout; tests inject one they fire by hand.
type Timer = watch.Clock

// New returns the pivots of ws, on the plans and worker checkpoints of ws
// with the same clock (and the plans with the same agent timeout).
func New(ws *workspace.Workspace, opts ...Option) *Pivots {
	cfg := config(opts)
	return &Pivots{ws: ws, plans: plan.New(ws, plan.WithClock(cfg.Now), plan.WithAgentTimeout(cfg.AgentTimeout)),
		workers: checkpoint.New(ws, checkpoint.WithClock(cfg.Now)), cfg: cfg, timer: watch.RealClock{}}
}

// WithTimer returns p with the timer of its waits set to t.
func (p *Pivots) WithTimer(t Timer) *Pivots {
	q := *p
	q.timer = t
	return &q
}

// Plans is the plan access the pivots use.
func (p *Pivots) Plans() *plan.Plans { return p.plans }

// Workers is the worker checkpoint store the pivots use.
func (p *Pivots) Workers() *checkpoint.Store { return p.workers }

func requestFile(worker string) string {
	return checkpoint.WorkerDir(worker) + "/pivot.json"
}

// Request asks worker to pivot. The worker must be a registered agent
// (AGENT_NOT_FOUND); a new task given as an address must exist
// (DOCUMENT_NOT_FOUND, TASK_NOT_FOUND) and not be done already
// (INVALID_TRANSITION), or nothing is written. A hard pivot takes the
// task back at once (see the package doc) and is recorded as pending
// until the worker acknowledges it. A request equal to the worker's latest
// one (mode, reason, tasks), pending or acknowledged, is a retry and
// returns it; another one replaces it.
func (p *Pivots) Request(ctx context.Context, worker string, pv Pivot) (Request, error) {
	if err := checkpoint.CheckWorkerID(worker); err != nil {
		return Request{}, err
	}
	mode, err := checkpoint.ParsePivotMode(string(pv.Mode))
	if err != nil {
		return Request{}, err
	}
	if mode == "" {
		mode = checkpoint.PivotGraceful
	}
	// The reason is checked by the rule the acknowledgement's checkpoint
	// checks it with, and the new task (sent to the worker) by the same:
	// a request no acknowledgement could carry out is never recorded.
	reason, err := mdtext.FoldedLine("reason", pv.Reason)
	if err != nil {
		return Request{}, err
	}
	newTask, err := mdtext.FoldedLine("new_task", pv.NewTask)
	if err != nil {
		return Request{}, err
	}
	a, err := p.plans.Agents().Get(ctx, worker)
	if err != nil {
		return Request{}, err
	}
	task := pv.Task
	if task == "" {
		task = a.CurrentTask
	}
	if task != "" {
		done, err := p.checkTask(ctx, task)
		switch {
		case err != nil:
			return Request{}, err
		case done && pv.Task != "":
			return Request{}, &taskdoc.Error{Code: taskdoc.CodeInvalidTransition,
				Msg: fmt.Sprintf("task %s is done already: there is nothing to pivot worker %s from; name its current task, or none", task, worker)}
		case done:
			task = "" // the heartbeat is older than the task's end: the worker works on nothing
		}
	}
	if isTask(newTask) {
		// A new task no acknowledgement could claim (missing, or done
		// already) is refused now, not when the worker acknowledges:
		// the worker could never carry the request out.
		if done, err := p.checkTask(ctx, newTask); err != nil {
			return Request{}, err
		} else if done {
			return Request{}, &taskdoc.Error{Code: taskdoc.CodeInvalidTransition,
				Msg: fmt.Sprintf("the new task %s is done already: there is nothing left for worker %s to claim; give another task", newTask, worker)}
		}
	}
	req := Request{Worker: worker, Task: task, Mode: mode, Reason: reason, NewTask: newTask, State: StatePending}
	if old, err := p.read(ctx, worker); err != nil {
		return Request{}, err
	} else if old != nil && samePending(*old, req) {
		return *old, nil // a retry: answered before anything is done again
	}
	if mode == checkpoint.PivotHard && task != "" {
		// Only a task the worker holds is taken back: a stale heartbeat
		// must not unpause or take another agent's task.
		if _, err := p.plans.Revoke(ctx, task, worker); err != nil {
			return Request{}, err
		}
	}
	var out Request
	_, err = p.ws.Update(ctx, requestFile(worker), func(cur []byte, exists bool) ([]byte, error) {
		if exists {
			var old Request
			if json.Unmarshal(cur, &old) == nil && samePending(old, req) {
				out = old
				return nil, nil
			}
		}
		out = req
		out.ID = newID()
		out.Requested = p.cfg.Now().UTC()
		return encodeJSON(out)
	})
	if err != nil {
		return Request{}, err
	}
	return out, nil
}

// samePending reports whether old, the worker's latest request, asks what
// req asks: a retry, pending or answered already (a retry whose first
// answer was lost after the worker acknowledged: it returns the
// acknowledged request and asks the worker nothing again).
func samePending(old, req Request) bool {
	return (old.State == StatePending || old.State == StateAcknowledged) && old.Task == req.Task && old.Mode == req.Mode &&
		old.Reason == req.Reason && old.NewTask == req.NewTask
}

// checkTask checks that task is the address of a task of a plan that
// exists, before a request names it (INVALID_ADDRESS, DOCUMENT_NOT_FOUND,
// TASK_NOT_FOUND otherwise), and reports whether it is done (completed or
// skipped): no pause lets it go any more.
func (p *Pivots) checkTask(ctx context.Context, task string) (done bool, err error) {
	t, err := taskflow.ParseDocs(task)
	if err != nil {
		return false, err
	}
	if t.Slug == "" {
		return false, &taskdoc.Error{Code: taskdoc.CodeInvalidAddress, Path: t.Path,
			Msg: fmt.Sprintf("%q names a plan, not the task the worker is pivoted from", task)}
	}
	snap, err := taskflow.ReadSnapshot(ctx, p.ws, t.File)
	if err != nil {
		return false, t.Flow().At(err, t.Slug)
	}
	tk, err := snap.Doc.Task(t.Slug)
	if err != nil {
		return false, t.Flow().At(err, t.Slug)
	}
	return tk.Status.Final(), nil
}

// RequestAll asks several workers to pivot (the protocol's pivot chains), in
// order, and stops at the first error.
func (p *Pivots) RequestAll(ctx context.Context, pivots map[string]Pivot) ([]Request, error) {
	if err := p.ws.Check(); err != nil {
		return nil, err
	}
	out := make([]Request, 0, len(pivots))
	for _, worker := range sortedKeys(pivots) {
		r, err := p.Request(ctx, worker, pivots[worker])
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, nil
}

// Pending returns the worker's pivot request that waits for its
// acknowledgement, or nil: one read of a small file, cheap enough for every
// call the worker makes.
func (p *Pivots) Pending(ctx context.Context, worker string) (*Request, error) {
	r, err := p.read(ctx, worker)
	if err != nil || r == nil || r.State != StatePending {
		return nil, err
	}
	return r, nil
}

// read returns the worker's request, nil when there is none.
func (p *Pivots) read(ctx context.Context, worker string) (*Request, error) {
	if err := checkpoint.CheckWorkerID(worker); err != nil {
		return nil, err
	}
	data, err := p.ws.ReadIfExists(ctx, requestFile(worker))
	if err != nil || data == nil {
		return nil, err
	}
	var r Request
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, parseErr(requestFile(worker), "pivot request", err)
	}
	return &r, nil
}

// Acknowledge carries out the worker's pending pivot (see the package doc):
// it saves cp as the worker's checkpoint (not for a hard pivot), pauses the
// task it was pivoted from under claim (its claim of that task; without
// an Agent the worker writes as itself with no token, which pauses only a
// task no agent holds), claims the new task when it is an address,
// and records the acknowledgement. Every refusal of the pause and of the
// claim (STALE_CLAIM, INVALID_TRANSITION, TASK_BLOCKED, TASK_NOT_FOUND, a
// new task another agent holds: CONFLICT) is decided before the checkpoint
// is saved, and leaves every file as it was. A request acknowledged
// already is returned as it is (a retry); no request is INVALID_ARGUMENTS.
// A task completed or skipped since the request (the worker finished it
// first) has nothing left to let go of: the checkpoint is saved and the
// new task claimed, and the task is left as it is.
// A retry whose task an earlier try paused, and another agent has claimed
// since, leaves the task to that agent and completes with the earlier
// try's checkpoint; of acknowledgements running at once with different
// checkpoints, the one recorded first is the one the task points at.
func (p *Pivots) Acknowledge(ctx context.Context, worker string, claim plan.Claimant, cp checkpoint.Checkpoint) (Request, error) {
	r, err := p.read(ctx, worker)
	if err != nil {
		return Request{}, err
	}
	switch {
	case r == nil:
		return Request{}, &taskdoc.Error{Code: taskdoc.CodeInvalidArguments,
			Msg: fmt.Sprintf("no pivot was requested of worker %s", worker)}
	case r.State == StateAcknowledged:
		return *r, nil
	}
	if claim.Agent == "" {
		claim.Agent = worker // the worker writes as itself: fenced even without a token
	}
	ack := *r
	earlier, done, err := p.checkAck(ctx, *r, claim)
	if err != nil {
		return Request{}, err
	}
	switch {
	case r.Mode == checkpoint.PivotHard:
	case earlier.Sequence > 0:
		ack.Sequence, ack.Checkpoint = earlier.Sequence, checkpoint.WorkerFile(worker, earlier.Sequence)
	default:
		cp.Worker, cp.Task, cp.Phase = worker, r.Task, "pivoted"
		cp.PivotMode, cp.PivotReason = r.Mode, r.Reason
		saved, err := p.workers.Save(ctx, cp)
		if err != nil {
			return Request{}, err
		}
		ack.Sequence = saved.Sequence
		ack.Checkpoint = checkpoint.WorkerFile(worker, saved.Sequence)
		if r.Task != "" && !done {
			if _, err := p.plans.Pause(ctx, r.Task, claim, ack.Checkpoint); err != nil &&
				(taskdoc.CodeOf(err) != plan.CodeStaleClaim || p.pausedWith(ctx, r.Task) != ack.Checkpoint) {
				return Request{}, err
			}
		}
	}
	if isTask(r.NewTask) {
		res, err := p.plans.Claim(ctx, r.NewTask, worker)
		if err != nil {
			return Request{}, err
		}
		if !res.Success {
			return Request{}, heldBy(*r, res)
		}
		ack.NewClaim = res.Claim
	}
	ack.State, ack.Acknowledged = StateAcknowledged, p.cfg.Now().UTC()
	mine := ack.Checkpoint
	_, err = p.ws.Update(ctx, requestFile(worker), func(cur []byte, exists bool) ([]byte, error) {
		var now Request
		if !exists || json.Unmarshal(cur, &now) != nil || now.ID != r.ID {
			return nil, &taskdoc.Error{Code: taskdoc.CodeConflict,
				Msg: fmt.Sprintf("the pivot request of worker %s changed while it was acknowledged: read it again", worker)}
		}
		if now.State == StateAcknowledged {
			ack = now
			return nil, nil
		}
		return encodeJSON(ack)
	})
	if err != nil {
		return Request{}, err
	}
	if r.Task != "" && !done && ack.Checkpoint != mine {
		// Another acknowledgement of this request, with another checkpoint,
		// was recorded first, and this one's pause may have come after
		// its: the task points at the recorded checkpoint again (unless
		// another agent has claimed it since).
		if _, err := p.plans.Pause(ctx, r.Task, claim, ack.Checkpoint); err != nil && taskdoc.CodeOf(err) != plan.CodeStaleClaim {
			return Request{}, err
		}
	}
	return ack, nil
}

// checkAck decides, before Acknowledge writes anything, whether the pause
// and the claim of request r would be made: it returns their refusal, or
// the checkpoint of an earlier try of r whose pause went through and
// whose task another agent has claimed since (Sequence 0 for none: the
// checkpoint is saved and the task paused now). done reports that r's task
// is completed or skipped since r was made (the worker finished it before
// it acknowledged): there is nothing left to pause, as for a request from
// no task.
func (p *Pivots) checkAck(ctx context.Context, r Request, claim plan.Claimant) (earlier checkpoint.Checkpoint, done bool, err error) {
	if r.Mode != checkpoint.PivotHard && r.Task != "" {
		if err := p.plans.CheckPause(ctx, r.Task, claim); err != nil {
			switch code := taskdoc.CodeOf(err); {
			case code == taskdoc.CodeInvalidTransition && p.done(ctx, r.Task):
				done, earlier = true, p.pausedBy(ctx, r)
			case code != plan.CodeStaleClaim:
				return earlier, false, err
			default:
				if earlier = p.pausedBy(ctx, r); earlier.Sequence == 0 {
					return earlier, false, err
				}
			}
		}
	}
	if isTask(r.NewTask) {
		res, err := p.plans.CheckClaim(ctx, r.NewTask, r.Worker)
		if err != nil {
			return earlier, done, err
		}
		if !res.Success {
			return earlier, done, heldBy(r, res)
		}
	}
	return earlier, done, nil
}

// done reports whether task is completed or skipped.
func (p *Pivots) done(ctx context.Context, task string) bool {
	d, err := p.checkTask(ctx, task)
	return err == nil && d
}

// heldBy is the CONFLICT of r's new task held by another agent.
func heldBy(r Request, res plan.ClaimResult) error {
	return &taskdoc.Error{Code: taskdoc.CodeConflict,
		Msg: fmt.Sprintf("the new task %s is held by agent %s: the pivot is not acknowledged; ask the orchestrator for another task", r.NewTask, res.AlreadyClaimedBy)}
}

// pausedBy returns the checkpoint an earlier try of r saved and paused
// r's task with (the task's Checkpoint field names a pivoted checkpoint of
// r's worker, from r's task, mode and reason), or one with Sequence 0: a
// STALE_CLAIM from the pause then means another agent has claimed the
// task since that try, not that the worker lost it before.
func (p *Pivots) pausedBy(ctx context.Context, r Request) checkpoint.Checkpoint {
	w, seq, ok := checkpoint.ParseWorkerFile(p.pausedWith(ctx, r.Task))
	if !ok || w != r.Worker {
		return checkpoint.Checkpoint{}
	}
	cp, err := p.workers.Get(ctx, w, seq)
	if err != nil || cp.Phase != "pivoted" || cp.Task != r.Task || cp.PivotMode != r.Mode || cp.PivotReason != r.Reason {
		return checkpoint.Checkpoint{}
	}
	return cp
}

// pausedWith returns task's Checkpoint field, "" when it has none or
// cannot be read.
func (p *Pivots) pausedWith(ctx context.Context, task string) string {
	t, err := taskflow.ParseDocs(task)
	if err != nil {
		return ""
	}
	snap, err := taskflow.ReadSnapshot(ctx, p.ws, t.File)
	if err != nil {
		return ""
	}
	tk, err := snap.Doc.Task(t.Slug)
	if err != nil {
		return ""
	}
	v, _ := tk.Field(taskdoc.KeyCheckpoint)
	return v
}

// Wait waits for the acknowledgement of request id of worker, up to
// timeout (0 is DefaultAckTimeout), without polling: it is told of every
// change of the worker's folder. It returns the acknowledged request, or
// NO_ACK with the advice to pivot in hard mode.
func (p *Pivots) Wait(ctx context.Context, worker, id string, timeout time.Duration) (Request, error) {
	if err := checkpoint.CheckWorkerID(worker); err != nil {
		return Request{}, err
	}
	if timeout <= 0 {
		timeout = DefaultAckTimeout
	}
	var got Request
	dir := filepath.Join(p.ws.Root(), filepath.FromSlash(checkpoint.WorkerDir(worker)))
	ok, err := watch.Until(ctx, dir, timeout, p.timer, func() (bool, error) {
		r, err := p.read(ctx, worker)
		if err != nil || r == nil {
			return false, err
		}
		if r.ID != id {
			return false, &taskdoc.Error{Code: taskdoc.CodeConflict,
				Msg: fmt.Sprintf("the pivot request %s of worker %s was replaced by %s", id, worker, r.ID)}
		}
		got = *r
		return r.State == StateAcknowledged, nil
	})
	if err != nil {
		return Request{}, err
	}
	if !ok {
		return Request{}, &taskdoc.Error{Code: CodeNoAck,
			Msg: fmt.Sprintf("worker %s did not acknowledge pivot %s within %v: it may be stuck or gone; pivot it in hard mode to take its task back without a checkpoint", worker, id, timeout)}
	}
	return got, nil
}

// WaitAll waits for the acknowledgements of several requests at once and
// returns them in the same order; each failure is in errs at its index.
func (p *Pivots) WaitAll(ctx context.Context, reqs []Request, timeout time.Duration) (acks []Request, errs []error) {
	acks, errs = make([]Request, len(reqs)), make([]error, len(reqs))
	done := make(chan struct{})
	for i, r := range reqs {
		go func() {
			defer func() { done <- struct{}{} }()
			acks[i], errs[i] = p.Wait(ctx, r.Worker, r.ID, timeout)
		}()
	}
	for range reqs {
		<-done
	}
	return acks, errs
}

// isTask reports whether s is a task address (a new task to claim) rather
// than free text.
func isTask(s string) bool {
	a, err := taskdoc.ParseAddress(s)
	return err == nil && a.Slug != "" && a.Folder() == taskdoc.FolderDocs
}

func newID() string {
	var b [6]byte
	rand.Read(b[:])
	return "pv_" + hex.EncodeToString(b[:])
}
