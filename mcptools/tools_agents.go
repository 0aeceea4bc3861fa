package mcptools

import (
	"context"
	"encoding/json"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/taskmd/taskmd/agent"
)

// The agent tools are steps 1, 5 and 7 of the agent protocol:
// register, heartbeat, unregister. The agent registered on a session is
// that session's caller (see sessions.go).

type registerInput struct {
	Name          string         `json:"name" jsonschema:"the agent's name, e.g. worker-1"`
	Runtime       string         `json:"runtime" jsonschema:"what runs the agent, e.g. claude_code"`
	Role          string         `json:"role,omitempty" jsonschema:"the agent's role (default worker)"`
	Capabilities  []string       `json:"capabilities,omitempty" jsonschema:"what the agent is good at, e.g. [typescript, testing]"`
	WorkspacePath string         `json:"workspace_path,omitempty" jsonschema:"the directory the agent works in"`
	Metadata      map[string]any `json:"metadata,omitempty" jsonschema:"free key/value pairs; values that are not strings are kept as JSON text"`
	ID            string         `json:"id,omitempty" jsonschema:"optional: choose the agent's id yourself (lower-case letters, digits, _ and -) to make a retried or restarted registration return the same agent; default a new ag_... id"`
}

type heartbeatInput struct {
	AgentID       string `json:"agent_id" jsonschema:"this session's agent: the id agent_register returned"`
	CurrentTaskID string `json:"current_task_id,omitempty" jsonschema:"the task being worked on, e.g. /api/auth.md#implement-jwt-signing"`
	Status        string `json:"status,omitempty" jsonschema:"free text, e.g. busy or idle"`
}

type unregisterInput struct {
	ID string `json:"id" jsonschema:"this session's agent: the id agent_register returned"`
}

// agentResult is a registered agent, with the names of the protocol's
// protocol.
type agentResult struct {
	ID            string            `json:"id"`
	Name          string            `json:"name"`
	Status        string            `json:"status"` // "online" or "offline"
	Runtime       string            `json:"runtime"`
	Role          string            `json:"role"`
	Capabilities  []string          `json:"capabilities,omitempty"`
	WorkspacePath string            `json:"workspace_path,omitempty"`
	Metadata      map[string]string `json:"metadata,omitempty"`
	Registered    time.Time         `json:"registered"`
	LastHeartbeat time.Time         `json:"last_heartbeat"`
}

// heartbeatResult is the result of agent_heartbeat.
type heartbeatResult struct {
	Success bool `json:"success"`
	// NextHeartbeatMS is when to send the next heartbeat, in milliseconds.
	NextHeartbeatMS int64 `json:"next_heartbeat_ms"`
	// pivotRequest is the pivot asked of the agent, while it waits for
	// pivot_acknowledge (see tools_pivot.go).
	PivotRequest *pivotRequest `json:"pivot_request,omitempty"`
}

// successResult answers a call that returns nothing else.
type successResult struct {
	Success bool `json:"success"`
}

// lifecycle is the agent protocol as every lifecycle tool teaches it.
const lifecycle = `Agent lifecycle (the agent protocol): agent_register → workflow_next_tasks → task_claim (on already_claimed_by, claim the next task offered) → task_load_context → task_set_plan → task_update_status in_progress → checkpoint_add after each significant step → agent_heartbeat every next_heartbeat_ms → task_update_status completed (with outcome) → next task, or agent_unregister. After a lost context: workflow_list status [in_progress] → workflow_progress → on a new session, agent_register again with your id, name and runtime → task_claim the task again (the agent holding it gets its claim back) → task_load_context with include {all_checkpoints: true} → resume from the last checkpoint.

A plan (workflow) is a document under docs/ with a Tasks section, its id its address (/api/auth.md); a task's id is /api/auth.md#slug. The agent registered on this MCP session is its caller, and the only agent it acts as (task_claim, agent_heartbeat and agent_unregister naming another agent are refused): the server keeps the session's claims and presents them with its writes, so a status update, plan or checkpoint on a task another agent holds is refused with STALE_CLAIM and nothing is written. Claims last as long as their agent's heartbeats: an agent silent for longer than the timeout (60 s) loses its tasks to the next agent that claims them.`

const (
	agentRegisterDescription = `Register this agent (step 1): call it once when you start. Returns {id, name, status: "online", ...}; pass id as agent_id to task_claim and agent_heartbeat. The agent becomes this session's caller, the only agent it acts as. Registering an existing agent again (its id, name and runtime) makes this session that agent, e.g. after a reconnect; the session it was on is then no agent and loses its claims.

` + lifecycle

	agentHeartbeatDescription = `Tell the server this agent is alive (step 5), with the task it works on and a free status (busy, idle). Send one every next_heartbeat_ms (about 30 s) while you work: an agent without heartbeats for the timeout (60 s) goes offline, and its claimed tasks go to the next agent that claims them — your later writes on them are then STALE_CLAIM. Returns {success, next_heartbeat_ms}, and pivot_request while the orchestrator asks you to pivot: then stop and pivot_acknowledge (see its description). agent_id is this session's agent: another is INVALID_ARGUMENTS. AGENT_NOT_FOUND: register again (this session has no agent, or the agent is no longer registered).`

	agentUnregisterDescription = `Unregister this agent when you stop (step 7): it is no longer listed, and the tasks it still holds may be claimed by other agents at once. Returns {success: true}. id is this session's agent: another is INVALID_ARGUMENTS. AGENT_NOT_FOUND for an id that is not registered (a retried unregister: take it as done). The session keeps writing as this agent, fenced: it does not become an unfenced caller.`
)

// agentTools serves the agent tools.
type agentTools struct {
	agents   *agent.Registry
	sessions *sessions
	// pending is the pivot waiting for an agent's acknowledgement, nil
	// for none.
	pending func(ctx context.Context, agentID string) *pivotRequest
}

func addAgentTools(ts *toolBatch, agents *agent.Registry, pending func(context.Context, string) *pivotRequest) error {
	a := agentTools{agents: agents, sessions: ts.sessions, pending: pending}
	return firstError(
		addTool(ts, &mcp.Tool{Name: "agent_register", Description: agentRegisterDescription, Annotations: additive}, a.register),
		addTool(ts, &mcp.Tool{Name: "agent_heartbeat", Description: agentHeartbeatDescription, Annotations: additiveIdempotent}, a.heartbeat),
		addTool(ts, &mcp.Tool{Name: "agent_unregister", Description: agentUnregisterDescription, Annotations: destructiveIdempotent}, a.unregister),
	)
}

// register registers an agent and binds it to the session (see
// sessions.go); the session it was bound to before is no agent any more.
func (a agentTools) register(ctx context.Context, req *mcp.CallToolRequest, in registerInput) (*mcp.CallToolResult, agentResult, error) {
	meta, err := metadataStrings(in.Metadata)
	if err != nil {
		return nil, agentResult{}, newToolError(err)
	}
	ag, err := a.agents.Register(ctx, agent.Registration{
		ID:            in.ID,
		Name:          in.Name,
		Runtime:       in.Runtime,
		Role:          in.Role,
		Capabilities:  in.Capabilities,
		WorkspacePath: in.WorkspacePath,
		Metadata:      meta,
	})
	if err != nil {
		return nil, agentResult{}, newToolError(err)
	}
	a.sessions.bind(a.sessions.of(req), ag.ID)
	return nil, toAgentResult(ag), nil
}

func (a agentTools) heartbeat(ctx context.Context, req *mcp.CallToolRequest, in heartbeatInput) (*mcp.CallToolResult, heartbeatResult, error) {
	s := a.sessions.of(req)
	if err := a.sessions.adopt(s, "agent_heartbeat", in.AgentID); err != nil {
		return nil, heartbeatResult{}, newToolError(err)
	}
	next, err := a.agents.Heartbeat(ctx, in.AgentID, agent.HeartbeatInfo{CurrentTask: in.CurrentTaskID, Status: in.Status})
	if err != nil {
		return nil, heartbeatResult{}, newToolError(err)
	}
	if s.agentID() == "" {
		a.sessions.bind(s, in.AgentID) // the agent exists: the session is it now
	}
	out := heartbeatResult{Success: true, NextHeartbeatMS: next.Milliseconds()}
	if a.pending != nil {
		out.PivotRequest = a.pending(ctx, in.AgentID)
	}
	return nil, out, nil
}

func (a agentTools) unregister(ctx context.Context, req *mcp.CallToolRequest, in unregisterInput) (*mcp.CallToolResult, successResult, error) {
	if err := a.sessions.of(req).actsAs("agent_unregister", in.ID); err != nil {
		return nil, successResult{}, newToolError(err)
	}
	if err := a.agents.Unregister(ctx, in.ID); err != nil {
		return nil, successResult{}, newToolError(err)
	}
	return nil, successResult{Success: true}, nil
}

func toAgentResult(ag agent.Agent) agentResult {
	status := "offline"
	if ag.Online {
		status = "online"
	}
	return agentResult{
		ID:            ag.ID,
		Name:          ag.Name,
		Status:        status,
		Runtime:       ag.Runtime,
		Role:          ag.Role,
		Capabilities:  ag.Capabilities,
		WorkspacePath: ag.WorkspacePath,
		Metadata:      ag.Metadata,
		Registered:    ag.Registered,
		LastHeartbeat: ag.LastHeartbeat,
	}
}

// metadataStrings turns the metadata an agent sends into the registry's
// strings: a string as it is, any other JSON value as JSON text.
func metadataStrings(in map[string]any) (map[string]string, error) {
	if len(in) == 0 {
		return nil, nil
	}
	out := make(map[string]string, len(in))
	for k, v := range in {
		s, err := jsonText(v)
		if err != nil {
			return nil, argumentError("metadata %q: %v", k, err)
		}
		out[k] = s
	}
	return out, nil
}

// jsonText is a JSON value an agent sent as text: a string as it is, null
// as "", any other value as JSON.
func jsonText(v any) (string, error) {
	switch v := v.(type) {
	case nil:
		return "", nil
	case string:
		return v, nil
	}
	data, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	return string(data), nil
}
