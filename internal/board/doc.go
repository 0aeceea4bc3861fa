// Package board is taskmd's web board for people (taskmd board): pages of
// the plans, a task, the agents, the inbox and a plan's dependency graph,
// rendered on the server with html/template, with form actions that are
// the library's own operations and a live feed of server-sent events fed
// by internal/watch (watch.Changes): the changed cards and sections of the
// plans, and the names of the other pages whose data changed, which fetch
// their own content again; a timer pushes the agents' pages when a
// heartbeat ages out.
//
// The board adds presentation, never a rule: every action calls the
// operation the command line calls for it (subagent, coordinator, plan,
// worker) and shows its error code. Two checks are the board's own,
// because only a page has them: a task form carries the status the page
// showed, and a task in another status by the time the form arrives is
// CONFLICT under the document's lock (claims.WithSeen), so a stale page
// never overwrites a newer state; and every
// action needs the run's secret and the board's own origin.
//
// # Concurrency and cost
//
// A Server serves any number of requests at once. It keeps each document's
// rendered cards between requests (a model refreshed under one mutex): a
// page reads every document's bytes again and parses and renders only the
// documents that changed. Pages and pushes read views that are never
// changed once made.
//
// See docs/board.md for the pages, the hooks and the security model.
package board
