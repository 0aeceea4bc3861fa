// Package query answers questions about a whole workspace without walking
// files or converting names by hand: which documents there are and how many
// of their tasks are in each status (Documents), which tasks anywhere match
// a filter (Find: by status, document or folder, Workflow, holder,
// Depends-On, any field, text), and which workflow prompts there are
// (Workflows).
//
// Documents are the task documents under docs/ and the coordinator list
// (coordinator/active.md), named by their addresses ("/api/auth.md",
// "/coordinator/active.md"); tasks by their task addresses
// ("/api/auth.md#implement-jwt-signing"). taskdoc.AddressOfFile and
// taskdoc.Address.File convert between addresses and file names.
// Archived documents are listed by ArchivedDocuments; ReadArchived reads
// them and the coordinator's archived lists.
//
// # Example
//
//	docs, _ := query.Documents(ctx, ws)
//	for _, d := range docs {
//		fmt.Println(d.Address, d.Counts[taskdoc.StatusInProgress])
//	}
//	busy, _ := query.Find(ctx, ws, query.Filter{
//		Statuses: []taskdoc.Status{taskdoc.StatusInProgress},
//		Document: "/api/", // a folder; "/api/auth.md" is one document
//	})
//	for _, m := range busy {
//		fmt.Println(m.Address, m.Task.Title)
//	}
//
// # Errors
//
// A document that cannot be read or parsed does not stop a listing:
// Documents reports it with its Error, and Find passes over it (unless the
// filter names that one document, which is then the error). Bad input —
// an unknown status, an address that is not one — is a *taskdoc.Error
// before any file is read.
//
// # Concurrency and cost
//
// Queries take no lock and write nothing: the workspace replaces files
// atomically, so each document is read as one whole version, though a
// query over many documents is not a snapshot of all of them at one
// instant. Every document is read and parsed once per call, several at a
// time on a small pool of goroutines; see the package's benchmarks for
// figures on a workspace of 1,000 documents.
package query
