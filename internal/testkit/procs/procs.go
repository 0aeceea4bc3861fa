// Package procs starts copies of the running binary that begin work at
// one signal: a test or benchmark that needs several real processes on
// one workspace (locks, claims, git) starts them, waits until each has
// opened what it needs, releases them all at once and reads each one's
// last line. The child side is Ready.
package procs

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Group is a set of started children.
type Group struct {
	children []*child
}

type child struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr strings.Builder
}

// Start runs n copies of this binary (with -test.run=^$, so that a test
// binary runs no test but its TestMain) with env(i) added to the
// environment of the i-th, and waits until each says it is ready. On an
// error every child started is killed.
func Start(n int, env func(i int) []string) (*Group, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	g := &Group{}
	for i := range n {
		c := &child{cmd: exec.Command(exe, "-test.run=^$")}
		c.cmd.Env = append(os.Environ(), env(i)...)
		c.cmd.Stderr = &c.stderr
		if c.in, err = c.cmd.StdinPipe(); err == nil {
			var out io.ReadCloser
			if out, err = c.cmd.StdoutPipe(); err == nil {
				c.out = bufio.NewReader(out)
				err = c.cmd.Start()
			}
		}
		if err != nil {
			g.Kill()
			return nil, err
		}
		g.children = append(g.children, c)
	}
	for i, c := range g.children {
		if line, err := c.out.ReadString('\n'); err != nil || line != "ready\n" {
			g.Kill()
			return nil, fmt.Errorf("child %d did not get ready (%v, %q): %s", i, err, line, c.stderr.String())
		}
	}
	return g, nil
}

// Go releases every child at once.
func (g *Group) Go() error {
	for i, c := range g.children {
		if _, err := io.WriteString(c.in, "go\n"); err != nil {
			return fmt.Errorf("child %d: %w", i, err)
		}
	}
	return nil
}

// Wait waits for every child to end and returns the last line each
// printed (without its line ending); a child that failed is an error with
// what it wrote on standard error.
func (g *Group) Wait() ([]string, error) {
	lines := make([]string, len(g.children))
	errs := make([]error, len(g.children))
	var wg sync.WaitGroup
	for i, c := range g.children {
		wg.Go(func() {
			out, rerr := io.ReadAll(c.out)
			werr := c.cmd.Wait()
			if err := errors.Join(rerr, werr); err != nil {
				errs[i] = fmt.Errorf("child %d: %w: %s", i, err, c.stderr.String())
				return
			}
			all := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
			lines[i] = all[len(all)-1]
		})
	}
	wg.Wait()
	return lines, errors.Join(errs...)
}

// CPU is the processor time the children that ended used, with the
// commands they ran and waited for.
func (g *Group) CPU() time.Duration {
	var d time.Duration
	for _, c := range g.children {
		if st := c.cmd.ProcessState; st != nil {
			d += st.UserTime() + st.SystemTime()
		}
	}
	return d
}

// Kill ends every child at once, for a caller that gives up.
func (g *Group) Kill() {
	for _, c := range g.children {
		if c.cmd.Process != nil {
			c.cmd.Process.Kill()
			c.cmd.Wait()
		}
	}
}

// Ready is the child's side: it says "ready" and waits for the start
// signal.
func Ready() error {
	fmt.Println("ready")
	_, err := bufio.NewReader(os.Stdin).ReadString('\n')
	return err
}
