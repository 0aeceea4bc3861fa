package query

import (
	"context"
	"sync"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// indexFile keeps the summary of every document Documents listed with
// WithIndex, each with the Version (content hash) of the bytes it was made
// from: a line of text a document (see encodeIndex), which a new process
// reads in a few milliseconds for 10,000 documents.
const indexFile = workspace.StateDir + "/index/documents"

// An Option changes how Documents lists.
type Option func(*options)

type options struct{ index bool }

// WithIndex makes Documents keep the summary of every document in
// indexFile, so that a new process (a command run, a server started)
// lists a workspace without parsing the documents that did not change
// since any process listed them. A summary is used only for exactly the
// bytes it was made from (their Version, a SHA-256 of the content, read
// each time); every other document is parsed, and the index updated.
// The index is a cache: one that is missing, unreadable or of another
// format is rebuilt, and one that cannot be written leaves the listing
// as it is.
func WithIndex() Option { return func(o *options) { o.index = true } }

// indexed is one document of the index.
type indexed struct {
	Version  workspace.Version
	Document Document
}

// indexedDocuments is Documents with the index. Each file's bytes are
// hashed once, by the reader that read them.
func indexedDocuments(ctx context.Context, ws *workspace.Workspace) ([]Document, error) {
	idx := readIndex(ctx, ws)
	var mu sync.Mutex
	versions := map[string]workspace.Version{}
	srcs, err := taskflow.ReadAllUnless(ctx, ws, func(file string, data []byte) bool {
		v := workspace.VersionOf(data)
		mu.Lock()
		versions[file] = v
		mu.Unlock()
		e, ok := idx[file]
		return ok && e.Version == v
	}, taskdoc.FolderDocs, coordinator.File)
	if err != nil {
		return nil, err
	}
	out := make([]Document, len(srcs))
	next := make(map[string]indexed, len(srcs))
	changed := false
	for i, s := range srcs {
		if s.Known {
			out[i], next[s.File] = idx[s.File].Document, idx[s.File]
			continue
		}
		out[i] = summaryOf(s)
		if s.Doc != nil && s.Err == nil {
			next[s.File] = indexed{Version: versions[s.File], Document: out[i]}
			changed = true
		}
	}
	if changed || len(next) != len(idx) {
		writeIndex(ctx, ws, next)
	}
	return out, nil
}

// readIndex reads indexFile; nil when there is none or it cannot be read.
func readIndex(ctx context.Context, ws *workspace.Workspace) map[string]indexed {
	data, err := ws.ReadIfExists(ctx, indexFile)
	if err != nil || data == nil {
		return nil
	}
	docs, ok := decodeIndex(data)
	if !ok {
		return nil
	}
	return docs
}

// writeIndex replaces indexFile with docs; a failure is left: the index
// is a cache.
func writeIndex(ctx context.Context, ws *workspace.Workspace, docs map[string]indexed) {
	data := encodeIndex(docs)
	_, _ = ws.Update(ctx, indexFile, func([]byte, bool) ([]byte, error) { return data, nil })
}
