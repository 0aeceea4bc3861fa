// Package claims keeps the claim state of the tasks of one plan document: who
// holds each task, and the fencing token of its current claim. It is the one
// place that reads, writes and checks that state; package plan claims and
// releases tasks with it, and every write an agent makes on a task it claimed
// (a status update, a plan, a checkpoint) is checked by Check under the lock of
// the claims file, so the check and the write it guards are one critical
// section.
//
// # File
//
// The claims of the document docs/api/auth.md live in one small JSON file under
// .taskmd/claims, named by a hash of the document's file name (so that no
// document name can clash with another's claims file, in any case):
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
//	    }
//	  }
//	}
//
// last_token only grows: every new claim of any task of the document takes the
// next one, so the token of a task's claims grows with every new claim of that
// task, and since the file is durable it survives restarts. A released task
// keeps its record without an agent. The holder is also written into the task's
// metadata (taskdoc.KeyAssignee) for people to see; this file is the authority
// on the token.
package claims
