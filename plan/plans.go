package plan

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/taskmd/taskmd/agent"
	"github.com/taskmd/taskmd/internal/claims"
	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/journal"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// Plans gives agents access to the plans of one workspace: claims, status
// updates, task plans, checkpoints, next tasks, progress and context. It
// keeps no state of its own: any number of Plans values, goroutines and
// processes may share a workspace.
type Plans struct {
	ws      *workspace.Workspace
	cfg     taskflow.Config
	agents  *agent.Registry
	journal *journal.Journal
}

// An Option configures Plans: WithClock, WithAgentTimeout,
// WithReferenceDepth. The zero Option is ignored. Give every process on one
// workspace the same agent timeout, since whether a claim's lease has run
// out is decided from it.
type Option struct{ o taskflow.Option }

// WithClock sets the clock that dates claims, completions and checkpoints
// and decides whether an agent is online. The default is time.Now; a nil
// clock is ignored.
func WithClock(now func() time.Time) Option { return Option{taskflow.WithClock(now)} }

// WithAgentTimeout sets how long an agent stays online after its last
// heartbeat, and so how long its claims last without one (default 60
// seconds, as agent's); zero or less is ignored. Agents()
// decides with the same timeout (agent.WithTimeout).
func WithAgentTimeout(d time.Duration) Option { return Option{taskflow.WithAgentTimeout(d)} }

// WithReferenceDepth sets how many levels of @/ references LoadContext
// loads: 1 the task's own references only, 0 or less none. The default is
// 3.
func WithReferenceDepth(n int) Option { return Option{taskflow.WithReferenceDepth(n)} }

// New returns the plans of ws.
func New(ws *workspace.Workspace, opts ...Option) *Plans {
	cfg := taskflow.Configure(opts, func(o Option) taskflow.Option { return o.o })
	return &Plans{
		ws:      ws,
		cfg:     cfg,
		agents:  agent.New(ws, agent.WithClock(cfg.Now), agent.WithTimeout(cfg.AgentTimeout)),
		journal: journal.New(ws, journal.WithClock(cfg.Now)),
	}
}

// Agents is the agent registry the plans consult, with their clock and agent
// timeout.
func (p *Plans) Agents() *agent.Registry { return p.agents }

// Journal is the task journal the plans write checkpoints to, with their
// clock.
func (p *Plans) Journal() *journal.Journal { return p.journal }

// Claimant is who makes a write on a task: an agent and the fencing token
// of its claim on the task (Claim.Token), or 0 when it holds none. The
// zero Claimant is a caller that is not an agent (a person, a script, a
// session that did not register). Who may write what is one rule, the
// fence (claims.File.Check):
//
//   - an agent writes through its claim, presenting its token;
//   - an agent without a claim writes only on a task no agent holds, and
//     never starts work that way (planning, in progress and paused need a
//     claim);
//   - a caller that is not an agent writes only on a task no agent holds;
//   - a person may write over an agent's claim only with Override, which
//     ends that claim and is recorded in the task's Override field.
//
// Anything else is STALE_CLAIM and nothing is written.
type Claimant struct {
	Agent string
	Token int64
	// Override is the person (a name, "alice") who writes over the
	// claim of whatever agent holds the task: the claim ends (the
	// holder's next write is STALE_CLAIM), the Assignee field is
	// removed and the task's Override field says who took it from whom.
	// Only a caller that is not an agent may override, and only a plan's
	// status and approach (UpdateStatus, SetApproach), never a journal.
	Override string
}

// Person is the Claimant of a person who writes over any claim: see
// Claimant.Override.
func Person(name string) Claimant { return Claimant{Override: name} }

// fenced reports whether c writes as an agent.
func (c Claimant) fenced() bool { return c.Agent != "" }

// taskTarget parses the address of a task of a plan:
// "/api/auth.md#implement-jwt-signing".
func taskTarget(address string) (taskflow.Target, error) {
	t, err := taskflow.ParseDocs(address)
	if err != nil {
		return t, err
	}
	if t.Slug == "" {
		return t, &taskdoc.Error{Code: taskdoc.CodeInvalidAddress, Path: t.Path,
			Msg: fmt.Sprintf("%q names a plan, not a task: give the task's address, like %s#implement-jwt-signing", address, t.Path)}
	}
	return t, nil
}

// planTarget parses the address of a plan: a document under docs/,
// "/api/auth.md".
func planTarget(address string) (taskflow.Target, error) {
	t, err := taskflow.ParseDocs(address)
	if err != nil {
		return t, err
	}
	if t.Slug != "" {
		return t, &taskdoc.Error{Code: taskdoc.CodeInvalidAddress, Path: t.Path, Slug: t.Slug,
			Msg: fmt.Sprintf("%q names a task: a plan is a document, like %s", address, t.Path)}
	}
	return t, nil
}

// change is a write of c on the task t of a plan (claims.Make): the one
// sequence of every write on a task, which locks the plan and its claims,
// brings the task's claim into line with the plan, checks dependencies,
// fences the write and orders the two writes (see claims.Make). A plan
// that does not exist is DOCUMENT_NOT_FOUND.
func (p *Plans) change(t taskflow.Target, c Claimant) claims.Change {
	return claims.Change{Target: t, Who: claims.Who{Agent: c.Agent, Token: c.Token, Person: c.Override},
		Date: p.cfg.Today().Format(time.DateOnly), Missing: planNotFound(t)}
}

// claimsFile is the name of the claims file of the document file doc.
func (p *Plans) claimsFile(doc string) (string, error) { return claims.Name(p.ws, doc) }

// check refuses a Claimant that cannot be one: an agent id with
// surrounding space or none with a token (INVALID_ARGUMENTS), before
// anything is read.
func (c Claimant) check() error {
	switch {
	case c.Agent != strings.TrimSpace(c.Agent):
		return invalid(fmt.Sprintf("the agent id %q has surrounding space", c.Agent))
	case c.Agent == "" && c.Token != 0:
		return invalid(fmt.Sprintf("a claim token (%d) needs the agent id that holds it", c.Token))
	case c.Token < 0:
		return invalid(fmt.Sprintf("claim token %d is negative: tokens start at 1", c.Token))
	case c.Override != "" && c.Agent != "":
		return invalid(fmt.Sprintf("agent %s cannot override a claim: an agent writes through its own claim; an override is a person's", c.Agent))
	case c.Override != "":
		return claims.CheckPerson(c.Override)
	}
	return nil
}

// readClaims reads the claims of document file without a lock.
func (p *Plans) readClaims(ctx context.Context, file string) (claims.File, error) {
	name, err := p.claimsFile(file)
	if err != nil {
		return claims.File{}, err
	}
	data, err := p.ws.ReadIfExists(ctx, name)
	if err != nil {
		return claims.File{}, err
	}
	return claims.Decode(file, name, data)
}

// invalid is an INVALID_ARGUMENTS error.
func invalid(msg string) error {
	return &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Msg: msg}
}
