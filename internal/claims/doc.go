// Package claims keeps the claim state of the tasks of one plan document: who
// holds each task, and the fencing token of its latest claim. It is the one
// place that reads, writes and checks that state; package plan claims and
// releases tasks with it, and every write an agent makes on a task it claimed
// (a status update, a plan, a checkpoint) is checked by File.Check under the
// lock of the claims file, so the check and the write it guards are one
// critical section.
//
// # File
//
// The claims of the document docs/api/auth.md live in one small JSON file under
// .taskmd/claims, named by a hash of the document's canonical name
// (workspace.Workspace.Canonical: every spelling of the document shares it,
// and no document name can clash with another's claims file):
//
//	{
//	  "document": "docs/api/auth.md",
//	  "last_token": 7,
//	  "tasks": {
//	    "implement-jwt-signing": {
//	      "agent": "ag_a1b2c3d4e5f6",
//	      "token": 7,
//	      "claimed": "2026-11-23T10:00:00Z",
//	      "took_over_from": "ag_0123456789ab"
//	    },
//	    "setup-oauth": {
//	      "token": 3,
//	      "claimed": "2026-11-23T09:00:00Z",
//	      "ended": "ag_0123456789ab"
//	    }
//	  }
//	}
//
// last_token only grows: every new claim of any task of the document takes the
// next one, so the token of a task's claims grows with every new claim of that
// task, and since the file is durable it survives restarts (and the removal and
// re-creation of the document). A released claim keeps its token and lets
// nothing through; a claim that ended because its task was completed or
// skipped names its agent in "ended", whose retries it still lets through
// until the task is claimed again.
//
// # Holder
//
// The holder is also written into the task's metadata (taskdoc.KeyAssignee)
// for people to see, in the same critical section. A task is held only when
// both agree (File.Holder): a record whose task no longer shows its agent (a
// crash between the two writes, a hand edit, a renamed task, a re-created
// document) holds nothing, and the next claim settles it with a new token.
package claims
