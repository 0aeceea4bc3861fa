package workspace

import (
	"container/list"
	"sync"

	"github.com/taskmd/taskmd/taskdoc"
)

// defaultDocumentCache is how many bytes of document source the parsed
// documents a workspace keeps may hold, unless WithDocumentCache says
// otherwise. A parsed document takes a few times its source in memory
// (about 4× for a typical plan, so the default keeps about 128 MiB; up to
// 9× for documents of a few hundred bytes with a few tasks each, about
// 6 KiB a document).
const defaultDocumentCache = 32 << 20

// WithDocumentCache sets how many bytes of source the workspace's parsed
// documents may hold in all (least recently used ones go first); 0 or less
// turns the cache off, so that every read parses. See Workspace.Parse.
func WithDocumentCache(bytes int64) Option {
	return func(o *options) { o.cacheSize = bytes }
}

// Parse returns the parsed document of data, the bytes just read from the
// file name. A long-running process sees the same file again and again:
// the workspace keeps the last parse of each file and hands it back when
// data is exactly the bytes it was parsed from (compared in full, which
// costs less than hashing them and cannot be fooled by a timestamp or a
// collision). Bytes changed by a person, another process or git are
// always parsed again: when they differ from the kept parse's inside its
// tasks only (other agents completed some), only the changed run of tasks
// is parsed (taskdoc.Document.Reparse), and otherwise the whole file. Errors are
// taskdoc.Parse's, for the caller to name.
//
// The document is shared with every caller that reads the same bytes:
// treat it as read-only, as taskdoc's edits do (they return a new
// Document).
func (w *Workspace) Parse(name string, data []byte) (*taskdoc.Document, error) {
	if err := w.Check(); err != nil {
		return nil, err
	}
	prev := w.cache.get(name)
	doc, err := prev.Reparse(data) // prev itself for the same bytes; a full parse without prev
	if err != nil {
		return nil, err
	}
	if doc != prev {
		w.cache.put(name, doc)
	}
	return doc, nil
}

// remember keeps doc as the parse of the file name whose bytes are
// doc.Source: an edit that made doc from the document it read (taskdoc's
// edits check only what they changed) and wrote it keeps it, so that the
// next read of the written file is not parsed again (UpdateDocument,
// Tx.WriteDocument). Keeping a document that was not written is harmless:
// it is only used for exactly its bytes.
func (w *Workspace) remember(name string, doc *taskdoc.Document) {
	if w != nil && doc != nil {
		w.cache.put(name, doc)
	}
}

// docCache is a least-recently-used cache of parsed documents by file
// name, bounded by the total size of their sources.
type docCache struct {
	mu    sync.Mutex
	limit int64
	size  int64
	byKey map[string]*list.Element
	order list.List // front: most recently used; values *cached
}

type cached struct {
	name string
	doc  *taskdoc.Document
}

func newDocCache(limit int64) *docCache {
	if limit <= 0 {
		return nil
	}
	return &docCache{limit: limit, byKey: map[string]*list.Element{}}
}

// get returns the last document kept for name, whatever its bytes, or nil.
func (c *docCache) get(name string) *taskdoc.Document {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[name]
	if !ok {
		return nil
	}
	c.order.MoveToFront(e)
	return e.Value.(*cached).doc
}

// put keeps doc as name's, evicting the least recently used documents
// beyond the limit. A document larger than a quarter of the limit is not
// kept.
func (c *docCache) put(name string, doc *taskdoc.Document) {
	if c == nil {
		return
	}
	n := int64(len(doc.Source))
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[name]; ok {
		c.size -= int64(len(e.Value.(*cached).doc.Source))
		c.order.Remove(e)
		delete(c.byKey, name)
	}
	if n > c.limit/4 {
		return
	}
	c.byKey[name] = c.order.PushFront(&cached{name: name, doc: doc})
	c.size += n
	for c.size > c.limit {
		last := c.order.Back()
		old := last.Value.(*cached)
		c.order.Remove(last)
		delete(c.byKey, old.name)
		c.size -= int64(len(old.doc.Source))
	}
}

// stats is the number of documents kept and the bytes of their sources.
func (c *docCache) stats() (docs int, size int64) {
	if c == nil {
		return 0, 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.byKey), c.size
}
