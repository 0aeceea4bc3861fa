package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"runtime"
	"time"

	"github.com/taskmd/taskmd/internal/board"
	"github.com/taskmd/taskmd/taskdoc"
)

// cmdBoard serves the web board of the workspace until SIGINT or SIGTERM
// (then exits 0). Its first line on stdout is the address to open, with
// the run's secret.
func cmdBoard(e *env, args []string) error {
	fs := e.flags("board")
	addr := fs.String("addr", "127.0.0.1:0", "")
	readOnly := fs.Bool("read-only", false, "")
	open := fs.Bool("open", false, "")
	if _, err := parseN(fs, args); err != nil {
		return err
	}
	ws, err := e.workspace()
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Err: err, Msg: fmt.Sprintf("the board cannot listen on %s: %v; give another --addr", *addr, err)}
	}
	defer ln.Close()
	opt := board.Options{ReadOnly: *readOnly, Addr: ln.Addr().String(), Now: e.now}
	if !opt.ReadOnly {
		var b [24]byte
		if _, err := rand.Read(b[:]); err != nil {
			return err
		}
		opt.Token = hex.EncodeToString(b[:])
	}
	srv, err := board.New(ws, opt)
	if err != nil {
		return err
	}
	ctx, stop := context.WithCancel(e.ctx)
	defer stop()
	watchErr := make(chan error, 1)
	go func() { watchErr <- srv.Watch(ctx) }()
	url := "http://" + ln.Addr().String() + "/"
	if opt.Token != "" {
		url += "?token=" + opt.Token
	}
	fmt.Fprintln(e.stdout, url)
	if *open {
		openURL(e, url)
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second}
	e.signalEnds = true
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case <-e.ctx.Done():
	case err = <-served:
	case err = <-watchErr:
	}
	stop()
	shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	hs.Shutdown(shut)
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return &taskdoc.Error{Code: taskdoc.CodeIO, Err: err, Msg: "the board stopped: " + err.Error()}
	}
	return nil
}

// openURL opens url in the person's browser when a program for it is on
// PATH; a failure is a line on stderr, the board goes on.
func openURL(e *env, url string) {
	name := "xdg-open"
	if runtime.GOOS == "darwin" {
		name = "open"
	}
	path, err := exec.LookPath(name)
	if err == nil {
		err = exec.Command(path, url).Start()
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "taskmd board: could not open a browser (%v): open the address above\n", err)
	}
}
