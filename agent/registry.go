package agent

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// errTaken is a random ID that some agent has already; Register draws again.
var errTaken = errors.New("agent id taken")

// Register records a new agent and returns it, online, with
// LastHeartbeat equal to Registered.
//
// A Name or Runtime that is empty (after trimming), a caller's ID that is
// not a valid ID, too long a value or too many capabilities or metadata
// entries are INVALID_ARGUMENTS; a line break is INVALID_ARGUMENTS, any
// other control character CONTROL_CHARACTER and invalid UTF-8
// INVALID_UTF8. Nothing is written then.
//
// Without Registration.ID, Register is not idempotent: a retried call
// registers a second agent (the first goes offline after the timeout and
// stays listed until it is unregistered). A caller that may retry chooses
// the ID itself: registering an ID that exists, with the same Name and
// Runtime, is taken for a retry (or a restart of that agent) and returns
// the agent as first registered, its heartbeat renewed, since registering
// shows that it is alive; its other fields are not changed. The same ID
// with another Name or Runtime is CONFLICT.
func (r *Registry) Register(ctx context.Context, reg Registration) (Agent, error) {
	rec, err := newRecord(reg)
	if err != nil {
		return Agent{}, err
	}
	if reg.ID != "" {
		if !validID(reg.ID) {
			return Agent{}, invalid(fmt.Sprintf("the agent id %s is not 1 to %d lower-case letters, digits, '_' and '-' starting with a letter or digit", quote(reg.ID), maxID))
		}
		return r.register(ctx, reg.ID, rec, true)
	}
	// 48 random bits: a second draw is already unlikely among millions of
	// agents, a ninth never happens.
	for range 8 {
		a, err := r.register(ctx, newID(), rec, false)
		if !errors.Is(err, errTaken) {
			return a, err
		}
	}
	return Agent{}, &taskdoc.Error{Code: taskdoc.CodeConflict, Msg: "no free agent id found in 8 random draws"}
}

// register writes rec as the new agent id. An existing agent id is errTaken
// unless the caller chose id (chosen), when it may be a retry.
func (r *Registry) register(ctx context.Context, id string, rec record, chosen bool) (Agent, error) {
	rec.ID = id
	var out record
	var at time.Time
	_, err := r.ws.Update(ctx, fileOf(id), func(cur []byte, exists bool) ([]byte, error) {
		at = r.now().UTC()
		if !exists {
			out = rec
			out.Registered, out.LastHeartbeat = at, at
			return out.encode()
		}
		if !chosen {
			return nil, errTaken
		}
		old, err := decode(id, cur)
		if err != nil {
			return nil, err
		}
		if old.Name != rec.Name || old.Runtime != rec.Runtime {
			return nil, &taskdoc.Error{Code: taskdoc.CodeConflict,
				Msg: fmt.Sprintf("agent %s is registered already, as %s on %s", quote(id), quote(old.Name), quote(old.Runtime))}
		}
		out = old
		out.LastHeartbeat = later(old.LastHeartbeat, at)
		return out.encode()
	})
	if err != nil {
		return Agent{}, err
	}
	return out.agent(r, at), nil
}

// Heartbeat records that agent id is alive now and what it reports (see
// HeartbeatInfo), and returns the interval after which the agent should
// send the next heartbeat (next_heartbeat_ms in the agent protocol).
//
// An empty id is INVALID_ARGUMENTS; an id that is not registered (never, or
// no longer) is AGENT_NOT_FOUND and writes nothing. A retried heartbeat is
// harmless: it records the same report again, a little later.
//
// A heartbeat rewrites the agent's file alone, locked, atomically and
// durably: about one fsynced write of a few hundred bytes. LastHeartbeat
// never goes back, even if the clock does.
func (r *Registry) Heartbeat(ctx context.Context, id string, info HeartbeatInfo) (next time.Duration, err error) {
	info, err = checkInfo(info)
	if err != nil {
		return 0, err
	}
	if err := r.known(ctx, id); err != nil {
		return 0, err
	}
	_, err = r.ws.Update(ctx, fileOf(id), func(cur []byte, exists bool) ([]byte, error) {
		if !exists {
			return nil, notFound(id) // unregistered since known looked
		}
		rec, err := decode(id, cur)
		if err != nil {
			return nil, err
		}
		rec.LastHeartbeat = later(rec.LastHeartbeat, r.now().UTC())
		rec.CurrentTask, rec.Status = info.CurrentTask, info.Status
		return rec.encode()
	})
	if err != nil {
		return 0, err
	}
	return r.interval, nil
}

// Unregister removes agent id, durably: it is no longer listed, and Get
// and Heartbeat find it no more. An empty id is INVALID_ARGUMENTS; an id
// that is not registered is AGENT_NOT_FOUND. So is a second Unregister of
// the same id: a caller that retries an Unregister whose answer it lost
// takes AGENT_NOT_FOUND as done. The agent's file is removed even if it
// no longer reads as an agent.
func (r *Registry) Unregister(ctx context.Context, id string) error {
	if err := r.known(ctx, id); err != nil {
		return err
	}
	name := fileOf(id)
	return r.ws.Lock(ctx, []string{name}, func(tx *workspace.Tx) error {
		err := tx.Remove(name)
		if taskdoc.CodeOf(err) == taskdoc.CodeDocumentNotFound {
			return notFound(id) // unregistered since known looked
		}
		return err
	})
}

// known checks, before anything is locked, that agent id has a file: a
// call for an unknown id then leaves no lock file behind.
func (r *Registry) known(ctx context.Context, id string) error {
	if err := checkID(id); err != nil {
		return err
	}
	exists, err := r.ws.Exists(ctx, fileOf(id))
	if err != nil {
		return err
	}
	if !exists {
		return notFound(id)
	}
	return nil
}

// checkID refuses an empty id (INVALID_ARGUMENTS) and one that no agent
// can have (AGENT_NOT_FOUND), before the disk is touched.
func checkID(id string) error {
	switch {
	case id == "":
		return invalid("an agent id is required")
	case !validID(id):
		return notFound(id)
	}
	return nil
}

// Get returns agent id, with Online as of now. An empty id is
// INVALID_ARGUMENTS, one that is not registered AGENT_NOT_FOUND. Get takes
// no lock.
func (r *Registry) Get(ctx context.Context, id string) (Agent, error) {
	if err := checkID(id); err != nil {
		return Agent{}, err
	}
	data, err := r.ws.ReadData(ctx, fileOf(id))
	if taskdoc.CodeOf(err) == taskdoc.CodeDocumentNotFound {
		return Agent{}, notFound(id)
	}
	if err != nil {
		return Agent{}, err
	}
	rec, err := decode(id, data)
	if err != nil {
		return Agent{}, err
	}
	return rec.agent(r, r.now()), nil
}

// List returns the registered agents, online or not (see ListOptions), in
// the order they registered (ties by ID), with Online as of now. List
// takes no lock: it reads each agent's file once, and an agent that
// registers or unregisters meanwhile may or may not be listed. A file that
// does not read as an agent is PARSE_ERROR (Unregister removes it).
func (r *Registry) List(ctx context.Context, opts ListOptions) ([]Agent, error) {
	names, err := r.ws.List(ctx, recordDir)
	if err != nil {
		return nil, err
	}
	at := r.now()
	agents := make([]Agent, 0, len(names))
	for _, name := range names {
		id, ok := idOfFile(name)
		if !ok {
			continue
		}
		data, err := r.ws.ReadData(ctx, name)
		if taskdoc.CodeOf(err) == taskdoc.CodeDocumentNotFound {
			continue
		}
		if err != nil {
			return nil, err
		}
		rec, err := decode(id, data)
		if err != nil {
			return nil, err
		}
		if a := rec.agent(r, at); a.Online || !opts.OnlineOnly {
			agents = append(agents, a)
		}
	}
	slices.SortFunc(agents, func(a, b Agent) int {
		return cmp.Or(a.Registered.Compare(b.Registered), strings.Compare(a.ID, b.ID))
	})
	return agents, nil
}

// later is the later of two times.
func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
