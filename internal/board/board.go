package board

import (
	"context"
	"crypto/subtle"
	"embed"
	"errors"
	"html/template"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/internal/settings"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/subagent"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/worker"
	"github.com/taskmd/taskmd/workspace"
)

//go:embed templates/*.html
var templateFiles embed.FS

//go:embed static
var staticFiles embed.FS

// CookieName is the cookie that carries the board's secret.
const CookieName = "taskmd_board"

// Options configure a Server.
type Options struct {
	// Token is the per-run secret a person's browser presents (as the
	// cookie, or a token form field) with every action. Required unless
	// ReadOnly.
	Token string
	// ReadOnly serves the pages only: no action route, no forms.
	ReadOnly bool
	// Addr is the address the server listens on ("127.0.0.1:8080"): a
	// request whose Host header is not it (or localhost at its port, for
	// a loopback address) is refused, so that a page of another site
	// whose name resolves to this machine cannot read the board.
	Addr string
	// Now is the clock of the operations (dates of completions), nil for
	// time.Now.
	Now func() time.Time
}

// Server is the board of one workspace: its pages, its actions and its
// live feed.
type Server struct {
	ws     *workspace.Workspace
	opt    Options
	tasks  *subagent.Tasks
	list   *coordinator.List
	plans  *plan.Plans
	pivots *worker.Pivots
	clar   *worker.Clarifications
	tmpl   *template.Template
	md     mdRenderer
	model  model
	hosts  map[string]bool // Host header values accepted; nil: any host at the port
	port   string
	feed   feed
	// heartbeats pushes the agents' pages when an agent goes offline.
	heartbeats heartbeats
}

// New returns the board of ws. It reads the workspace's settings
// (taskmd.toml) as every face does.
func New(ws *workspace.Workspace, opt Options) (*Server, error) {
	if !opt.ReadOnly && opt.Token == "" {
		return nil, &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Msg: "a board that takes actions needs a secret token"}
	}
	cfg, err := workspace.ReadConfig(ws.Root())
	if err != nil {
		return nil, err
	}
	s := &Server{
		ws:     ws,
		opt:    opt,
		tasks:  subagent.New(ws, subagent.WithClock(opt.Now)),
		list:   coordinator.New(ws, coordinator.WithClock(opt.Now)),
		plans:  plan.New(ws, append(settings.Plan(cfg), plan.WithClock(opt.Now))...),
		pivots: worker.New(ws, append(settings.Worker(cfg), worker.WithClock(opt.Now))...),
		clar:   worker.NewClarifications(ws, append(settings.Worker(cfg), worker.WithClock(opt.Now))...),
		md:     newMarkdown(),
	}
	if err := s.hostsOf(opt.Addr); err != nil {
		return nil, err
	}
	s.tmpl, err = template.New("").Funcs(s.funcs()).ParseFS(templateFiles, "templates/*.html")
	if err != nil {
		return nil, err
	}
	// The first read: pages and the live feed start from it.
	if _, err := s.refresh(context.Background()); err != nil {
		return nil, err
	}
	return s, nil
}

// hostsOf sets the Host header values the board answers: addr itself and,
// for a loopback address, 127.0.0.1, localhost and [::1] at its port. An
// unspecified address (0.0.0.0, a person's choice) answers any host at its
// port.
func (s *Server) hostsOf(addr string) error {
	if addr == "" {
		return nil // tests through httptest name no address
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Msg: "the board's address is host:port: " + addr, Err: err}
	}
	s.port = port
	ip := net.ParseIP(host)
	if ip != nil && ip.IsUnspecified() {
		return nil
	}
	s.hosts = map[string]bool{net.JoinHostPort(host, port): true}
	if host == "localhost" || ip != nil && ip.IsLoopback() {
		for _, h := range []string{"127.0.0.1", "localhost", "::1"} {
			s.hosts[net.JoinHostPort(h, port)] = true
		}
	}
	return nil
}

// Handler returns the board's HTTP handler.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.page(s.index))
	mux.HandleFunc("GET /task", s.page(s.taskPage))
	mux.HandleFunc("GET /agents", s.page(s.agentsPage))
	mux.HandleFunc("GET /inbox", s.page(s.inboxPage))
	mux.HandleFunc("GET /graph", s.page(s.graphPage))
	mux.HandleFunc("GET /events", s.events)
	static, _ := fs.Sub(staticFiles, "static")
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	if !s.opt.ReadOnly {
		mux.HandleFunc("POST /task", s.action(s.taskAction))
		mux.HandleFunc("POST /answer", s.action(s.answerAction))
		mux.HandleFunc("POST /pivot", s.action(s.pivotAction))
	}
	return s.guard(mux)
}

// guard checks what every request must pass: the Host header, and the
// secret on the first visit (?token=), which it turns into the cookie.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.hostAllowed(r.Host) {
			http.Error(w, "this board answers only at its own address", http.StatusMisdirectedRequest)
			return
		}
		w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'; form-action 'self'")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "same-origin")
		if s.opt.ReadOnly && r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "this board is read-only", http.StatusMethodNotAllowed)
			return
		}
		if tok := r.URL.Query().Get("token"); tok != "" && r.Method == http.MethodGet {
			if s.opt.ReadOnly || !s.secret(tok) {
				http.Error(w, "wrong token: open the address taskmd board printed", http.StatusForbidden)
				return
			}
			// A browser keeps cookies by host, not by port: the board of
			// another workspace on this host replaces CookieName; the
			// cookie named with the port stays this board's.
			for _, name := range s.cookieNames() {
				http.SetCookie(w, &http.Cookie{Name: name, Value: tok, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
			}
			q := r.URL.Query()
			q.Del("token")
			u := url.URL{Path: r.URL.Path, RawQuery: q.Encode()}
			http.Redirect(w, r, u.String(), http.StatusSeeOther)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (s *Server) hostAllowed(host string) bool {
	if s.port == "" {
		return true
	}
	if _, _, err := net.SplitHostPort(host); err != nil && host != "" && s.port == "80" {
		host = net.JoinHostPort(strings.Trim(host, "[]"), s.port) // a browser leaves the default port out
	}
	if s.hosts != nil {
		return s.hosts[strings.ToLower(host)]
	}
	_, port, err := net.SplitHostPort(host)
	return err == nil && port == s.port
}

// cookieNames are the cookies that carry the secret: CookieName, and
// CookieName_PORT when the board knows its port.
func (s *Server) cookieNames() []string {
	if s.port == "" {
		return []string{CookieName}
	}
	return []string{CookieName, CookieName + "_" + s.port}
}

// secret reports whether tok is the board's secret.
func (s *Server) secret(tok string) bool {
	return s.opt.Token != "" && subtle.ConstantTimeCompare([]byte(tok), []byte(s.opt.Token)) == 1
}

// allowedPost checks an action's credentials: the secret (cookie or token
// field) and an Origin, else a Referer, of the board's own origin.
func (s *Server) allowedPost(r *http.Request) error {
	ok := false
	if tok := r.PostFormValue("token"); tok != "" {
		ok = s.secret(tok)
	} else {
		names := s.cookieNames()
		for _, c := range r.Cookies() {
			ok = ok || slices.Contains(names, c.Name) && s.secret(c.Value)
		}
	}
	if !ok {
		return errForbidden("this action needs the board's secret: open the address taskmd board printed")
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		ref, err := url.Parse(r.Header.Get("Referer"))
		if err != nil || ref.Host == "" {
			return errForbidden("an action must come from the board's own page (no Origin or Referer)")
		}
		origin = ref.Scheme + "://" + ref.Host
	}
	if origin != "http://"+r.Host {
		return errForbidden("an action must come from the board's own page, not " + origin)
	}
	return nil
}

// errForbidden is a refused action's credentials.
type errForbidden string

func (e errForbidden) Error() string { return string(e) }

// refresh brings the model up to date with the files and pushes what
// changed to the live pages.
func (s *Server) refresh(ctx context.Context) (int64, error) {
	u, v, err := s.model.refresh(ctx, s.ws, s.renderDoc)
	if err != nil {
		return 0, err
	}
	if !u.empty() {
		s.feed.publish(v, u)
	}
	return v, nil
}

// notFound is a page's answer for an address that names nothing.
var errNotFound = errors.New("not found")
