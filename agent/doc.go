// Package agent is the registry of the agents working on a workspace:
// they register when they start, send a heartbeat every 30 seconds or so
// while they work, and unregister when they stop (steps 1, 5 and 7 of the
// agent protocol). An agent is online while its heartbeats keep coming;
// one that stops sending them goes offline after the timeout (60 seconds)
// and is offline from then on, until it sends one again.
//
// Whether an agent is online at a given moment is one question,
// Registry.Online (and Registry.OnlineUntil, the moment it goes offline):
// claims, whose leases last as long as their agent's heartbeats, ask it.
// The registry never removes an agent by itself; to forget agents that
// went offline, List them and Unregister each.
//
// # Format
//
// Agents are library state, not content: they live under .taskmd/, which
// is never committed (list it in .gitignore), and a heartbeat never
// rewrites a tracked file (this package writes no *.md file at all). Each
// agent is one small JSON file, .taskmd/agents/<id>.json, with the names
// of the agent protocol, indented:
//
//	{
//	  "id": "ag_a1b2c3d4e5f6",
//	  "name": "worker-1",
//	  "runtime": "claude_code",
//	  "role": "worker",
//	  "capabilities": [
//	    "typescript",
//	    "testing"
//	  ],
//	  "workspace_path": "/Users/travis/projects/myapp",
//	  "metadata": {
//	    "model": "opus"
//	  },
//	  "registered": "2025-10-14T15:30:45Z",
//	  "last_heartbeat": "2025-10-14T15:31:15.5Z",
//	  "current_task": "/api/authentication.md#implement-jwt-signing",
//	  "status": "busy"
//	}
//
// Times are RFC 3339 in UTC, to the nanosecond. Empty optional fields are
// left out; fields a reader does not know are ignored, so later versions
// may add some. Whether an agent is online is not stored: it is computed
// when the agent is read, from last_heartbeat and the reader's timeout (so
// every process on a workspace should use the same WithTimeout). IDs are
// "ag_" and 12 random hex digits, or the caller's choice (Registration.ID:
// lower-case letters, digits, '_' and '-'); other files in the folder are
// ignored.
//
// # Retries
//
// Heartbeat may be retried freely. A retried Unregister returns
// AGENT_NOT_FOUND, which the caller takes as done. Register is not
// idempotent unless the caller chooses the ID: then the same registration
// again returns the agent registered the first time (see
// Registry.Register).
//
// # Concurrency and cost
//
// A Registry keeps no state: it is safe for concurrent use, and any number
// of Registry and workspace.Workspace values, in one process or several,
// may share a workspace. Every write (Register, Heartbeat, Unregister) is a
// workspace update of the agent's own file: locked for that file alone,
// atomic and durable. Concurrent heartbeats of one agent are serialised and
// none is lost; heartbeats of different agents do not wait for each other.
// Get and List take no lock and see each file either before or after any
// write.
//
// A heartbeat is the hot path. It costs a stat, a lock, a read, a JSON
// decode and encode of a few hundred bytes and one durable write with its
// two fsyncs (file and folder): about 75 µs on the 2-core ext4 test
// machines (BenchmarkHeartbeat), up to the fsyncs' cost on slower disks
// (0.6 ms or more). A thousand agents at the advised 30-second interval
// make about 33 heartbeats a second. Durability is the only mode: a
// heartbeat that returned survives a crash, as every write of the
// workspace does; there is no cheaper, unsynced heartbeat. Register
// creates a file and its lock file (about 3 ms). List reads every agent
// file through the confined workspace, about 40 µs each (4 ms for 100
// agents, BenchmarkList), and Get one.
//
// Each agent ever registered leaves an empty lock file in .taskmd/locks
// (the workspace never removes lock files); calls for IDs that are not
// registered create none.
package agent
