package mcptools

import (
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/taskmd/taskmd/agent"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
)

// The agent registered on an MCP session is that session's caller, and
// the only agent the session acts as: agent_register binds the agent's id
// to the session, and task_claim, agent_heartbeat and agent_unregister
// naming another agent are refused before anything is written (see
// session.actsAs). A session that has no agent yet takes the agent its
// first task_claim or agent_heartbeat names, unless another open session
// of the server is that agent (sessions.adopt): a worker that comes back
// in a new process claims its task again as the agent it was. The server remembers the session's agent, and the
// fencing token of every claim the session made, and presents them with
// every write the session makes on a task (task_update_status,
// task_set_plan, checkpoint_add, task_release). So an agent never handles
// tokens, and a session cannot write on a task another agent holds: package
// plan refuses the write with STALE_CLAIM and writes nothing.
//
// An agent id is bound to one session of the server at a time: the last
// that registered it. agent_register with the id of an existing agent (with
// its name and runtime, see agent.Registry.Register) is how a session
// becomes that agent again after a reconnect or a lost context, and takes
// the identity over: the session it was bound to is no agent any more and
// forgets the claims it made as it, so that two sessions never write as one
// agent. An agent id is a name, not a secret: the rule keeps a session to
// the identity it registered, it does not authenticate.

// sessions is the state of each MCP session of one server, for as long as
// the session lasts.
type sessions struct {
	mu     sync.Mutex
	byConn map[*mcp.ServerSession]*session
	// agents binds each agent id registered on an open session to that
	// session.
	agents map[string]*session
	// none serves calls that come without a session (never, through the
	// SDK's transports), so that they still see one caller.
	none *session
}

func newSessions() *sessions {
	return &sessions{byConn: map[*mcp.ServerSession]*session{}, agents: map[string]*session{}, none: newSession()}
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
			for id, held := range s.agents {
				if held == st {
					delete(s.agents, id)
				}
			}
			s.mu.Unlock()
		}()
	}
	return st
}

// bind makes id the agent of st: the session that was id before, and the
// agent st was before, let go of each other, with the claims made as them.
func (s *sessions) bind(st *session, id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if old := s.agents[id]; old != nil && old != st {
		old.drop(id)
	}
	if prev := st.agentID(); prev != "" && prev != id {
		if s.agents[prev] == st {
			delete(s.agents, prev)
		}
		st.drop(prev)
	}
	s.agents[id] = st
	st.setAgent(id)
}

// session is what the server knows of one MCP session's caller.
type session struct {
	mu sync.Mutex
	// agent is the agent registered on the session (agent_register); ""
	// for a session that did not register (a caller that is not an agent,
	// which writes only on tasks no agent holds). It is kept after the
	// agent unregisters: a session that was an agent keeps writing as that
	// agent.
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

// drop makes the session no longer agent id: it forgets the agent and the
// claims it made as it.
func (s *session) drop(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.agent == id {
		s.agent = ""
	}
	for task, c := range s.claims {
		if c.agent == id {
			delete(s.claims, task)
		}
	}
}

// adopt decides whether session st, calling tool as agent id, may act as
// it, before anything is written: a session acts only as its own agent
// (actsAs); a session with no agent yet may take an agent id that no other
// open session of this server is bound to (a worker back in a new process
// after a restart or a lost context, claiming its task again), and the
// caller binds it (bind) once the call finds the agent. An id bound to
// another open session is refused: agent_register {id, name, runtime}
// takes an identity over explicitly.
func (s *sessions) adopt(st *session, tool, id string) error {
	if st.agentID() != "" {
		return st.actsAs(tool, id)
	}
	s.mu.Lock()
	other := s.agents[id]
	s.mu.Unlock()
	if other != nil && other != st {
		return &taskdoc.Error{Code: taskdoc.CodeInvalidArguments,
			Msg: fmt.Sprintf("%s as agent %q: that agent is another open session's, and a session acts only as its own agent (agent_register {id, name, runtime} as it was registered takes it over); nothing was written", tool, id)}
	}
	return nil
}

// actsAs refuses a call of tool that names agent id when id is not the
// session's agent: a session acts only as the agent registered on it. It
// reads no file, so a refusal writes nothing.
func (s *session) actsAs(tool, id string) error {
	me := s.agentID()
	switch {
	case me == "":
		return &taskdoc.Error{Code: agent.CodeAgentNotFound,
			Msg: fmt.Sprintf("%s as agent %q: this session has no agent (it did not register, or its agent was registered on another session since): register first with agent_register (to act as an agent registered before, agent_register {id, name, runtime} as it was registered); nothing was written", tool, id)}
	case me != id:
		return &taskdoc.Error{Code: taskdoc.CodeInvalidArguments,
			Msg: fmt.Sprintf("%s as agent %q: this session is agent %s, and acts only as it (give agent_id %s); nothing was written", tool, id, me, me)}
	}
	return nil
}

// claimed records a claim the session made for its agent; not if the
// session is no longer that agent (another session registered it while the
// claim was made).
func (s *session) claimed(task, agentID string, token int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.agent != agentID {
		return
	}
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
