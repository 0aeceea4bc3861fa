// Package workspace gives confined, locked and crash-safe access to the
// files of a taskmd workspace: one root directory that agents, servers,
// editors, scripts and people use at the same time.
//
// # Layout
//
// Every file is named by a slash-separated path relative to the root:
//
//	docs/**/*.md             documents and their Tasks sections
//	coordinator/active.md    the coordinator's sequential list
//	archived/...             finished lists and documents
//	workflows/<name>.md      workflow texts
//	.taskmd/locks/*.lock     one lock file per name ever locked or created (never *.md)
//
// Nothing is created by Open; directories appear with the first file
// written into them. MarkerFile (taskmd.toml) at the root marks a
// workspace; Find looks for the root upward from a folder, as git does
// (the nearest marker, else the nearest folder holding docs/ or
// coordinator/), Init makes a folder one, and ReadConfig reads the
// marker's settings. .taskmd/ (StateDir) holds the state of the library
// and of the packages above it that is not content (locks, agents,
// claims); it is never committed, and IgnoreState adds the line that
// makes git ignore it to the root's .gitignore.
//
// # Names and confinement
//
// All access goes through an os.Root. A name that is empty, absolute, or
// has an empty, "." or ".." element, a backslash or a NUL byte is refused
// with OUTSIDE_ROOT before anything is touched, and one past the limits of
// taskdoc.PathLimit (32 folders deep, 1,024 bytes, 255 bytes an element)
// with INVALID_ARGUMENTS. A symbolic link as the last
// element is refused with SYMLINK_REFUSED (a symlinked document is never
// read or written through). Links in directories are followed only while
// they stay inside the root; one that leads outside, or any absolute link,
// is OUTSIDE_ROOT. Names under .taskmd/locks are reserved (in any case).
// On Linux a read or a write first resolves its path in one system call
// (openat2 beneath the root, no links at all); a path that holds a link
// takes the general os.Root way, so the rules are the same. FS is the root
// as a read-only fs.FS under the same confinement, whose listings read
// each entry's type from the folder (one system call a folder).
//
// # Versions and limits
//
// Read returns a file's content with its Version, a hash of the bytes
// (VersionOf). UpdateIf takes the Version a caller read and fails with
// CONFLICT, changing nothing, if the file is no longer that version. Files
// over the size limit (16 MiB, WithMaxFileSize) are FILE_TOO_LARGE and *.md
// files that are not UTF-8 are INVALID_UTF8, both on read and on write.
//
// # Parsed documents
//
// Parse returns the parsed document of bytes just read, keeping the last
// parse of each file: the same bytes again (compared in full) return it
// without a parse, bytes changed inside tasks only are reparsed task by
// task (taskdoc.Document.Reparse), and anything else is parsed in full.
// UpdateDocument and Tx.WriteDocument keep what they write. The kept documents are bounded
// by the total size of their sources (32 MiB by default,
// WithDocumentCache; least recently used first) and shared: read-only.
// ReadData and UpdateDocument are Read and Update without the Version, for
// the callers that do not use it (they skip hashing the content).
//
// # Guarantee
//
// Every error the package makes is a *taskdoc.Error (a cancelled wait is
// IO_ERROR wrapping the context's error; errors from the caller's update
// functions are returned as they are), and an operation that fails has
// changed no file's content (it may have left the lock directory or new,
// empty parent directories behind). Beyond that:
//
//   - Atomic: readers, in this process or any other, see a file either as
//     it was before a write or as it is after it, never partly written.
//     Write, Update and Create write a temporary file beside the target
//     (".tmp-<hash of the target's name>-<suffix>", 38 bytes whatever the
//     target's name, so every name the file system takes can be written;
//     never *.md; the suffix is fixed, as every writer of a name holds its
//     lock, Create too for its write, so the next write or removal of a
//     name removes a crash's leftover without listing the folder), flush
//     it, and then rename it over the target (Create: hard-link it to the
//     target, which fails if the target exists). Operations on several
//     files under one Lock are each atomic, not atomic together.
//   - Durable: on Unix, when Update, Write, Create or Remove returns
//     without error, the change survives a crash of the process or of the
//     machine: the file and then its directory are fsynced (and new parent
//     directories too). A crash at any moment leaves the old content or the
//     new, plus at most a stray temporary file, which reads, List and Walk
//     ignore (see Recovery).
//   - Exclusive: Update, UpdateIf and Lock hold, for each name, a lock
//     shared by every Workspace value in the process (a wait honours the
//     context) and then an exclusive flock (gofrs/flock) on
//     .taskmd/locks/<escaped name>.lock, a fresh one per critical section.
//     Lock files are never renamed or removed (a holder removing one
//     would race every process that opened it before: on overlay and
//     network file systems a removed open file keeps a name, and older
//     versions do not look again); the data file is never locked itself,
//     as the rename replaces it. Update re-reads the file
//     inside the lock, so no update is ever lost to a concurrent one. Lock
//     takes several names in sorted order, so callers cannot deadlock.
//     Tx.Create takes its name's lock for its write without waiting, so
//     it cannot deadlock either: while another holds it, CONFLICT.
//     A name is locked with the symbolic links in its folders resolved, so
//     a file reached through a linked folder ("docs/shared" -> "team") and
//     through its real folder takes one lock, and in lower case, so names
//     that differ only in case (one file where case is ignored) take one
//     lock; a linked folder that leads into .taskmd/locks is OUTSIDE_ROOT. Hard links are not detected: two
//     hard-linked names are two files to the library (a write replaces one
//     of them and breaks the link).
//   - Reads take no lock.
//
// People editing files by hand, and tools that do not use these locks, are
// not excluded; UpdateIf is how an editor detects that they changed a file.
//
// # Recovery
//
// A temporary file that a crash left is removed by the next write or
// removal of its target under the target's lock, whatever its age. Names
// that are never written again (archives, archived documents) are covered
// by a sweep: a write, Create or removal in a folder also removes other
// names' temporary files there that have not changed for a minute, at most
// 16 per operation and at most once a minute per folder for each Workspace
// value, so that the cost stays bounded and out of the hot path. Sweep
// removes them all, in a folder and the folders below it, at once;
// Leftovers lists them without removing any. The
// minute of grace protects writes in progress, in any process, but a
// sweep may still remove a writer's file: one that replaced an old
// leftover of the same name while the sweep was deciding to remove it, or
// the file of a writer stopped for longer than the minute (a suspended
// process). The writer finds its file gone at the rename and, still
// holding the lock, writes it again; only if that happens 4 times in a
// row does it fail, with IO_ERROR, changing nothing. Temporary names of
// earlier versions
// (".<name>.tmp-<random>") are recognised and swept too; any file named
// like a temporary file is taken for one.
//
// # Moving a file aside
//
// Tx.MoveAside moves a locked file to a new name (base.md, base-2.md, ...)
// without ever losing it: the copy is durable before the original goes, the
// copy never replaces a file, and the original is removed only if it still
// holds the bytes copied (CONFLICT otherwise). A crash between the two
// steps leaves a duplicate, and calling MoveAside again finishes the move.
// The coordinator archives its finished lists with it, and
// subagent.Tasks.Archive moves documents aside by hand. What a task needs
// to be worked on (workflows, referenced documents) is loaded by package
// taskcontext, above this one.
//
// # Supported systems
//
// Local file systems, used by processes on one host: ext4, XFS, btrfs,
// APFS, NTFS. Network file systems (NFS, SMB, sshfs, and folders synced by
// cloud clients) are not supported: flock there is emulated with byte-range
// locks or not honoured at all, and processes on two machines sharing a
// directory do not exclude each other. Deleting .taskmd while the library
// is in use voids the exclusion guarantee. Lock files are named after the
// path (links in its folders resolved, in lower case) with '%' and '/'
// escaped ("docs%2Fapi%2Fauth.md.lock"), or a hash for very long names.
//
// On Windows the lock is LockFileEx (through gofrs/flock) and confinement
// and atomic replacement work as on Unix, with two differences. Directories
// cannot be fsynced, so a power failure just after a write may lose that
// newest write (never tearing the file). And a file cannot be replaced
// while some program has it open without sharing delete access, as readers
// (this package's Read included), editors and virus scanners do: the write
// retries for up to a second, then returns IO_ERROR with the temporary file
// removed and the old content in place, so the caller may simply retry.
//
// # Example
//
//	ws, err := workspace.Open("/path/to/project")
//	if err != nil { ... }
//	defer ws.Close()
//	v, err := ws.Update(ctx, "docs/api/auth.md", func(cur []byte, exists bool) ([]byte, error) {
//		if !exists {
//			return taskdoc.NewDocument("Auth"), nil
//		}
//		doc, err := taskdoc.Parse(cur)
//		if err != nil {
//			return nil, err
//		}
//		return doc.SetStatus("implement-jwt-signing", taskdoc.StatusInProgress)
//	})
package workspace
