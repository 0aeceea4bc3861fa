// Package archive holds helpers that move finished work out of the way
// without losing it, on top of the packages that own the files:
// the coordinator's list when its last task is completed, and docs documents
// archived by hand.
//
// # Layout
//
//	coordinator/active.md                        the live coordinator list
//	archived/coordinator/active-YYYY-MM-DD-HHMMSS.md
//	                                             a finished list (UTC); a second
//	                                             archive in the same second is
//	                                             ...-2.md, then -3.md, ...
//	archived/docs/<path>.md                      a document archived by hand from
//	                                             docs/<path>.md (-2, -3 on a clash)
//
// Archives are byte-for-byte copies of the file they replace.
//
// # Crash safety
//
// An archive is a copy followed by a removal. The copy is written to a
// temporary file, synced, and linked to its name (never replacing a file),
// and the directory is synced, before the original is removed. A crash
// between the two leaves the same bytes in both places: a duplicate, never a
// loss (workspace.Tx.MoveAside). The next operation finishes the job by
// itself: Recover (which the coordinator runs before each operation, as
// coordinator.List.Recover, and which owns the list's file name, its
// "finished" rule and its archive names) sees a coordinator list whose
// tasks are all completed, finds the archive with identical bytes and only
// removes the list, or archives the list if no such archive exists. Document
// does the same when called again for the same document. Two different lists
// with identical bytes share one archive, which loses nothing.
//
// The original is removed only if it still holds the archived bytes: an
// edit saved by a person or by a tool that takes no lock while the copy was
// being written is kept in place, and the operation is CONFLICT (the
// archive then holds the version before the edit; repeat to archive the
// new one).
//
// # Example
//
//	name, err := archive.Coordinator(ctx, ws, time.Now())
//	// name == "archived/coordinator/active-2026-11-22-093000.md"
//	entries, err := archive.List(ctx, ws) // newest first
//	data, err := archive.Read(ctx, ws, entries[0].Name)
//
// # Concurrency
//
// Archiving holds the workspace's lock on the file being archived (an
// in-process mutex and a file lock), so it excludes every coordinator
// operation, in this process and in others; the archive's new name is
// created without ever replacing a file, so concurrent archives in the same
// second get distinct names. List and Read take no lock: archives are
// written atomically and never change.
package archive
