package board_test

import (
	"context"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/board"
	"github.com/taskmd/taskmd/workspace"
)

const token = "s3cret-token-of-this-run"

// authDoc is a plan of three tasks: setup, then sign (after setup), and
// a third in progress.
const authDoc = `# Auth

## Tasks

### Setup OAuth

- Status: pending

Configure the provider. <script>alert(1)</script>

### Sign tokens

- Status: pending
- Depends-On: #setup-oauth

Sign with RS256.

### Rotate keys

- Status: in_progress

Rotate weekly.
`

// fixture is a board over a workspace in a temporary folder, served by a
// real HTTP server.
type fixture struct {
	root string
	ws   *workspace.Workspace
	url  string // "http://127.0.0.1:PORT"
	srv  *board.Server
}

// newFixture writes files (name -> content) into a new workspace and
// serves its board with opt (Addr is filled in, and Token when empty).
func newFixture(t *testing.T, files map[string]string, opt board.Options) *fixture {
	t.Helper()
	root := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(root, "taskmd.toml"), nil, 0o644))
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	hs := httptest.NewUnstartedServer(nil)
	if !opt.ReadOnly && opt.Token == "" {
		opt.Token = token
	}
	opt.Addr = hs.Listener.Addr().String()
	srv, err := board.New(ws, opt)
	require.NoError(t, err)
	hs.Config.Handler = srv.Handler()
	hs.Start()
	t.Cleanup(hs.Close)
	return &fixture{root: root, ws: ws, url: hs.URL, srv: srv}
}

// client follows no redirects: the tests look at each answer.
var client = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// get fetches path and returns the status and body.
func (f *fixture) get(t *testing.T, path string) (int, string) {
	t.Helper()
	res, err := client.Get(f.url + path)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res.StatusCode, string(b)
}

// post sends form to path as the board's own page does: the secret cookie
// and the board's Origin. edit changes the request before it goes.
func (f *fixture) post(t *testing.T, path string, form url.Values, edit ...func(*http.Request)) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, f.url+path, strings.NewReader(form.Encode()))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", f.url)
	req.AddCookie(&http.Cookie{Name: board.CookieName, Value: token})
	for _, e := range edit {
		e(req)
	}
	res, err := client.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res, string(b)
}

// files reads every file of the workspace: name -> bytes. The lock
// sidecars under .taskmd/ are left out: taking a lock is no change.
func (f *fixture) files(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(f.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(f.root, p)
		if strings.HasSuffix(rel, ".lock") {
			return nil
		}
		b, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	require.NoError(t, err)
	return out
}

// read returns one file of the workspace.
func (f *fixture) read(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(f.root, filepath.FromSlash(name)))
	require.NoError(t, err)
	return string(b)
}

var ctx = context.Background()
