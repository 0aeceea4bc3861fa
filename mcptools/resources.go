package mcptools

import (
	"context"
	"encoding/json"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/internal/watch"
	"github.com/taskmd/taskmd/query"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// ResourceTemplate is the URI template of the documents and tasks
// WithResources serves: a document's URI is "taskmd://docs" followed by
// its address (its path percent-encoded as a URL path), so /api/auth.md
// is taskmd://docs/api/auth.md and the coordinator's list is
// taskmd://docs/coordinator/active.md; a task's is its document's, a
// slash and its slug: /api/auth.md#sign-tokens is
// taskmd://docs/api/auth.md/sign-tokens.
const ResourceTemplate = resourcePrefix + "{+path}"

const (
	resourcePrefix = "taskmd://docs/"
	resourceMIME   = "text/markdown"
	// ResourcesPage is how many documents one resources/list answer
	// holds at most; nextCursor asks for the ones after them.
	ResourcesPage = 500
	// listCursor starts the cursors of the documents' pages: the address
	// after it is the last one a page listed.
	listCursor = "taskmd:after:"
)

// WithResources serves the documents under docs/ and the coordinator's
// list, and their tasks, as MCP resources (see ResourceTemplate),
// whatever the toolsets: resources/list lists the documents by address,
// ResourcesPage at a time; resources/read returns a document's bytes, or
// a task's text from its heading to its last line (text/markdown). On a
// server made by NewServer, a client may also subscribe to a document or
// a task: the server watches the workspace (without polling) while any
// session is subscribed to anything, and sends
// notifications/resources/updated for the URI each time the document's
// content, or the task's text, changes, whoever wrote it. A
// server of your own made with mcp.NewServer cannot take subscriptions
// (the SDK reads them from ServerOptions); it gets the rest.
func WithResources() Option {
	return func(c *config) { c.resources = true }
}

// withSubscriptions hands Register the resources whose subscribe and
// unsubscribe NewServer put in the server's options.
func withSubscriptions(r *resources) Option {
	return func(c *config) { c.subscriptions = r }
}

// resources serves the documents of one server, and watches the ones its
// sessions subscribe to.
type resources struct {
	ws       *workspace.Workspace
	server   *mcp.Server
	shutdown context.Context

	mu       sync.Mutex
	subs     map[string]*subscription    // by URI
	files    map[string]fileState        // by root-relative file: as last seen
	sessions map[*mcp.ServerSession]bool // sessions whose end drop waits for
	stop     context.CancelFunc          // ends the watch; nil when none runs
	done     chan struct{}               // closed when the watch has ended
}

// subscription is one URI and the sessions subscribed to it.
type subscription struct {
	file     string
	slug     string // a task's; "" for the document
	version  string // the task's Version as last seen; "" when it had none
	sessions map[*mcp.ServerSession]bool
}

// fileState is what the watch last saw of a file: its information (nil
// when it did not exist) and its content's Version.
type fileState struct {
	info    fs.FileInfo
	version workspace.Version
}

// addTo adds the template and the listing to server.
func (r *resources) addTo(server *mcp.Server, ws *workspace.Workspace, shutdown context.Context) {
	r.ws, r.server, r.shutdown = ws, server, shutdown
	server.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: ResourceTemplate,
		Name:        "document",
		Title:       "taskmd document or task",
		Description: "A task document by address: taskmd://docs/api/auth.md is /api/auth.md (docs/api/auth.md); taskmd://docs/coordinator/active.md is the coordinator's list; taskmd://docs/api/auth.md/sign-tokens is the task /api/auth.md#sign-tokens.",
		MIMEType:    resourceMIME,
	}, r.read)
	server.AddReceivingMiddleware(r.list)
}

// resourceURI is the URI of the document at address path p.
func resourceURI(p string) string {
	return "taskmd://docs" + (&url.URL{Path: p}).EscapedPath()
}

// resourceFile returns the root-relative file a document or task URI
// names, and the task's slug ("" for a document). A URI that is neither
// is INVALID_ADDRESS, saying what one looks like.
func resourceFile(uri string) (file, slug string, err error) {
	bad := func(why string) (string, string, error) {
		return "", "", &taskdoc.Error{Code: taskdoc.CodeInvalidAddress,
			Msg: "resource " + quoteURI(uri) + " is not a taskmd document or task: " + why +
				"; a document's URI is taskmd://docs/ and its address, as taskmd://docs/api/auth.md for /api/auth.md," +
				" a task's its document's and /slug, as taskmd://docs/api/auth.md/sign-tokens"}
	}
	rest, ok := strings.CutPrefix(uri, resourcePrefix)
	if !ok {
		return bad("it does not start with " + resourcePrefix)
	}
	if strings.ContainsAny(rest, "#?") {
		return bad("it has a query or a fragment")
	}
	p, err := url.PathUnescape(rest)
	if err != nil {
		return bad("its path is not percent-encoded as a URL path's")
	}
	address := "/" + p
	if i := strings.LastIndexByte(p, '/'); i >= 0 && !strings.HasSuffix(p, ".md") && strings.HasSuffix(p[:i], ".md") {
		address = "/" + p[:i] + "#" + p[i+1:]
	}
	a, err := taskdoc.ParseAddress(address)
	if err != nil {
		return bad(err.Error())
	}
	if strings.HasSuffix(address, "#") {
		return bad("its task's slug is empty")
	}
	if a.Folder() != taskdoc.FolderDocs && a.File() != coordinator.File {
		return bad("only the documents under docs/ and " + coordinator.File + " and their tasks are resources (archive_read reads archived ones)")
	}
	return a.File(), a.Slug, nil
}

func quoteURI(uri string) string {
	b, _ := json.Marshal(uri)
	return string(b)
}

// read is resources/read: the document's bytes as they are on disk, or
// the task's text.
func (r *resources) read(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	file, slug, err := resourceFile(uri)
	if err != nil {
		return nil, resourceError(uri, err)
	}
	data, err := r.ws.ReadData(ctx, file)
	if err != nil {
		return nil, resourceError(uri, err)
	}
	text := string(data)
	if slug != "" {
		if text, _, err = r.task(file, slug, data); err != nil {
			return nil, resourceError(uri, err)
		}
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{
		{URI: uri, MIMEType: resourceMIME, Text: text},
	}}, nil
}

// task is the text of the task slug of file, whose content is data, from
// its heading to its last non-blank line, and its Version. A document that
// does not parse, or has no such task, is the error that says so.
func (r *resources) task(file, slug string, data []byte) (text, version string, err error) {
	doc, err := r.ws.Parse(file, data)
	if err != nil {
		return "", "", err
	}
	t, err := doc.Task(slug)
	if err != nil {
		return "", "", err
	}
	return strings.TrimRight(string(data[t.Span.Start:t.Span.End]), " \t\r\n") + "\n", t.Version, nil
}

// resourceError is a JSON-RPC error for a resource request that failed:
// the message starts with the code, as a tool error's does, and the data
// carries the code and the URI. A failure to read is an internal error;
// every refusal, a document that does not exist included (the protocol's
// "resource not found"), is invalid params.
func resourceError(uri string, err error) error {
	te := newToolError(err)
	code := int64(jsonrpc.CodeInvalidParams)
	if te.code == taskdoc.CodeIO {
		code = jsonrpc.CodeInternalError
	}
	data, _ := json.Marshal(map[string]string{"code": string(te.code), "uri": uri})
	return &jsonrpc.Error{Code: code, Message: te.Error(), Data: data}
}

// list serves resources/list: the server's own resources first (as the
// SDK pages them), then the documents, by address, ResourcesPage at a
// time. Every other request passes through.
func (r *resources) list(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		lr, ok := req.(*mcp.ListResourcesRequest)
		if !ok {
			return next(ctx, method, req)
		}
		var cursor string
		if lr.Params != nil {
			cursor = lr.Params.Cursor
		}
		after, ours := strings.CutPrefix(cursor, listCursor)
		res := &mcp.ListResourcesResult{Resources: []*mcp.Resource{}}
		if !ours {
			out, err := next(ctx, method, req)
			if err != nil {
				return out, err
			}
			own, _ := out.(*mcp.ListResourcesResult)
			if own == nil || own.NextCursor != "" {
				return out, nil
			}
			res = own
		}
		page, more, err := r.page(ctx, after)
		if err != nil {
			return nil, resourceError("", err)
		}
		res.Resources = append(res.Resources, page...)
		res.NextCursor = more
		return res, nil
	}
}

// page lists the documents whose addresses sort after after, at most
// ResourcesPage of them, and the cursor of the next page ("" when this
// one is the last). The documents are documents_list's.
func (r *resources) page(ctx context.Context, after string) ([]*mcp.Resource, string, error) {
	docs, err := query.Documents(ctx, r.ws)
	if err != nil {
		return nil, "", err
	}
	var out []*mcp.Resource
	for _, d := range docs {
		if d.Address == "" || d.Address <= after {
			continue // no address names it, or an earlier page listed it
		}
		if len(out) == ResourcesPage {
			return out, listCursor + out[len(out)-1].Name, nil
		}
		desc := resourceDescription(d)
		out = append(out, &mcp.Resource{URI: resourceURI(d.Address), Name: d.Address, Title: d.Title,
			Description: desc, MIMEType: resourceMIME})
	}
	return out, "", nil
}

// resourceDescription says how many tasks a document has, or why it does
// not read.
func resourceDescription(d query.Document) string {
	if d.Error != "" {
		return string(d.Code) + ": " + d.Error
	}
	if d.Tasks == 1 {
		return "1 task"
	}
	return strconv.Itoa(d.Tasks) + " tasks"
}

// subscribe is resources/subscribe: the URI must name a document (which
// need not exist yet: its creation is a change); the watch starts with
// the first subscription.
func (r *resources) subscribe(ctx context.Context, req *mcp.SubscribeRequest) error {
	uri := req.Params.URI
	file, slug, err := resourceFile(uri)
	if err != nil {
		return resourceError(uri, err)
	}
	var version string
	if slug != "" {
		// A task that does not exist yet has no version: its creation is
		// a change.
		if data, err := r.ws.ReadIfExists(ctx, file); err == nil && data != nil {
			_, version, _ = r.task(file, slug, data)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.subs == nil {
		r.subs, r.files, r.sessions = map[string]*subscription{}, map[string]fileState{}, map[*mcp.ServerSession]bool{}
	}
	s := r.subs[uri]
	if s == nil {
		s = &subscription{file: file, slug: slug, version: version, sessions: map[*mcp.ServerSession]bool{}}
		r.subs[uri] = s
	}
	s.sessions[req.Session] = true
	if _, ok := r.files[file]; !ok {
		r.files[file] = r.state(file, fileState{})
	}
	if ss := req.Session; ss != nil && !r.sessions[ss] {
		r.sessions[ss] = true
		go func() {
			_ = ss.Wait()
			r.drop(ss, "")
		}()
	}
	if r.stop == nil {
		ctx, cancel := context.WithCancel(r.shutdown)
		done := make(chan struct{})
		r.stop, r.done = cancel, done
		go r.watch(ctx, done)
	}
	return nil
}

// unsubscribe is resources/unsubscribe. Unsubscribing from a document the
// session is not subscribed to does nothing.
func (r *resources) unsubscribe(_ context.Context, req *mcp.UnsubscribeRequest) error {
	uri := req.Params.URI
	if _, _, err := resourceFile(uri); err != nil {
		return resourceError(uri, err)
	}
	r.drop(req.Session, uri)
	return nil
}

// drop ends the subscription of ss to uri, or to everything when uri is
// "" (the session ended), and stops the watch when no subscription is
// left; it returns once the watch has ended.
func (r *resources) drop(ss *mcp.ServerSession, uri string) {
	r.mu.Lock()
	for u, s := range r.subs {
		if uri != "" && u != uri {
			continue
		}
		delete(s.sessions, ss)
		if len(s.sessions) == 0 {
			delete(r.subs, u)
		}
	}
	if uri == "" {
		delete(r.sessions, ss)
	}
	for file := range r.files {
		if !r.watched(file) {
			delete(r.files, file)
		}
	}
	var stop context.CancelFunc
	var done chan struct{}
	if len(r.subs) == 0 && r.stop != nil {
		stop, done = r.stop, r.done
		r.stop, r.done = nil, nil
	}
	r.mu.Unlock()
	if stop != nil {
		stop()
		<-done
	}
}

// watched reports whether a subscription names file; r.mu is held.
func (r *resources) watched(file string) bool {
	for _, s := range r.subs {
		if s.file == file {
			return true
		}
	}
	return false
}

// watch runs the workspace's watch until ctx ends, and closes done. It
// watches the whole root, as `taskmd watch` does, so that a folder
// created later (a new document's, the coordinator's) is watched too. A
// watch that fails is started again after watch.Fallback.
func (r *resources) watch(ctx context.Context, done chan struct{}) {
	defer close(done)
	for ctx.Err() == nil {
		_, err := watch.UntilTree(ctx, r.ws.Root(), 0, nil, func() (bool, error) {
			r.check(ctx)
			return false, nil
		})
		if err == nil || ctx.Err() != nil {
			return
		}
		select {
		case <-ctx.Done():
		case <-time.After(watch.Fallback):
		}
	}
}

// check compares each subscribed file with what was last seen of it and
// sends notifications/resources/updated for the URIs of the documents
// whose content changed, and of the tasks in them whose text changed.
func (r *resources) check(ctx context.Context) {
	r.mu.Lock()
	var updated []string
	for file, was := range r.files {
		now := r.state(file, was)
		r.files[file] = now
		if now.version == was.version {
			continue
		}
		var data []byte
		for uri, s := range r.subs {
			if s.file != file {
				continue
			}
			if s.slug != "" {
				if data == nil {
					data, _ = r.ws.ReadIfExists(r.shutdown, file)
				}
				var version string
				if data != nil {
					_, version, _ = r.task(file, s.slug, data)
				}
				if version == s.version {
					continue
				}
				s.version = version
			}
			updated = append(updated, uri)
		}
	}
	r.mu.Unlock()
	sort.Strings(updated)
	for _, uri := range updated {
		_ = r.server.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri})
	}
}

// state is what file is now. Its content is read only when its
// information differs from was's, so that the many events of a write
// elsewhere in the tree cost a stat each. A file that cannot be read
// (gone, a link) has the empty Version.
func (r *resources) state(file string, was fileState) fileState {
	info, err := os.Lstat(filepath.Join(r.ws.Root(), filepath.FromSlash(file)))
	if err != nil {
		return fileState{}
	}
	if was.info != nil && os.SameFile(was.info, info) && was.info.Size() == info.Size() &&
		was.info.ModTime().Equal(info.ModTime()) {
		return fileState{info: info, version: was.version}
	}
	data, err := r.ws.ReadData(r.shutdown, file)
	if err != nil {
		return fileState{info: info}
	}
	return fileState{info: info, version: workspace.VersionOf(data)}
}
