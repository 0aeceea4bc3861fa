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
	ID            string         `json:"id,omitempty" jsonschema:"optional id of your choice ([a-z0-9_-]) so that a retried or restarted registration returns the same agent"`
}

type heartbeatInput struct {
	AgentID       string `json:"agent_id" jsonschema:"this session's agent: the id agent_register returned"`
	CurrentTaskID string `json:"current_task_id,omitempty" jsonschema:"the task being worked on, e.g. /api/auth.md#implement-jwt-signing"`
	Status        string `json:"status,omitempty" jsonschema:"free text, e.g. busy or idle"`
}

type unregisterInput struct {
	ID string `json:"agent_id" jsonschema:"this session's agent: the id agent_register returned"`
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

const (
	agentRegisterDescription = `Register this agent once when you start; the session then acts as this agent. Returns its id: pass it as agent_id. Registering an existing agent again (same id, name and runtime) makes this session that agent, e.g. after a reconnect. How agents work a plan: prompt work-a-plan.`

	agentHeartbeatDescription = `Tell the server this agent is alive, every next_heartbeat_ms (about 30 s) while you work; after 60 s of silence its claimed tasks may be taken over. Returns next_heartbeat_ms, and pivot_request when an orchestrator asks you to stop: then call pivot_acknowledge. AGENT_NOT_FOUND: register again.`

	agentUnregisterDescription = `Unregister this agent when you stop; the tasks it still holds may be claimed by others at once. AGENT_NOT_FOUND: it is not registered (a retry: take it as done).`
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
