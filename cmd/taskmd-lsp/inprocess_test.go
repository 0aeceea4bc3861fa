package main

import (
	"context"
	"io"
	"sync"
	"testing"
	"time"
)

// pipeEnd is one end of an in-process connection.
type pipeEnd struct {
	*io.PipeReader
	*io.PipeWriter
}

func (p pipeEnd) Close() error {
	p.PipeReader.Close()
	return p.PipeWriter.Close()
}

// inProcess is a server running in the test's process, over pipes.
type inProcess struct {
	client *rpcClient
	code   chan int
	end    pipeEnd
}

// startInProcess serves cfg's server over pipes; the test's end of them
// is closed at cleanup.
func startInProcess(t testing.TB, cfg config) *inProcess {
	t.Helper()
	clientIn, serverOut := io.Pipe()
	serverIn, clientOut := io.Pipe()
	p := &inProcess{code: make(chan int, 1), end: pipeEnd{clientIn, clientOut}}
	go func() { p.code <- newServer(cfg).serve(context.Background(), pipeEnd{serverIn, serverOut}) }()
	p.client = newRPCClient(t, clientIn, clientOut)
	t.Cleanup(func() {
		p.end.Close()
		select {
		case <-p.code:
		case <-time.After(waitTimeout):
			t.Error("the server did not end when its connection closed")
		}
	})
	return p
}

// exitCode waits for serve to return.
func (p *inProcess) exitCode(t testing.TB) int {
	t.Helper()
	select {
	case code := <-p.code:
		p.code <- code
		return code
	case <-time.After(waitTimeout):
		t.Fatal("the server did not end")
		return -1
	}
}

// manualTimers is an afterFunc whose timers fire when the test says.
type manualTimers struct {
	mu      sync.Mutex
	pending []*manualTimer
}

type manualTimer struct {
	f       func()
	stopped bool
}

func (m *manualTimers) after(_ time.Duration, f func()) func() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	tm := &manualTimer{f: f}
	m.pending = append(m.pending, tm)
	return func() bool {
		m.mu.Lock()
		defer m.mu.Unlock()
		was := !tm.stopped
		tm.stopped = true
		return was
	}
}

// waiting is how many timers wait to fire.
func (m *manualTimers) waiting() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, tm := range m.pending {
		if !tm.stopped {
			n++
		}
	}
	return n
}

// fire fires the timers that wait, as time.AfterFunc does: each on a
// goroutine of its own.
func (m *manualTimers) fire() {
	m.mu.Lock()
	pending := m.pending
	m.pending = nil
	m.mu.Unlock()
	for _, tm := range pending {
		if !tm.stopped {
			go tm.f()
		}
	}
}
