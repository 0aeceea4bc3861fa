package agent

import (
	"time"

	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/workspace"
)

// Defaults of the options.
const (
	// defaultTimeout is how long an agent stays online after its last
	// heartbeat (or its registration) unless WithTimeout says otherwise.
	defaultTimeout = 60 * time.Second
	// defaultHeartbeatInterval is the interval Heartbeat advises unless
	// WithHeartbeatInterval says otherwise.
	defaultHeartbeatInterval = 30 * time.Second
)

// Agent is one registered agent as its file records it, plus Online.
type Agent struct {
	ID            string            `json:"id"`                       // "ag_" and 12 hex digits, or the caller's Registration.ID
	Name          string            `json:"name"`                     // as registered, e.g. "worker-1"
	Runtime       string            `json:"runtime"`                  // as registered, e.g. "claude_code"
	Role          string            `json:"role"`                     // as registered; "worker" unless given
	Capabilities  []string          `json:"capabilities,omitempty"`   // as registered, in order; nil if none
	WorkspacePath string            `json:"workspace_path,omitempty"` // as registered; the library does not interpret it
	Metadata      map[string]string `json:"metadata,omitempty"`       // as registered; nil if none
	Registered    time.Time         `json:"registered"`               // when the agent registered (UTC)
	LastHeartbeat time.Time         `json:"last_heartbeat"`           // its last heartbeat, or Registered before the first (UTC)
	CurrentTask   string            `json:"current_task,omitempty"`   // as the last heartbeat reported it; "" for none
	Status        string            `json:"status,omitempty"`         // as the last heartbeat reported it ("busy", "idle", ...); not interpreted
	// Online is computed when the agent is read, with the Registry's clock
	// and timeout (see Registry.Online); it is not stored.
	Online bool `json:"online"`
}

// Registration is what an agent says about itself when it registers. Name
// and Runtime are required. Every field is one line without control
// characters; surrounding spaces are trimmed.
type Registration struct {
	// ID, when set, is the caller's choice of ID: 1 to 64 lower-case
	// letters, digits, '_' and '-', starting with a letter or digit. It
	// makes Register safe to retry (see Registry.Register). When empty, a
	// new random ID is made.
	ID            string            `json:"id,omitempty"`
	Name          string            `json:"name"`
	Runtime       string            `json:"runtime"`
	Role          string            `json:"role,omitempty"` // "worker" when empty
	Capabilities  []string          `json:"capabilities,omitempty"`
	WorkspacePath string            `json:"workspace_path,omitempty"`
	Metadata      map[string]string `json:"metadata,omitempty"`
}

// HeartbeatInfo is what an agent reports with a heartbeat. Both fields are
// optional, one line, without control characters. A heartbeat replaces the
// agent's CurrentTask and Status with these ("" clears them): each
// heartbeat states the agent's whole state, so a retried one changes
// nothing more.
type HeartbeatInfo struct {
	CurrentTask string `json:"current_task,omitempty"`
	Status      string `json:"status,omitempty"`
}

// ListOptions filters List.
type ListOptions struct {
	OnlineOnly bool // only agents online now
}

// Registry gives access to the agents of one workspace. It keeps no state
// of its own: every call reads or writes the agent's file, so any number of
// Registry values, goroutines and processes can use one workspace at once.
type Registry struct {
	ws       *workspace.Workspace
	now      func() time.Time
	timeout  time.Duration
	interval time.Duration
}

// An Option configures a Registry: WithClock, WithTimeout,
// WithHeartbeatInterval. The zero Option is ignored.
type Option struct{ o taskflow.Option }

// WithClock sets the clock that dates registrations and heartbeats and
// decides which agents are online. The default is time.Now; a nil clock is
// ignored.
func WithClock(now func() time.Time) Option { return Option{taskflow.WithClock(now)} }

// WithTimeout sets how long an agent stays online after its last heartbeat.
// The default is 60 seconds; zero or less is ignored.
//
// The timeout is the reader's: it is not stored with the agent, so every
// process on a workspace should use the same one.
func WithTimeout(d time.Duration) Option { return Option{taskflow.WithAgentTimeout(d)} }

// WithHeartbeatInterval sets the interval Heartbeat advises. The default is
// 30 seconds; zero or less is ignored. The advice is never
// more than half the timeout, so that one late heartbeat does not take an
// agent offline.
func WithHeartbeatInterval(d time.Duration) Option {
	return Option{taskflow.WithHeartbeatInterval(d)}
}

// New returns the registry of the agents of ws.
func New(ws *workspace.Workspace, opts ...Option) *Registry {
	cfg := taskflow.Configure(opts, func(o Option) taskflow.Option { return o.o })
	timeout, interval := defaultTimeout, defaultHeartbeatInterval
	if cfg.AgentTimeout > 0 {
		timeout = cfg.AgentTimeout
	}
	if cfg.HeartbeatInterval > 0 {
		interval = cfg.HeartbeatInterval
	}
	return &Registry{
		ws:       ws,
		now:      cfg.Now,
		timeout:  timeout,
		interval: min(interval, timeout/2),
	}
}

// OnlineUntil is the last moment at which a is online unless it sends
// another heartbeat: its last heartbeat (its registration before the
// first) plus the timeout. A lease tied to the agent ends then.
func (r *Registry) OnlineUntil(a Agent) time.Time { return a.LastHeartbeat.Add(r.timeout) }

// Now is the registry's clock: the time its decisions are made at.
func (r *Registry) Now() time.Time { return r.now() }

// Timeout is how long an agent stays online after its last heartbeat
// (WithTimeout): the length of the leases tied to agents.
func (r *Registry) Timeout() time.Duration { return r.timeout }

// Online reports whether a is online at time at: at is not after
// OnlineUntil(a). Only a's LastHeartbeat is read, so a may be one that Get
// or List returned a while ago; for the answer now, Get the agent again.
// An Agent that was never registered (zero LastHeartbeat) is offline.
func (r *Registry) Online(a Agent, at time.Time) bool { return !at.After(r.OnlineUntil(a)) }
