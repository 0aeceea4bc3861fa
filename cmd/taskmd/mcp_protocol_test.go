package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/workspace"
)

// These tests speak raw newline-delimited JSON-RPC to the server process,
// as a client with bugs would, and check the process as an operator sees
// it: what is on stdout, stderr and the exit status.

// rawServer is a server process driven through its stdin and stdout pipes.
type rawServer struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *lockedBuffer
}

func startRaw(t *testing.T, root string) *rawServer {
	t.Helper()
	s := &rawServer{t: t, stderr: &lockedBuffer{}}
	s.cmd = exec.Command(binary, "mcp", "-root", root, "--toolsets", "all")
	s.cmd.Stderr = s.stderr
	var err error
	s.stdin, err = s.cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := s.cmd.StdoutPipe()
	require.NoError(t, err)
	s.stdout = bufio.NewReader(stdout)
	require.NoError(t, s.cmd.Start())
	t.Cleanup(func() {
		if s.cmd.ProcessState == nil { // a failed test left it running
			_ = s.cmd.Process.Kill()
			_ = s.cmd.Wait()
		}
		if t.Failed() {
			t.Logf("server stderr:\n%s", s.stderr.String())
		}
	})
	return s
}

const initializeLine = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"v0"}}}`

// send writes lines to the server's stdin; the first ones should be
// initializeLine and initializedLine.
func (s *rawServer) send(lines ...string) {
	s.t.Helper()
	for _, line := range lines {
		_, err := io.WriteString(s.stdin, line+"\n")
		require.NoError(s.t, err)
	}
}

const initializedLine = `{"jsonrpc":"2.0","method":"notifications/initialized"}`

func callLine(id int, tool string, args map[string]any) string {
	data, err := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "id": id, "method": "tools/call",
		"params": map[string]any{"name": tool, "arguments": args},
	})
	if err != nil {
		panic(err)
	}
	return string(data)
}

// rpcMessage is one line of the server's stdout.
type rpcMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  *struct {
		IsError bool `json:"isError"`
	} `json:"result"`
	Error *struct {
		Code int `json:"code"`
	} `json:"error"`
}

// readAll reads stdout to its end: every line must be a JSON-RPC 2.0
// message, since stdout is the protocol stream and nothing else.
func (s *rawServer) readAll() []rpcMessage {
	s.t.Helper()
	var msgs []rpcMessage
	for {
		line, err := s.stdout.ReadBytes('\n')
		if len(line) > 0 {
			var m rpcMessage
			require.NoError(s.t, json.Unmarshal(line, &m), "stdout line is not JSON: %q", line)
			require.Equal(s.t, "2.0", m.JSONRPC, "stdout line is not JSON-RPC: %q", line)
			msgs = append(msgs, m)
		}
		if errors.Is(err, io.EOF) {
			return msgs
		}
		require.NoError(s.t, err)
	}
}

// wait waits for the process to exit, killing it (and failing) if it has
// not after a minute, and returns its exit code.
func (s *rawServer) wait() int {
	s.t.Helper()
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case err := <-done:
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return exit.ExitCode()
		}
		require.NoError(s.t, err)
		return 0
	case <-time.After(time.Minute):
		_ = s.cmd.Process.Kill()
		<-done
		s.t.Fatal("the server did not exit")
		return -1
	}
}

// byID indexes responses by their id ("null" for errors about a request
// whose id could not be read).
func byID(msgs []rpcMessage) map[string]rpcMessage {
	out := map[string]rpcMessage{}
	for _, m := range msgs {
		out[string(m.ID)] = m
	}
	return out
}

// A line that is not a JSON-RPC message gets a JSON-RPC error and is
// skipped; the session goes on, the calls before and after it are answered,
// and the process exits 0 when the client closes stdin.
func TestMalformedLines(t *testing.T) {
	tests := []struct {
		name     string
		line     string
		wantID   string
		wantCode int
	}{
		{"not JSON", "this is not json", "null", -32700},
		{"truncated message", `{"jsonrpc":"2.0","id":9,"method":"tools/call"`, "null", -32700},
		{"JSON, not JSON-RPC", `{"hello":"world"}`, "null", -32600},
		{"method of the wrong type", `{"jsonrpc":"2.0","id":7,"method":5}`, "7", -32600},
		{"empty batch", `[]`, "null", -32600},
		{"batch of junk", `[1,2]`, "null", -32600},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := startRaw(t, t.TempDir())
			s.send(initializeLine, initializedLine, tt.line,
				callLine(2, "view_coordinator_task", map[string]any{}))
			require.NoError(t, s.stdin.Close())
			msgs := byID(s.readAll())
			assert.Equal(t, 0, s.wait())

			require.Len(t, msgs, 3, "responses: %v", msgs)
			for _, id := range []string{"1", "2"} {
				if assert.Contains(t, msgs, id) {
					assert.Nil(t, msgs[id].Error, "call %s", id)
					if assert.NotNil(t, msgs[id].Result, "call %s", id) {
						assert.False(t, msgs[id].Result.IsError, "call %s", id)
					}
				}
			}
			if assert.Contains(t, msgs, tt.wantID) && assert.NotNil(t, msgs[tt.wantID].Error) {
				assert.Equal(t, tt.wantCode, msgs[tt.wantID].Error.Code)
			}
			assert.Contains(t, s.stderr.String(), "skipped an input line")
		})
	}
}

// A client that writes its calls and closes stdin at once (a script, a
// pipe) gets every answer, and the changes are on disk, before the server
// exits. (The calls run concurrently, so they are independent here.)
func TestCallsAnsweredAfterStdinCloses(t *testing.T) {
	root := t.TempDir()
	s := startRaw(t, root)
	s.send(initializeLine, initializedLine,
		callLine(2, "subagent_task", map[string]any{
			"document":   "/api/auth.md",
			"operations": []any{create("Sign tokens", "- Status: pending\n\nRS256.")},
		}),
		callLine(3, "view_coordinator_task", map[string]any{}))
	require.NoError(t, s.stdin.Close())
	msgs := byID(s.readAll())
	assert.Equal(t, 0, s.wait())
	for _, id := range []string{"1", "2", "3"} {
		if assert.Contains(t, msgs, id) && assert.NotNil(t, msgs[id].Result, "call %s", id) {
			assert.False(t, msgs[id].Result.IsError, "call %s", id)
		}
	}
	assert.Contains(t, filetest.Read(t, root, "docs/api/auth.md"), "### Sign tokens")
}

// SIGTERM ends the server at once with status 0, even while a call waits
// for a lock that another process holds; that call gives up and changes
// nothing.
func TestSIGTERMWhileWaitingForALock(t *testing.T) {
	root := newRoot(t, map[string]string{"docs/load.md": pendingDocument(2)})
	before := filetest.Snapshot(t, root)
	release, held := holdLock(t, root, "docs/load.md")
	<-held

	s := startRaw(t, root)
	s.send(initializeLine, initializedLine, callLine(2, "complete_subagent_task", map[string]any{
		"document": "/load.md#task-0", "note": "done",
	}))
	line, err := s.stdout.ReadBytes('\n') // the initialize response: the session is up
	require.NoError(t, err)
	require.Contains(t, string(line), `"id":1`)
	require.NoError(t, s.cmd.Process.Signal(syscall.SIGTERM))
	assert.Equal(t, 0, s.wait())

	release()
	assert.Equal(t, before, filetest.Snapshot(t, root))
}

// holdLock holds the workspace lock of name from this process until
// release is called; held is closed once the lock is taken.
func holdLock(t *testing.T, root, name string) (release func(), held <-chan struct{}) {
	t.Helper()
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	locked, unlock, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		done <- ws.Lock(context.Background(), []string{name}, func(*workspace.Tx) error {
			close(locked)
			<-unlock
			return nil
		})
	}()
	return func() {
		close(unlock)
		require.NoError(t, <-done)
	}, locked
}

// -root must name an existing directory; otherwise the server says why on
// stderr, writes nothing on stdout and exits 3 (missing: not found) or 1.
func TestRootMustBeADirectory(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file.md")
	require.NoError(t, os.WriteFile(file, []byte("# x\n"), 0o644))
	tests := []struct {
		name, root, want string
		exit             int
	}{
		{"missing", filepath.Join(dir, "missing"), "does not exist", exitNotFound},
		{"a file", file, "is not a directory", exitOther},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(binary, "mcp", "-root", tt.root)
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			var exit *exec.ExitError
			require.True(t, errors.As(err, &exit), "%v", err)
			assert.Equal(t, tt.exit, exit.ExitCode())
			assert.Empty(t, stdout.String())
			assert.Contains(t, stderr.String(), tt.want)
			assert.Contains(t, stderr.String(), fmt.Sprint(tt.root))
		})
	}
}
