package plan

import (
	"bytes"
	"context"
	"errors"
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
	// status and approach (UpdateStatus, SetTaskPlan), never a journal.
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

// locked runs fn on the document of t and its claims, under the locks of
// both: the document parsed (DOCUMENT_NOT_FOUND when it is missing; from
// the workspace's cache when it holds these bytes) and the claims read,
// the task's record brought into line with the task first
// (claims.File.Follow: a claim the task no longer shows holds nothing, one
// on a done task has ended). fn returns the new document (nil for no
// change) and whether the claims changed.
//
// One write decides and the other follows, so that no crash point leaves
// a claim that the two files disagree on: a call that grants a claim
// writes the claims file first and the document second (the claim counts
// once the Assignee shows it); every other call writes the document first
// and the claims second (a claim ends when its Assignee goes). A crash in
// between leaves a record whose task does not show it, which holds nothing
// and which the next call on the task settles. When the second write
// fails the first is put back, so a failed call changes nothing.
func (p *Plans) locked(ctx context.Context, t taskflow.Target, fn func(doc *taskdoc.Document, st *claims.File) (nd *taskdoc.Document, claimsChanged bool, err error)) error {
	claimsFile, err := p.claimsFile(t.File)
	if err != nil {
		return t.Flow().At(err, t.Slug)
	}
	err = p.ws.Lock(ctx, []string{t.File, claimsFile}, func(tx *workspace.Tx) error {
		src, err := tx.ReadData(t.File)
		if taskdoc.CodeOf(err) == taskdoc.CodeDocumentNotFound {
			return planNotFound(t)
		}
		if err != nil {
			return err
		}
		doc, err := p.ws.Parse(t.File, src)
		if err != nil {
			return err
		}
		st, held, err := claims.Read(tx, t.File, claimsFile)
		if err != nil {
			return err
		}
		settled := false
		if tk, err := doc.Task(t.Slug); err == nil && t.Slug != "" {
			assignee, _ := tk.Field(taskdoc.KeyAssignee)
			settled = st.Follow(t.Slug, assignee, tk.Status)
		}
		before := st.Record(t.Slug)
		nd, changed, err := fn(doc, &st)
		if err != nil {
			return err
		}
		changed = changed || settled
		var out []byte
		if nd != nil && !bytes.Equal(nd.Source, src) {
			out = nd.Source
		}
		first, second := write{claimsFile, st.Encode(), held, changed}, write{t.File, out, src, out != nil}
		if after := st.Record(t.Slug); after.Agent == "" || after.Token == before.Token {
			first, second = second, first // no new claim: the document decides
		}
		if err := first.do(tx); err != nil {
			return err
		}
		if err := second.do(tx); err != nil {
			return errors.Join(err, first.undo(tx))
		}
		if out != nil {
			p.ws.Remember(t.File, nd)
		}
		return nil
	})
	return t.Flow().At(err, t.Slug)
}

// write is one of the two writes of a locked call.
type write struct {
	name      string
	data, old []byte // the new content, and the content to put back (nil: no file)
	due       bool   // whether the call writes it
}

func (w write) do(tx *workspace.Tx) error {
	if !w.due {
		return nil
	}
	return tx.Write(w.name, w.data)
}

// undo puts back what do wrote.
func (w write) undo(tx *workspace.Tx) error {
	switch {
	case !w.due:
		return nil
	case w.old == nil:
		return tx.Remove(w.name)
	default:
		return tx.Write(w.name, w.old)
	}
}

// claimsFile is the name of the claims file of the document file doc.
func (p *Plans) claimsFile(doc string) (string, error) { return claims.Name(p.ws, doc) }

// check refuses a Claimant that cannot be one: an agent id with
// surrounding space or none with a token (INVALID_ARGUMENTS), before
// anything is read.
func (c Claimant) check() error {
	switch {
	case c.Agent != strings.TrimSpace(c.Agent):
		return invalid(fmt.Sprintf("the claimant's agent id %q has surrounding space", c.Agent))
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

// fence checks that c may write on task tk of t under the claims st,
// moving it to status to ("" for no move): see Claimant.
func fence(st *claims.File, t taskflow.Target, tk *taskdoc.Task, c Claimant, to taskdoc.Status) error {
	assignee, _ := tk.Field(taskdoc.KeyAssignee)
	return st.Check(claims.Write{Path: t.Path, Slug: t.Slug, Agent: c.Agent, Token: c.Token,
		Assignee: assignee, Status: tk.Status, To: to})
}

// guard is fence for a write on the plan's document: a person's Override
// (c.Override) that the fence refuses ends the holder's claim, removes the
// task's Assignee and records the override in its Override field, on
// doc, which guard returns with the task (doc and tk unchanged otherwise)
// and whether the claims changed.
func (p *Plans) guard(st *claims.File, t taskflow.Target, doc *taskdoc.Document, tk *taskdoc.Task, c Claimant, to taskdoc.Status) (*taskdoc.Document, *taskdoc.Task, bool, error) {
	err := fence(st, t, tk, c, to)
	if err == nil || c.Override == "" || c.fenced() {
		return doc, tk, false, err
	}
	assignee, _ := tk.Field(taskdoc.KeyAssignee)
	holder, rec := st.Holder(t.Slug, assignee), st.Record(t.Slug)
	if holder == "" {
		return doc, tk, false, err
	}
	st.Release(t.Slug)
	nd, tk, err := claims.Override(doc, t.Slug, c.Override, holder, rec.Token, p.cfg.Today().Format(time.DateOnly))
	if err != nil {
		return nil, nil, false, err
	}
	return nd, tk, true, nil
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
