// Command pivot shows the pivot and checkpoint-resume protocols end to end on one workspace, with an
// orchestrator and its workers as separate processes: a graceful pivot, a
// hard pivot, a clarification answered during the worker's brief poll, and
// one answered after the worker checkpointed and exited, which is then
// resumed from its checkpoint by a new process. It prints every file of the
// workspace as it changes.
//
//	go run ./examples/pivot            # on a temporary workspace, removed at the end
//	go run ./examples/pivot -root dir  # on dir (kept)
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/taskmd/taskmd/agent"
	"github.com/taskmd/taskmd/checkpoint"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/worker"
	"github.com/taskmd/taskmd/workspace"
)

const shop = `# Shop

The web shop's backlog.

## Tasks

### Add rate limiting
- Status: pending

Limit /users to 100 requests a minute.

### Fix login bug
- Status: pending

Users with an apostrophe in their e-mail cannot log in.

### Write docs
- Status: pending

### Update changelog
- Status: pending
`

func main() {
	log.SetFlags(0)
	if os.Getenv(childEnv) != "" {
		childMain(os.Args[1:])
		return
	}
	root := flag.String("root", "", "workspace directory (default: a temporary one, removed at the end)")
	flag.Parse()
	if err := orchestrate(context.Background(), *root, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// childEnv marks a worker process started by the orchestrator.
const childEnv = "TASKMD_PIVOT_CHILD"

// childMain runs one worker process: -root dir -worker id -script name.
func childMain(args []string) {
	fs := flag.NewFlagSet("worker", flag.ExitOnError)
	root := fs.String("root", "", "workspace directory")
	id := fs.String("worker", "", "the worker's id")
	script := fs.String("script", "", "what the worker does")
	_ = fs.Parse(args)
	if err := runWorker(context.Background(), *root, *id, *script); err != nil {
		log.Fatalf("%s: %v", *id, err)
	}
}

// orchestrate runs the whole story, writing what happens to out.
func orchestrate(ctx context.Context, dir string, out io.Writer) error {
	if dir == "" {
		tmp, err := os.MkdirTemp("", "taskmd-pivot-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	if err := os.MkdirAll(filepath.Join(dir, "docs"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "docs", "shop.md"), []byte(shop), 0o644); err != nil {
		return err
	}
	ws, err := workspace.Open(dir)
	if err != nil {
		return err
	}
	defer ws.Close()
	pivots := worker.New(ws)
	clar := worker.NewClarifications(ws)
	files := newFiles(dir, out)
	say := func(format string, args ...any) { fmt.Fprintf(out, "\n== "+format+"\n", args...) }

	say("the plan")
	files.show()

	// 1. A graceful pivot: worker-a leaves rate limiting for the login bug.
	a, err := start(dir, "worker-a", "pivot")
	if err != nil {
		return err
	}
	a.expect("working")
	say("worker-a claimed and started /shop.md#add-rate-limiting")
	files.show()
	req, err := pivots.Request(ctx, "worker-a", worker.Pivot{Reason: "login is broken in production", NewTask: "/shop.md#fix-login-bug"})
	if err != nil {
		return err
	}
	say("orchestrator: graceful pivot of worker-a requested (%s); waiting for its acknowledgement", req.ID)
	ack, err := pivots.Wait(ctx, "worker-a", req.ID, time.Minute)
	if err != nil {
		return err
	}
	say("worker-a acknowledged: checkpoint %s, new claim on %s", ack.Checkpoint, ack.NewClaim.Task)
	files.show()

	// 2. worker-a asks a question and the answer comes during its brief poll.
	a.expect("asked")
	open, err := clar.Open(ctx)
	if err != nil || len(open) != 1 {
		return fmt.Errorf("open clarifications: %v %v", open, err)
	}
	say("worker-a asks: %s", open[0].Questions[0].Text)
	files.show()
	if _, err := clar.Respond(ctx, "worker-a", open[0].ID, worker.Answer{ResumeSignal: true,
		Responses: []worker.Response{{QuestionID: open[0].Questions[0].ID, Answer: "Escape it in the query; keep the column as it is."}}}); err != nil {
		return err
	}
	say("orchestrator answered during the brief poll")
	if err := a.wait(); err != nil {
		return err
	}
	say("worker-a went on without a checkpoint and completed the login fix")
	files.show()

	// 3. A hard pivot: worker-b's task is taken back without a checkpoint.
	b, err := start(dir, "worker-b", "hard")
	if err != nil {
		return err
	}
	b.expect("working")
	say("worker-b claimed and started /shop.md#write-docs")
	files.show()
	if _, err := pivots.Request(ctx, "worker-b", worker.Pivot{Mode: checkpoint.PivotHard, Reason: "docs wait for the release"}); err != nil {
		return err
	}
	if err := b.wait(); err != nil {
		return err
	}
	say("hard pivot: the task is pending again, worker-b stopped")
	files.show()

	// 4. worker-c asks, nobody answers in time: it checkpoints and exits.
	c, err := start(dir, "worker-c", "suspend")
	if err != nil {
		return err
	}
	if err := c.wait(); err != nil {
		return err
	}
	say("worker-c got no answer during its brief poll: it saved its checkpoint and exited")
	files.show()
	open, err = clar.Open(ctx)
	if err != nil || len(open) != 1 {
		return fmt.Errorf("open clarifications: %v %v", open, err)
	}
	if _, err := clar.Respond(ctx, "worker-c", open[0].ID, worker.Answer{ResumeSignal: true,
		Responses: []worker.Response{{QuestionID: open[0].Questions[0].ID, Answer: "2.4.0"}}}); err != nil {
		return err
	}
	answered, err := clar.Answered(ctx)
	if err != nil || len(answered) != 1 {
		return fmt.Errorf("answered: %v %v", answered, err)
	}
	prompt, err := clar.ResumePrompt(ctx, "worker-c")
	if err != nil {
		return err
	}
	say("the answer arrived; worker-c is resumed with this prompt")
	fmt.Fprintln(out, prompt)
	c, err = start(dir, "worker-c", "resume")
	if err != nil {
		return err
	}
	if err := c.wait(); err != nil {
		return err
	}
	say("worker-c resumed from its checkpoint and completed the changelog")
	files.show()
	return nil
}

// runWorker is one worker process.
func runWorker(ctx context.Context, dir, id, script string) error {
	ws, err := workspace.Open(dir)
	if err != nil {
		return err
	}
	defer ws.Close()
	pivots := worker.New(ws)
	plans := pivots.Plans()
	clar := worker.NewClarifications(ws)
	if _, err := plans.Agents().Register(ctx, agent.Registration{ID: id, Name: id, Runtime: "example"}); err != nil {
		return err
	}
	claimStart := func(task string) (plan.Claimant, error) {
		res, err := plans.Claim(ctx, task, id)
		if err != nil || !res.Success {
			return plan.Claimant{}, fmt.Errorf("claim %s: %v %+v", task, err, res)
		}
		by := plan.Claimant{Agent: id, Token: res.Claim.Token}
		if _, err := plans.UpdateStatus(ctx, task, by, plan.StatusUpdate{Status: taskdoc.StatusInProgress}); err != nil {
			return by, err
		}
		_, err = plans.Agents().Heartbeat(ctx, id, agent.HeartbeatInfo{CurrentTask: task, Status: "busy"})
		return by, err
	}
	// nextPivot waits for a pivot request the way a worker learns of one:
	// on its next call (here, a heartbeat every 50 ms).
	nextPivot := func(task string) (*worker.Request, error) {
		for {
			if _, err := plans.Agents().Heartbeat(ctx, id, agent.HeartbeatInfo{CurrentTask: task, Status: "busy"}); err != nil {
				return nil, err
			}
			if r, err := pivots.Pending(ctx, id); r != nil || err != nil {
				return r, err
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	switch script {
	case "pivot":
		by, err := claimStart("/shop.md#add-rate-limiting")
		if err != nil {
			return err
		}
		fmt.Println("working")
		if _, err := nextPivot("/shop.md#add-rate-limiting"); err != nil {
			return err
		}
		ack, err := pivots.Acknowledge(ctx, id, by, checkpoint.Checkpoint{
			OriginalTask: "Limit /users to 100 requests a minute.",
			Completed:    []string{"token bucket middleware"},
			Remaining:    []string{"tests", "wire it to /users"},
			FilesChanged: []checkpoint.FileChange{{Path: "src/limit.go", Note: "new"}},
			Decisions:    []string{"token bucket, refilled every second"},
			Resumption:   "Write the tests of src/limit.go, then add it to the /users routes.",
		})
		if err != nil {
			return err
		}
		login := plan.Claimant{Agent: id, Token: ack.NewClaim.Token}
		if _, err := plans.UpdateStatus(ctx, "/shop.md#fix-login-bug", login, plan.StatusUpdate{Status: taskdoc.StatusInProgress}); err != nil {
			return err
		}
		q, err := clar.Ask(ctx, id, worker.Needed{BlockedAt: "escaping e-mails", Reason: "Two fixes are possible.",
			Questions: []worker.Question{{Text: "Escape the apostrophe, or normalise stored e-mails?"}}})
		if err != nil {
			return err
		}
		fmt.Println("asked")
		if _, err := clar.Await(ctx, id, q.ID, checkpoint.Checkpoint{Task: "/shop.md#fix-login-bug", Remaining: []string{"the fix"}},
			worker.PollOptions{Duration: time.Minute}); err != nil {
			return err
		}
		_, err = plans.UpdateStatus(ctx, "/shop.md#fix-login-bug", login, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "apostrophes escaped in the login query"})
		return err
	case "hard":
		by, err := claimStart("/shop.md#write-docs")
		if err != nil {
			return err
		}
		fmt.Println("working")
		if _, err := nextPivot("/shop.md#write-docs"); err != nil {
			return err
		}
		_, err = pivots.Acknowledge(ctx, id, by, checkpoint.Checkpoint{})
		return err
	case "suspend":
		if _, err := claimStart("/shop.md#update-changelog"); err != nil {
			return err
		}
		q, err := clar.Ask(ctx, id, worker.Needed{BlockedAt: "the release heading", Reason: "The version is not decided.",
			Questions: []worker.Question{{Text: "Which version does this release get?"}}, PollDuration: 500 * time.Millisecond})
		if err != nil {
			return err
		}
		_, err = clar.Await(ctx, id, q.ID, checkpoint.Checkpoint{Task: "/shop.md#update-changelog",
			OriginalTask: "Update the changelog for the release.", Completed: []string{"entries collected"},
			Remaining: []string{"the version heading"}, Resumption: "Write the heading with the version, then complete the task."},
			worker.PollOptions{})
		if errors.Is(err, worker.ErrSuspended) {
			return nil // exit cleanly: the parent resumes us
		}
		return fmt.Errorf("expected to be suspended, got %v", err)
	case "resume":
		res, err := pivots.Resume(ctx, "/shop.md#update-changelog", id, 0)
		if err != nil || !res.Claim.Success {
			return fmt.Errorf("resume: %v %+v", err, res.Claim)
		}
		by := plan.Claimant{Agent: id, Token: res.Claim.Claim.Token}
		_, err = plans.UpdateStatus(ctx, "/shop.md#update-changelog", by, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "changelog for 2.4.0"})
		return err
	}
	return fmt.Errorf("unknown script %q", script)
}

// proc is a worker process.
type proc struct {
	cmd   *exec.Cmd
	lines *bufio.Scanner
}

func start(dir, id, script string) (*proc, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self, "-root", dir, "-worker", id, "-script", script)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &proc{cmd: cmd, lines: bufio.NewScanner(stdout)}, nil
}

// expect waits for the worker to print line.
func (p *proc) expect(line string) {
	for p.lines.Scan() {
		if p.lines.Text() == line {
			return
		}
	}
}

func (p *proc) wait() error {
	for p.lines.Scan() {
	}
	return p.cmd.Wait()
}

// files prints the files of the workspace that changed since it last did.
type files struct {
	dir  string
	out  io.Writer
	seen map[string]string
}

func newFiles(dir string, out io.Writer) *files {
	return &files{dir: dir, out: out, seen: map[string]string{}}
}

func (f *files) show() {
	var names []string
	now := map[string]string{}
	filepath.WalkDir(f.dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(f.dir, p)
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(rel, ".taskmd/locks/") || strings.Contains(rel, ".tmp-") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		now[rel] = string(data)
		if f.seen[rel] != string(data) {
			names = append(names, rel)
		}
		return nil
	})
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(f.out, "\n--- %s\n%s", name, now[name])
	}
	f.seen = now
}
