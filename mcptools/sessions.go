package mcptools

import (
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
)

// The agent registered on an MCP session is that session's caller: the
// server remembers it, and the fencing token of every claim the session
// made, and presents them with every write the session makes on a task
// (task_update_status, task_set_plan, checkpoint_add, task_release). So an
// agent never handles tokens, and a session cannot write on a task another
// agent holds: package plan refuses the write with STALE_CLAIM and writes
// nothing.

// sessions is the state of each MCP session of one server, for as long as
// the session lasts.
type sessions struct {
	mu     sync.Mutex
	byConn map[*mcp.ServerSession]*session
	// none serves calls that come without a session (never, through the
	// SDK's transports), so that they still see one caller.
	none *session
}

func newSessions() *sessions {
	return &sessions{byConn: map[*mcp.ServerSession]*session{}, none: newSession()}
}

// of returns the state of the session of req, made on its first call and
// forgotten when the session ends.
func (s *sessions) of(req *mcp.CallToolRequest) *session {
	if req == nil || req.Session == nil {
		return s.none
	}
	ss := req.Session
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.byConn[ss]
	if !ok {
		st = newSession()
		s.byConn[ss] = st
		go func() {
			_ = ss.Wait()
			s.mu.Lock()
			delete(s.byConn, ss)
			s.mu.Unlock()
		}()
	}
	return st
}

// session is what the server knows of one MCP session's caller.
type session struct {
	mu sync.Mutex
	// agent is the agent registered on the session, or the one it last
	// claimed a task with; "" for a session that did neither (a caller
	// that is not an agent, which writes only on tasks no agent holds). It
	// is kept after the agent unregisters: a session that was an agent
	// keeps writing as that agent.
	agent string
	// claims holds the claims the session made, by task address
	// (taskKey): the agent they were made for and their fencing token.
	claims map[string]heldClaim
}

type heldClaim struct {
	agent string
	token int64
}

func newSession() *session {
	return &session{claims: map[string]heldClaim{}}
}

// setAgent makes id the session's caller.
func (s *session) setAgent(id string) {
	s.mu.Lock()
	s.agent = id
	s.mu.Unlock()
}

// claimed records a claim the session made, and makes its agent the
// session's caller.
func (s *session) claimed(task, agentID string, token int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.agent = agentID
	s.claims[taskKey(task)] = heldClaim{agent: agentID, token: token}
}

// ended forgets the session's claim on task, which ended when the task
// was completed or skipped: later writes on the task present no token,
// which plan lets through as long as no agent holds the task (none can
// claim a final task).
func (s *session) ended(task string) {
	s.mu.Lock()
	delete(s.claims, taskKey(task))
	s.mu.Unlock()
}

// claimant is who the session writes on task as: the claim it made on the
// task (its agent and token) when it made one, otherwise its agent without
// a token (refused with STALE_CLAIM if another agent holds the task), or
// the zero Claimant for a session without an agent.
func (s *session) claimant(task string) plan.Claimant {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.claims[taskKey(task)]; ok {
		return plan.Claimant{Agent: c.agent, Token: c.token}
	}
	return plan.Claimant{Agent: s.agent}
}

// Claimant is who the session writes on task as (see claimant), for the
// task systems' fence (claims.Writer).
func (s *session) Claimant(task string) (string, int64) {
	c := s.claimant(task)
	return c.Agent, c.Token
}

// taskKey is the form of a task address that claims are kept under:
// "api/auth.md#x" and "/api/auth.md#x" are one task. An address that does
// not parse is kept as given; plan refuses it anyway.
func taskKey(address string) string {
	a, err := taskdoc.ParseAddress(address)
	if err != nil {
		return address
	}
	return a.Path + "#" + a.Slug
}
