package board_test

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/board"
)

// complete is a completion of setup-oauth as the board's page posts it.
var complete = url.Values{"address": {"/api/auth.md#setup-oauth"}, "seen": {"pending"}, "action": {"start"}, "back": {"/"}}

func TestRefusedActionsChangeNothing(t *testing.T) {
	cases := map[string]func(*http.Request){
		"no secret": func(r *http.Request) { r.Header.Del("Cookie") },
		"wrong secret": func(r *http.Request) {
			r.Header.Del("Cookie")
			r.AddCookie(&http.Cookie{Name: board.CookieName, Value: "guess"})
		},
		"foreign origin": func(r *http.Request) { r.Header.Set("Origin", "http://evil.example") },
		"no origin, foreign referer": func(r *http.Request) {
			r.Header.Del("Origin")
			r.Header.Set("Referer", "http://evil.example/page")
		},
		"no origin, no referer": func(r *http.Request) { r.Header.Del("Origin") },
		"foreign host":          func(r *http.Request) { r.Host = "evil.example:80" },
	}
	for name, edit := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, map[string]string{"docs/api/auth.md": authDoc}, board.Options{})
			before := f.files(t)
			res, _ := f.post(t, "/task", complete, edit)
			assert.GreaterOrEqual(t, res.StatusCode, 400)
			assert.Less(t, res.StatusCode, 500)
			assert.Equal(t, before, f.files(t))
		})
	}
	t.Run("read-only", func(t *testing.T) {
		f := newFixture(t, map[string]string{"docs/api/auth.md": authDoc}, board.Options{ReadOnly: true})
		before := f.files(t)
		for _, path := range []string{"/task", "/answer", "/pivot"} {
			res, _ := f.post(t, path, complete)
			assert.Equal(t, http.StatusMethodNotAllowed, res.StatusCode, path)
		}
		assert.Equal(t, before, f.files(t))
	})
	t.Run("the same request with the secret and the origin goes through", func(t *testing.T) {
		f := newFixture(t, map[string]string{"docs/api/auth.md": authDoc}, board.Options{})
		res, _ := f.post(t, "/task", complete)
		assert.Equal(t, http.StatusSeeOther, res.StatusCode)
		assert.Contains(t, f.read(t, "docs/api/auth.md"), "### Setup OAuth\n\n- Status: in_progress")
	})
	t.Run("token field instead of the cookie, referer instead of origin", func(t *testing.T) {
		f := newFixture(t, map[string]string{"docs/api/auth.md": authDoc}, board.Options{})
		form := url.Values{"token": {token}}
		for k, v := range complete {
			form[k] = v
		}
		res, _ := f.post(t, "/task", form, func(r *http.Request) {
			r.Header.Del("Cookie")
			r.Header.Del("Origin")
			r.Header.Set("Referer", f.url+"/")
		})
		assert.Equal(t, http.StatusSeeOther, res.StatusCode)
	})
}

func TestHostHeaderIsChecked(t *testing.T) {
	f := newFixture(t, map[string]string{"docs/api/auth.md": authDoc}, board.Options{})
	for host, want := range map[string]int{
		"evil.example":                   http.StatusMisdirectedRequest,
		"evil.example:" + port(t, f.url): http.StatusMisdirectedRequest,
		"localhost:" + port(t, f.url):    http.StatusOK,
		"127.0.0.1:" + port(t, f.url):    http.StatusOK,
	} {
		req, err := http.NewRequest(http.MethodGet, f.url+"/", nil)
		require.NoError(t, err)
		req.Host = host
		res, err := client.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		assert.Equal(t, want, res.StatusCode, host)
	}
}

func TestTokenBecomesACookie(t *testing.T) {
	f := newFixture(t, map[string]string{"docs/api/auth.md": authDoc}, board.Options{})
	res, err := client.Get(f.url + "/task?address=/api/auth.md%23setup-oauth&token=" + token)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	assert.Equal(t, "/task?address=%2Fapi%2Fauth.md%23setup-oauth", res.Header.Get("Location"))
	c := res.Cookies()
	require.Len(t, c, 2, "the cookie, and the same named with the board's port")
	assert.Equal(t, board.CookieName, c[0].Name)
	assert.Equal(t, board.CookieName+"_"+port(t, f.url), c[1].Name)
	for _, c := range c {
		assert.Equal(t, token, c.Value)
		assert.True(t, c.HttpOnly)
		assert.Equal(t, http.SameSiteStrictMode, c.SameSite)
		assert.Equal(t, "/", c.Path)
	}

	res, err = client.Get(f.url + "/?token=guess")
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusForbidden, res.StatusCode)
	assert.Empty(t, res.Cookies())
}

func TestNothingOutsideTheRootIsServed(t *testing.T) {
	f := newFixture(t, map[string]string{"docs/api/auth.md": authDoc}, board.Options{})
	for _, page := range []string{
		"/task?address=/../../etc/passwd%23x",
		"/graph?doc=/../../etc/passwd.md",
		"/static/../../board.go",
		"/static/../templates/layout.html",
	} {
		res, err := http.Get(f.url + page) // redirects followed: a cleaned path stays on the board
		require.NoError(t, err)
		b, err := io.ReadAll(res.Body)
		res.Body.Close()
		require.NoError(t, err)
		code, body := res.StatusCode, string(b)
		assert.GreaterOrEqual(t, code, 400, page)
		assert.NotContains(t, body, "root:", page)
		assert.NotContains(t, body, "package board", page)
	}
}

// port is the port of a URL "http://127.0.0.1:PORT".
func port(t *testing.T, u string) string {
	p, err := url.Parse(u)
	require.NoError(t, err)
	return p.Port()
}

// TestUnparsableFormIsRefused: a form larger than the board takes, or with
// a broken escape, is refused as such (INVALID_ARGUMENTS, 400), never
// acted on with what parsed of it, and changes nothing.
func TestUnparsableFormIsRefused(t *testing.T) {
	for name, body := range map[string]string{
		"too large":     "address=%2Fapi%2Fauth.md%23rotate-keys&seen=in_progress&action=complete&back=%2F&note=" + strings.Repeat("x", 2<<20),
		"broken escape": "address=%2Fapi%2Fauth.md%23rotate-keys&seen=in_progress&action=complete&back=%2F&note=done&x=%zz",
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, map[string]string{"docs/api/auth.md": authDoc}, board.Options{})
			before := f.files(t)
			req, err := http.NewRequest(http.MethodPost, f.url+"/task", strings.NewReader(body))
			require.NoError(t, err)
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("Origin", f.url)
			req.AddCookie(&http.Cookie{Name: board.CookieName, Value: token})
			res, err := client.Do(req)
			require.NoError(t, err)
			page, err := io.ReadAll(res.Body)
			res.Body.Close()
			require.NoError(t, err)
			assert.Equal(t, http.StatusBadRequest, res.StatusCode)
			assert.Contains(t, string(page), `data-error-code="INVALID_ARGUMENTS"`)
			assert.Contains(t, string(page), "form")
			assert.Equal(t, before, f.files(t))
		})
	}
}

// TestTwoBoardsOnOneHost: a browser keeps cookies by host, not by port;
// a person who opened the board of another workspace on the same machine
// since still acts on the first one's page.
func TestTwoBoardsOnOneHost(t *testing.T) {
	a := newFixture(t, map[string]string{"docs/api/auth.md": authDoc}, board.Options{})
	b := newFixture(t, map[string]string{"docs/api/auth.md": authDoc}, board.Options{Token: "the-other-board-s-secret"})
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	browser := &http.Client{Jar: jar}
	for _, open := range []string{a.url + "/?token=" + token, b.url + "/?token=the-other-board-s-secret"} {
		res, err := browser.Get(open)
		require.NoError(t, err)
		res.Body.Close()
		require.Equal(t, http.StatusOK, res.StatusCode)
	}
	for _, f := range []*fixture{a, b} {
		req, err := http.NewRequest(http.MethodPost, f.url+"/task", strings.NewReader(complete.Encode()))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", f.url)
		res, err := browser.Do(req)
		require.NoError(t, err)
		page, err := io.ReadAll(res.Body)
		res.Body.Close()
		require.NoError(t, err)
		assert.NotContains(t, string(page), `data-error-code="FORBIDDEN"`, f.url)
		assert.Contains(t, f.read(t, "docs/api/auth.md"), "### Setup OAuth\n\n- Status: in_progress", f.url)
	}
}

// TestBoardOnPort80: a browser leaves the default port out of the Host
// header and the Origin ("127.0.0.1", "http://127.0.0.1"): a board on
// 127.0.0.1:80 answers them, and still refuses another host.
func TestBoardOnPort80(t *testing.T) {
	f := newFixture(t, map[string]string{"docs/api/auth.md": authDoc}, board.Options{})
	srv, err := board.New(f.ws, board.Options{Token: token, Addr: "127.0.0.1:80"})
	require.NoError(t, err)
	hs := httptest.NewServer(srv.Handler()) // the real port 80 needs privileges: the Host header is what counts
	t.Cleanup(hs.Close)
	for host, want := range map[string]int{"127.0.0.1": http.StatusOK, "localhost": http.StatusOK, "127.0.0.1:80": http.StatusOK, "evil.example": http.StatusMisdirectedRequest} {
		req, err := http.NewRequest(http.MethodGet, hs.URL+"/", nil)
		require.NoError(t, err)
		req.Host = host
		res, err := client.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		assert.Equal(t, want, res.StatusCode, host)
	}
	req, err := http.NewRequest(http.MethodPost, hs.URL+"/task", strings.NewReader(complete.Encode()))
	require.NoError(t, err)
	req.Host = "127.0.0.1"
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "http://127.0.0.1")
	req.AddCookie(&http.Cookie{Name: board.CookieName, Value: token})
	res, err := client.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusSeeOther, res.StatusCode)
	assert.Contains(t, f.read(t, "docs/api/auth.md"), "### Setup OAuth\n\n- Status: in_progress")
}

// A form returns only to a page of the board: a back field that a browser
// would read as another host, with a backslash for a slash or with a
// control character, returns to the board's first page.
func TestBackStaysOnTheBoard(t *testing.T) {
	for back, want := range map[string]string{
		"/inbox":                "/inbox",
		"/task?address=%2Fa.md": "/task?address=%2Fa.md",
		"//evil.example/":       "/",
		"/\\evil.example/":      "/",
		"/\\/evil.example/":     "/",
		"http://evil.example/":  "/",
		"/\t/evil.example/":     "/",
		"evil.example":          "/",
	} {
		f := newFixture(t, map[string]string{"docs/api/auth.md": authDoc}, board.Options{})
		form := url.Values{}
		for k, v := range complete {
			form[k] = v
		}
		form.Set("back", back)
		res, _ := f.post(t, "/task", form)
		require.Equal(t, http.StatusSeeOther, res.StatusCode, "%q", back)
		assert.Equal(t, want, res.Header.Get("Location"), "%q", back)
	}
}
