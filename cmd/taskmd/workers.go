package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/taskmd/taskmd/checkpoint"
	"github.com/taskmd/taskmd/internal/settings"
	"github.com/taskmd/taskmd/journal"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/worker"
)

func (e *env) pivots() (*worker.Pivots, error) {
	ws, cfg, err := e.settings()
	if err != nil {
		return nil, err
	}
	return worker.New(ws, append(settings.Worker(cfg), worker.WithClock(e.now))...), nil
}

func (e *env) clarifications() (*worker.Clarifications, error) {
	ws, cfg, err := e.settings()
	if err != nil {
		return nil, err
	}
	return worker.NewClarifications(ws, append(settings.Worker(cfg), worker.WithClock(e.now))...), nil
}

func cmdPivot(e *env, args []string) error {
	if len(args) > 0 && args[0] == "acknowledge" {
		return pivotAcknowledge(e, args[1:])
	}
	fs := e.flags("pivot")
	id := fs.String("worker", "", "")
	mode := fs.String("mode", "graceful", "")
	var pv worker.Pivot
	fs.StringVar(&pv.Reason, "reason", "", "")
	fs.StringVar(&pv.NewTask, "new-task", "", "")
	fs.StringVar(&pv.Task, "task", "", "")
	wait := fs.Bool("wait", false, "")
	timeout := fs.Duration("timeout", worker.DefaultAckTimeout, "")
	if _, err := parseN(fs, args); err != nil {
		return err
	}
	if *id == "" || pv.Reason == "" {
		return usagef("usage: taskmd pivot --worker ID --mode graceful|immediate|hard --reason R [--new-task T] [--wait [--timeout D]]")
	}
	m, err := checkpoint.ParsePivotMode(*mode)
	if err != nil {
		return err
	}
	pv.Mode = m
	p, err := e.pivots()
	if err != nil {
		return err
	}
	req, err := p.Request(e.ctx, *id, pv)
	if err != nil {
		return err
	}
	if *wait {
		if req, err = p.Wait(e.ctx, *id, req.ID, *timeout); err != nil {
			return err
		}
	}
	return e.print(req, func(w io.Writer) {
		fmt.Fprintf(w, "pivot %s of %s: %s %s\n", req.ID, req.Worker, req.Mode, req.State)
		if req.Checkpoint != "" {
			fmt.Fprintf(w, "checkpoint: %s\n", req.Checkpoint)
		}
		if req.NewClaim != nil {
			fmt.Fprintf(w, "claimed %s token %d\n", req.NewClaim.Task, req.NewClaim.Token)
		}
	})
}

// checkpointCommands are the subcommands of "taskmd checkpoint".
var checkpointCommands = map[string]func(*env, []string) error{
	"add":  checkpointAdd,
	"list": checkpointList,
	"show": checkpointShow,
	"diff": checkpointDiff,
}

func cmdCheckpoint(e *env, args []string) error {
	return e.sub("checkpoint", checkpointCommands, args)
}

// checkpointAdd appends to a task's journal, as the claim holder when
// --token is given (fenced: STALE_CLAIM once the claim is gone).
func checkpointAdd(e *env, args []string) error {
	fs := e.flags("checkpoint add")
	var c claimFlags
	c.add(fs)
	var en journal.Entry
	typ := fs.String("type", "", "")
	fs.StringVar(&en.Summary, "summary", "", "")
	fs.StringVar(&en.Detail, "detail", "", "")
	fs.StringVar(&en.Key, "key", "", "")
	files := fs.String("files", "", "")
	pos, err := parseN(fs, args, "ADDRESS --type T --summary S [--detail D] [--files F,...] [--key K] [--agent A [--token N]]")
	if err != nil {
		return err
	}
	if en.Type, err = journal.ParseType(*typ); err != nil {
		return err
	}
	en.FilesChanged = splitList(*files)
	p, err := e.plans()
	if err != nil {
		return err
	}
	got, err := p.AddEntry(e.ctx, pos[0], c.claimant(), en)
	if err != nil {
		return err
	}
	return e.print(got, func(w io.Writer) { fmt.Fprintf(w, "checkpoint %d of %s\n", got.Sequence, pos[0]) })
}

// checkpointList lists a task's journal (ADDRESS) or a worker's
// checkpoints (--worker ID), newest first; with neither, every worker's
// (the newest --limit of each, 10 by default).
func checkpointList(e *env, args []string) error {
	fs := e.flags("checkpoint list")
	id := fs.String("worker", "", "")
	limit := fs.Int("limit", 0, "")
	types := fs.String("types", "", "")
	since := fs.Int("since", 0, "")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if *id != "" && len(pos) > 0 || len(pos) > 1 || len(pos) == 0 && (*types != "" || *since != 0) {
		return usagef("usage: taskmd checkpoint list ADDRESS [--limit N] [--types T,...] [--since N] | [--worker ID] [--limit N]")
	}
	if len(pos) == 0 {
		return e.workerCheckpoints(*id, *limit)
	}
	q := journal.Query{Limit: *limit, SinceSequence: *since}
	for _, t := range splitList(*types) {
		typ, err := journal.ParseType(t)
		if err != nil {
			return err
		}
		q.Types = append(q.Types, typ)
	}
	p, err := e.plans()
	if err != nil {
		return err
	}
	list, err := p.Journal().List(e.ctx, pos[0], q)
	if err != nil {
		return err
	}
	return e.print(struct {
		Checkpoints []journal.Entry `json:"checkpoints"`
	}{list}, func(w io.Writer) {
		rows := make([][]string, 0, len(list))
		for _, c := range list {
			rows = append(rows, []string{fmt.Sprint(c.Sequence), c.Time.UTC().Format(time.RFC3339), string(c.Type), c.Agent, c.Summary})
		}
		table(w, rows)
	})
}

// workerCheckpoints lists the checkpoints of worker id, or of every
// worker when id is "" (a column more: the worker).
func (e *env) workerCheckpoints(id string, limit int) error {
	p, err := e.pivots()
	if err != nil {
		return err
	}
	var list []checkpoint.Checkpoint
	if id != "" {
		list, err = p.Workers().List(e.ctx, id, limit)
	} else {
		list, err = p.Workers().ListAll(e.ctx, limit)
	}
	if err != nil {
		return err
	}
	return e.print(struct {
		Checkpoints []protocolCheckpoint `json:"checkpoints"`
	}{protocolJSON(list)}, func(w io.Writer) {
		rows := make([][]string, 0, len(list))
		for _, c := range list {
			row := []string{fmt.Sprint(c.Sequence), c.Time.UTC().Format(time.RFC3339), string(c.Status), c.Phase, c.Task}
			if id == "" {
				row = append([]string{c.Worker}, row...)
			}
			rows = append(rows, row)
		}
		table(w, rows)
	})
}

// protocolCheckpoint is a worker checkpoint in the checkpoint-resume protocol's JSON form
// (Checkpoint.JSON), the form --json prints.
type protocolCheckpoint struct{ c checkpoint.Checkpoint }

func (s protocolCheckpoint) MarshalJSON() ([]byte, error) { return s.c.JSON() }

func protocolJSON(list []checkpoint.Checkpoint) []protocolCheckpoint {
	out := make([]protocolCheckpoint, 0, len(list))
	for _, c := range list {
		out = append(out, protocolCheckpoint{c})
	}
	return out
}

func checkpointShow(e *env, args []string) error {
	fs := e.flags("checkpoint show")
	id := fs.String("worker", "", "")
	seq := fs.Int("sequence", 0, "")
	if _, err := parseN(fs, args); err != nil {
		return err
	}
	if *id == "" {
		return usagef("usage: taskmd checkpoint show --worker ID [--sequence N]")
	}
	p, err := e.pivots()
	if err != nil {
		return err
	}
	c, err := p.Workers().Get(e.ctx, *id, *seq)
	if err != nil {
		return err
	}
	text, err := c.Render()
	if err != nil {
		return err
	}
	return e.print(protocolCheckpoint{c}, func(w io.Writer) { w.Write(text) })
}

func checkpointDiff(e *env, args []string) error {
	fs := e.flags("checkpoint diff")
	id := fs.String("worker", "", "")
	from := fs.Int("from", 0, "")
	to := fs.Int("to", 0, "")
	if _, err := parseN(fs, args); err != nil {
		return err
	}
	if *id == "" {
		return usagef("usage: taskmd checkpoint diff --worker ID [--from N] [--to N]")
	}
	p, err := e.pivots()
	if err != nil {
		return err
	}
	b, err := p.Workers().Get(e.ctx, *id, *to)
	if err != nil {
		return err
	}
	if *from == 0 {
		*from = b.Sequence - 1
	}
	a, err := p.Workers().Get(e.ctx, *id, *from)
	if err != nil {
		return err
	}
	d := checkpoint.Diff(a, b)
	return e.print(d, func(w io.Writer) { writeDiff(w, d) })
}

func writeDiff(w io.Writer, d checkpoint.Changes) {
	fmt.Fprintf(w, "checkpoint %d -> %d\n", d.FromSequence, d.ToSequence)
	if d.OldStatus != d.NewStatus {
		fmt.Fprintf(w, "status: %s -> %s\n", d.OldStatus, d.NewStatus)
	}
	if d.OldPhase != d.NewPhase {
		fmt.Fprintf(w, "phase: %s -> %s\n", d.OldPhase, d.NewPhase)
	}
	items := func(label string, list []string) {
		for _, s := range list {
			fmt.Fprintf(w, "%s %s\n", label, s)
		}
	}
	items("finished:", d.Finished)
	items("started:", d.Started)
	for _, c := range d.Added {
		fmt.Fprintf(w, "added: %s: %s\n", c.Section, c.Text)
	}
	for _, c := range d.Dropped {
		fmt.Fprintf(w, "dropped: %s: %s\n", c.Section, c.Text)
	}
	for _, f := range d.NewFiles {
		fmt.Fprintf(w, "new file: %s %s\n", f.Path, f.Note)
	}
	items("new decision:", d.NewDecisions)
}

// brief is the resume brief of a task, as resume-brief prints it without
// --worker.
type brief struct {
	Task  string `json:"task_id"`
	Brief string `json:"brief"`
}

func cmdResumeBrief(e *env, args []string) error {
	fs := e.flags("resume-brief")
	id := fs.String("worker", "", "")
	maxTokens := fs.Int("max-tokens", 0, "")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 && *id != "" && *maxTokens == 0 {
		return e.resumePrompt(*id)
	}
	if len(pos) != 1 {
		return usagef("usage: taskmd resume-brief ADDRESS [--worker ID] [--max-tokens N] | --worker ID")
	}
	p, err := e.pivots()
	if err != nil {
		return err
	}
	if *id == "" {
		text, err := p.Brief(e.ctx, pos[0], *maxTokens)
		if err != nil {
			return err
		}
		return e.print(brief{Task: pos[0], Brief: text}, func(w io.Writer) { fmt.Fprint(w, text) })
	}
	res, err := p.Resume(e.ctx, pos[0], *id, *maxTokens)
	if err != nil {
		return err
	}
	err = e.print(res, func(w io.Writer) {
		if res.Claim.Success {
			fmt.Fprint(w, res.Brief)
		}
	})
	if err == nil && !res.Claim.Success {
		err = &taskdoc.Error{Code: codeAlreadyClaimed, Path: pos[0], Msg: "task " + pos[0] + " is held by " + res.Claim.AlreadyClaimedBy}
	}
	return err
}

// answered is the result of answer: the answer as recorded and, for a
// worker that suspended waiting for it, the prompt to resume it with.
type answered struct {
	Answer       worker.Answer `json:"answer"`
	ResumePrompt string        `json:"resume_prompt,omitempty"`
}

func cmdAnswer(e *env, args []string) error {
	fs := e.flags("answer")
	id := fs.String("worker", "", "")
	req := fs.String("id", "", "")
	draft := fs.Bool("draft", false, "")
	var a worker.Answer
	fs.StringVar(&a.ResumeMethod, "resume-method", "", "")
	fs.StringVar(&a.ResumeInstructions.Text, "instructions", "", "")
	fs.StringVar(&a.ResumeInstructions.CheckpointPath, "checkpoint-path", "", "")
	texts, err := parse(fs, args)
	if err != nil {
		return err
	}
	if *id == "" || *req == "" || len(texts) == 0 {
		return usagef("usage: taskmd answer --worker ID --id REQUEST [--checkpoint-path P] [QID=]TEXT...")
	}
	c, err := e.clarifications()
	if err != nil {
		return err
	}
	asked, _, err := c.Get(e.ctx, *id, *req)
	if err != nil {
		return err
	}
	if a.Responses, err = responses(asked.Questions, texts); err != nil {
		return err
	}
	a.ResumeSignal = !*draft
	got, err := c.Respond(e.ctx, *id, *req, a)
	if err != nil {
		return err
	}
	res := answered{Answer: got}
	if got.ResumeSignal {
		// Only a worker that suspended waiting for this request has a
		// resume prompt; one still polling takes the answer itself.
		if cp, err := c.Workers().Get(e.ctx, *id, 0); err == nil && cp.Clarification == *req && cp.Phase == worker.PhaseWaitingClarification {
			if res.ResumePrompt, err = c.ResumePrompt(e.ctx, *id); err != nil {
				return err
			}
		}
	}
	return e.print(res, func(w io.Writer) {
		fmt.Fprintf(w, "answered %s of %s\n", got.RequestID, got.AgentID)
		if res.ResumePrompt != "" {
			fmt.Fprintf(w, "\n%s", res.ResumePrompt)
		}
	})
}

// responses pairs answer texts with the questions asked: "Q2=text" names
// its question, a text without a known id answers the next question not
// answered yet.
func responses(qs []worker.Question, texts []string) ([]worker.Response, error) {
	answered := map[string]bool{}
	var out []worker.Response
	var plain []string
	for _, t := range texts {
		if qid, text, ok := strings.Cut(t, "="); ok && hasQuestion(qs, qid) {
			answered[qid] = true
			out = append(out, worker.Response{QuestionID: qid, Answer: text})
			continue
		}
		plain = append(plain, t)
	}
	for _, q := range qs {
		if len(plain) == 0 {
			break
		}
		if !answered[q.ID] {
			out = append(out, worker.Response{QuestionID: q.ID, Answer: plain[0]})
			plain = plain[1:]
		}
	}
	if len(plain) > 0 {
		return nil, &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Msg: fmt.Sprintf("%d answers for %d questions", len(texts), len(qs))}
	}
	return out, nil
}

func hasQuestion(qs []worker.Question, id string) bool {
	for _, q := range qs {
		if q.ID == id {
			return true
		}
	}
	return false
}

func cmdQuestions(e *env, args []string) error {
	if _, err := parseN(e.flags("questions"), args); err != nil {
		return err
	}
	c, err := e.clarifications()
	if err != nil {
		return err
	}
	open, err := c.Open(e.ctx)
	if err != nil {
		return err
	}
	return e.print(struct {
		Questions []worker.Clarification `json:"questions"`
	}{open}, func(w io.Writer) {
		for _, r := range open {
			fmt.Fprintf(w, "%s %s", r.AgentID, r.ID)
			if r.BlockedAt != "" {
				fmt.Fprintf(w, " blocked at %s", r.BlockedAt)
			}
			fmt.Fprintln(w)
			for _, q := range r.Questions {
				fmt.Fprintf(w, "  %s: %s\n", q.ID, q.Text)
			}
		}
	})
}
