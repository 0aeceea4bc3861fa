package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/taskmd/taskmd/agent"
	"github.com/taskmd/taskmd/internal/settings"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/worker"
	"github.com/taskmd/taskmd/workspace"
)

// agentCommands are the subcommands of "taskmd agent".
var agentCommands = map[string]func(*env, []string) error{
	"register":   agentRegister,
	"heartbeat":  agentHeartbeat,
	"unregister": agentUnregister,
	"list":       agentList,
}

func cmdAgent(e *env, args []string) error { return e.sub("agent", agentCommands, args) }

func (e *env) plans() (*plan.Plans, error) {
	ws, cfg, err := e.settings()
	if err != nil {
		return nil, err
	}
	return plan.New(ws, append(settings.Plan(cfg), plan.WithClock(e.now))...), nil
}

// settings opens the workspace and reads its taskmd.toml, which a command
// that builds plans, pivots or worktrees on it must honour (see package
// settings); a taskmd.toml that does not parse is refused.
func (e *env) settings() (*workspace.Workspace, workspace.Config, error) {
	ws, err := e.workspace()
	if err != nil {
		return nil, workspace.Config{}, err
	}
	cfg, err := workspace.ReadConfig(ws.Root())
	return ws, cfg, err
}

func agentRegister(e *env, args []string) error {
	fs := e.flags("agent register")
	var reg agent.Registration
	fs.StringVar(&reg.ID, "id", "", "")
	fs.StringVar(&reg.Name, "name", "", "")
	fs.StringVar(&reg.Runtime, "runtime", "", "")
	fs.StringVar(&reg.Role, "role", "", "")
	fs.StringVar(&reg.WorkspacePath, "workspace-path", "", "")
	caps := fs.String("capabilities", "", "")
	if _, err := parseN(fs, args); err != nil {
		return err
	}
	reg.Capabilities = splitList(*caps)
	p, err := e.plans()
	if err != nil {
		return err
	}
	a, err := p.Agents().Register(e.ctx, reg)
	if err != nil {
		return err
	}
	return e.print(a, func(w io.Writer) { fmt.Fprintln(w, a.ID) })
}

// heartbeat is the answer to a heartbeat: when to send the next one, and
// the pivot the agent is asked to make, if any.
type heartbeat struct {
	NextHeartbeatMS int64           `json:"next_heartbeat_ms"`
	PivotRequest    *worker.Request `json:"pivot_request,omitempty"`
}

func agentHeartbeat(e *env, args []string) error {
	fs := e.flags("agent heartbeat")
	var info agent.HeartbeatInfo
	fs.StringVar(&info.CurrentTask, "task", "", "")
	fs.StringVar(&info.Status, "status", "", "")
	pos, err := parseN(fs, args, "ID [--task ADDRESS] [--status S]")
	if err != nil {
		return err
	}
	pv, err := e.pivots()
	if err != nil {
		return err
	}
	next, err := pv.Plans().Agents().Heartbeat(e.ctx, pos[0], info)
	if err != nil {
		return err
	}
	req, err := pv.Pending(e.ctx, pos[0])
	if err != nil {
		return err
	}
	res := heartbeat{NextHeartbeatMS: next.Milliseconds(), PivotRequest: req}
	return e.print(res, func(w io.Writer) {
		fmt.Fprintf(w, "next heartbeat in %s\n", next)
		if req != nil {
			fmt.Fprintf(w, "pivot requested: %s %s: %s", req.ID, req.Mode, req.Reason)
			if req.NewTask != "" {
				fmt.Fprintf(w, "; new task: %s", req.NewTask)
			}
			fmt.Fprintf(w, "\nstop and acknowledge: taskmd pivot acknowledge --worker %s --token N CHECKPOINT (taskmd help)\n", req.Worker)
		}
	})
}

func agentUnregister(e *env, args []string) error {
	pos, err := parseN(e.flags("agent unregister"), args, "ID")
	if err != nil {
		return err
	}
	p, err := e.plans()
	if err != nil {
		return err
	}
	if err := p.Agents().Unregister(e.ctx, pos[0]); err != nil {
		return err
	}
	return e.print(ok{true}, func(w io.Writer) { fmt.Fprintf(w, "unregistered %s\n", pos[0]) })
}

func agentList(e *env, args []string) error {
	fs := e.flags("agent list")
	online := fs.Bool("online", false, "")
	if _, err := parseN(fs, args); err != nil {
		return err
	}
	p, err := e.plans()
	if err != nil {
		return err
	}
	list, err := p.Agents().List(e.ctx, agent.ListOptions{OnlineOnly: *online})
	if err != nil {
		return err
	}
	return e.print(struct {
		Agents []agent.Agent `json:"agents"`
	}{list}, func(w io.Writer) {
		rows := make([][]string, 0, len(list))
		for _, a := range list {
			state := "offline"
			if a.Online {
				state = "online"
			}
			rows = append(rows, []string{a.ID, a.Name, a.Runtime, state, a.LastHeartbeat.UTC().Format(time.RFC3339), a.CurrentTask})
		}
		table(w, rows)
	})
}

func cmdClaim(e *env, args []string) error {
	fs := e.flags("claim")
	who := fs.String("agent", "", "")
	pos, err := parseN(fs, args, "ADDRESS --agent ID")
	if err != nil {
		return err
	}
	p, err := e.plans()
	if err != nil {
		return err
	}
	res, err := p.Claim(e.ctx, pos[0], *who)
	if err != nil {
		return err
	}
	err = e.print(res, func(w io.Writer) {
		if res.Success {
			fmt.Fprintf(w, "claimed %s token %d\n", res.Claim.Task, res.Claim.Token)
		}
	})
	if err == nil && !res.Success {
		err = &taskdoc.Error{Code: codeAlreadyClaimed, Path: pos[0], Msg: "task " + pos[0] + " is held by " + res.AlreadyClaimedBy}
	}
	return err
}

func cmdRelease(e *env, args []string) error {
	fs := e.flags("release")
	who := fs.String("agent", "", "")
	token := fs.Int64("token", 0, "")
	pos, err := parseN(fs, args, "ADDRESS --agent ID --token N")
	if err != nil {
		return err
	}
	p, err := e.plans()
	if err != nil {
		return err
	}
	if err := p.Release(e.ctx, pos[0], plan.Claimant{Agent: *who, Token: *token}); err != nil {
		return err
	}
	return e.print(ok{true}, func(w io.Writer) { fmt.Fprintf(w, "released %s\n", pos[0]) })
}

func cmdNext(e *env, args []string) error {
	pos, err := parseN(e.flags("next"), args, "DOC")
	if err != nil {
		return err
	}
	doc, err := document(pos[0])
	if err != nil {
		return err
	}
	p, err := e.plans()
	if err != nil {
		return err
	}
	next, err := p.NextTasks(e.ctx, doc)
	if err != nil {
		return err
	}
	ready, err := e.readyTasks(next)
	if err != nil {
		return err
	}
	return e.print(ready, func(w io.Writer) { table(w, nextRows(next)) })
}

// nextRows are the lines of next and ready: address, title, and whether
// the task is stranded work and from whom.
func nextRows(next []plan.NextTask) [][]string {
	rows := make([][]string, 0, len(next))
	for _, t := range next {
		row := []string{string(t.Status), t.ID, t.Title}
		switch {
		case t.Stranded && t.PreviousHolder != "":
			row = append(row, "stranded, was "+t.PreviousHolder)
		case t.Stranded:
			row = append(row, "stranded")
		}
		rows = append(rows, row)
	}
	return rows
}

func cmdProgress(e *env, args []string) error {
	pos, err := parseN(e.flags("progress"), args, "DOC")
	if err != nil {
		return err
	}
	doc, err := document(pos[0])
	if err != nil {
		return err
	}
	p, err := e.plans()
	if err != nil {
		return err
	}
	pr, err := p.Progress(e.ctx, doc)
	if err != nil {
		return err
	}
	out, err := e.progressOf(pr)
	if err != nil {
		return err
	}
	return e.print(out, func(w io.Writer) {
		fmt.Fprintf(w, "%s  %s  %s  %d%% of %d\n", pr.Plan, pr.Title, pr.Status, pr.Percent, pr.Total)
		fmt.Fprintln(w, countsLine(pr.Counts))
		rows := make([][]string, 0, len(pr.Current))
		for _, t := range pr.Current {
			holder := t.Holder
			if holder != "" && !t.HolderOnline {
				holder += " (offline)"
			}
			rows = append(rows, []string{string(t.Status), t.ID, t.Title, holder})
		}
		table(w, rows)
	})
}

// countsLine writes counts per status in the order of taskdoc.Statuses,
// leaving out zeros.
func countsLine(counts map[taskdoc.Status]int) string {
	s := ""
	for _, st := range taskdoc.Statuses {
		if n := counts[st]; n > 0 {
			if s != "" {
				s += " "
			}
			s += string(st) + "=" + strconv.Itoa(n)
		}
	}
	return s
}

// claimFlags are --agent and --token: the claim a fenced write presents.
// Without --agent the write is a person's or an orchestrator's, unfenced.
type claimFlags struct {
	agent string
	token int64
}

func (c *claimFlags) add(fs *flag.FlagSet) {
	fs.StringVar(&c.agent, "agent", "", "")
	fs.Int64Var(&c.token, "token", 0, "")
}

func (c claimFlags) claimant() plan.Claimant { return plan.Claimant{Agent: c.agent, Token: c.token} }

func cmdContext(e *env, args []string) error {
	fs := e.flags("context")
	maxTokens := fs.Int("max-tokens", 0, "")
	all := fs.Bool("all-checkpoints", false, "")
	pos, err := parseN(fs, args, "ADDRESS [--max-tokens N] [--all-checkpoints]")
	if err != nil {
		return err
	}
	p, err := e.plans()
	if err != nil {
		return err
	}
	opts := plan.ContextOptions{MaxTokens: *maxTokens}
	if *all {
		inc := plan.DefaultInclude()
		inc.AllCheckpoints = true
		opts.Include = &inc
	}
	tc, err := p.LoadContext(e.ctx, pos[0], opts)
	if err != nil {
		return err
	}
	return e.print(tc, func(w io.Writer) { writeTaskContext(w, tc) })
}

// writeTaskContext writes a task's context as Markdown, in the order an
// agent reads it.
func writeTaskContext(w io.Writer, tc *plan.TaskContext) {
	fmt.Fprintf(w, "# %s (%s)\n", tc.Plan.Title, tc.Plan.ID)
	if tc.Plan.Summary != "" {
		fmt.Fprintf(w, "\n%s\n", tc.Plan.Summary)
	}
	ct := tc.CurrentTask
	fmt.Fprintf(w, "\n## Task %s (%s)\n\n%s\n", ct.ID, ct.Status, strings.TrimRight(ct.Text, "\n"))
	if len(ct.Checkpoints) > 0 {
		fmt.Fprint(w, "\n## Checkpoints\n\n")
		for _, c := range ct.Checkpoints {
			fmt.Fprintf(w, "- %d %s %s: %s\n", c.Sequence, c.Type, c.Time.UTC().Format(time.RFC3339), c.Summary)
		}
	}
	texts := func(title string, list []plan.Text) {
		if len(list) == 0 {
			return
		}
		fmt.Fprintf(w, "\n## %s\n", title)
		for _, t := range list {
			fmt.Fprintf(w, "\n### %s\n\n%s\n", t.ID, strings.TrimRight(t.Text, "\n"))
		}
	}
	texts("Dependency outcomes", tc.DependencyOutcomes)
	texts("Prior tasks", tc.PriorTasks)
	if tc.WorkflowPrompt != nil {
		texts("Workflow prompt", []plan.Text{*tc.WorkflowPrompt})
	}
	texts("References", tc.References)
	if len(tc.Missing) > 0 {
		fmt.Fprintf(w, "\nmissing: %s\n", strings.Join(tc.Missing, ", "))
	}
	fmt.Fprintf(w, "\ntokens: %d of %d\n", tc.Tokens, tc.MaxTokens)
	for _, c := range tc.Cut {
		how := "dropped"
		if c.Shortened {
			how = "shortened"
		}
		fmt.Fprintf(w, "cut: %s %s %s (%d tokens)\n", c.Kind, c.Name, how, c.Tokens)
	}
}
