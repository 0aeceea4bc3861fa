package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxLineLength bounds one inbound message, as the SDK's own stdio
// transport does.
const maxLineLength = mcp.DefaultMaxLineLength

// drainTimeout bounds how long the server keeps answering calls after the
// client closed stdin; a call still waiting then is cancelled.
const drainTimeout = 10 * time.Second

// JSON-RPC 2.0 error codes for input that never reaches the SDK.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// lineTransport is the SDK's stdio transport (newline-delimited JSON-RPC)
// with one difference: a line that is not a JSON-RPC message is answered
// with a JSON-RPC error and skipped. The SDK's transport decodes stdin as one
// JSON stream, so a single malformed line ends the session and cancels every
// call in flight; a client with a bug in one message should get an error for
// that message, not lose the server.
type lineTransport struct {
	in  io.Reader
	out io.Writer
	log *log.Logger
}

// Connect starts the goroutine that screens the input lines and hands the
// valid ones to the SDK's connection through a pipe. Both the SDK and the
// screen write whole messages with one Write on the same locked writer, so
// their output never interleaves.
//
// When the client closes stdin, the SDK would cancel every call in flight
// and answer none of them, so a client that writes its requests and closes
// stdin (a script, a pipe) would get no answers. The pipe to the SDK is
// therefore closed only once every call received has been answered (or
// cancelled by the client), after drainTimeout, or when ctx ends.
func (t *lineTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	calls := newInflight()
	out := &lockedWriter{w: t.out, calls: calls}
	pr, pw := io.Pipe()
	go func() {
		err := screenLines(t.in, pw, out, calls, t.log)
		if err == nil {
			calls.wait(ctx, drainTimeout)
		}
		pw.CloseWithError(err)
	}()
	return (&mcp.IOTransport{Reader: pr, Writer: out}).Connect(ctx)
}

// lockedWriter makes each Write atomic with respect to the others, and
// tells calls which calls were answered.
type lockedWriter struct {
	mu    sync.Mutex
	w     io.Writer
	calls *inflight
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	n, err := l.w.Write(p)
	l.mu.Unlock()
	if err == nil {
		eachResponse(bytes.TrimSpace(p), l.calls.done)
	}
	return n, err
}

// Close does not close stdout: the process may still report on stderr, and
// the client sees the end of the session when the process exits.
func (l *lockedWriter) Close() error { return nil }

// screenLines copies each JSON-RPC message of in to valid, one per line,
// and answers every other non-blank line on errs. It returns nil at the end
// of in (the client closed stdin), or the error that stopped it.
func screenLines(in io.Reader, valid io.Writer, errs io.Writer, calls *inflight, logger *log.Logger) error {
	r := bufio.NewReaderSize(in, 64*1024)
	for {
		line, tooLong, err := readLine(r)
		if tooLong {
			logger.Printf("skipped an input line longer than %d bytes", maxLineLength)
			if werr := writeRPCError(errs, nil, codeInvalidRequest, "message too long"); werr != nil {
				return werr
			}
		} else if msg := bytes.TrimSpace(line); len(msg) > 0 {
			if msgs, id, code, reason := checkMessage(msg); code != 0 {
				logger.Printf("skipped an input line that is not a JSON-RPC message: %s", reason)
				if werr := writeRPCError(errs, id, code, reason); werr != nil {
					return werr
				}
			} else {
				for _, m := range msgs {
					calls.received(m)
				}
				if _, werr := valid.Write(append(msg, '\n')); werr != nil {
					return werr
				}
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// readLine reads one line without its newline. A line over maxLineLength
// is read to its end and dropped, and reported as tooLong.
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > maxLineLength+1 {
			tooLong, line = true, nil
		}
		if !tooLong {
			line = append(line, chunk...)
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return bytes.TrimSuffix(line, []byte("\n")), tooLong, err
		}
	}
}

// checkMessage reads msg as the SDK will: the JSON-RPC message it holds,
// or the messages of a batch. code is not 0 when msg is not something the
// SDK can read, with the reason: invalid JSON (a parse error, id unknown)
// or JSON that is not a JSON-RPC message or batch (an invalid request,
// answered with the request's id when it has one).
func checkMessage(msg []byte) (msgs []jsonrpc.Message, id json.RawMessage, code int, reason string) {
	if !json.Valid(msg) {
		return nil, nil, codeParseError, "parse error: the line is not valid JSON"
	}
	if msg[0] == '[' {
		var batch []json.RawMessage
		if err := json.Unmarshal(msg, &batch); err != nil || len(batch) == 0 {
			return nil, nil, codeInvalidRequest, "invalid request: empty batch"
		}
		for _, raw := range batch {
			m, err := jsonrpc.DecodeMessage(raw)
			if err != nil {
				return nil, nil, codeInvalidRequest, "invalid request in batch: " + err.Error()
			}
			msgs = append(msgs, m)
		}
		return msgs, nil, 0, ""
	}
	m, err := jsonrpc.DecodeMessage(msg)
	if err != nil {
		var withID struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(msg, &withID) == nil && validID(withID.ID) {
			id = withID.ID
		}
		return nil, id, codeInvalidRequest, "invalid request: " + err.Error()
	}
	return []jsonrpc.Message{m}, nil, 0, ""
}

// validID reports whether raw may be echoed as a JSON-RPC id: a string or
// a number.
func validID(raw json.RawMessage) bool {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return false
	}
	_, ok := idOf(v)
	return ok
}

// idOf is the JSON-RPC id of v, a decoded "id" value, as the SDK reads it
// (jsonrpc.MakeID): ok is false for anything but a string or a number.
func idOf(v any) (jsonrpc.ID, bool) {
	id, err := jsonrpc.MakeID(v)
	return id, err == nil && id.IsValid()
}

// writeRPCError writes one JSON-RPC error response. id is null when the
// request's id could not be read, as JSON-RPC 2.0 requires.
func writeRPCError(w io.Writer, id json.RawMessage, code int, message string) error {
	if id == nil {
		id = json.RawMessage("null")
	}
	type rpcError struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	data, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   rpcError        `json:"error"`
	}{"2.0", id, rpcError{code, message}})
	if err != nil {
		return fmt.Errorf("encoding a JSON-RPC error: %w", err)
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// eachResponse calls fn with the id of the JSON-RPC response in data, the
// SDK's output, or of each response of a batch; requests, notifications
// and anything else are ignored. It reads only the "id" and "method" keys,
// as jsonrpc.DecodeMessage tells a response (no "method") and its id: the
// SDK's decoder allocates a 32 KB buffer a message, and this runs on every
// answer the server writes.
func eachResponse(data []byte, fn func(jsonrpc.ID)) {
	if len(data) > 0 && data[0] == '[' {
		var batch []json.RawMessage
		if json.Unmarshal(data, &batch) != nil {
			return
		}
		for _, raw := range batch {
			eachResponse(raw, fn)
		}
		return
	}
	var head struct {
		ID     any             `json:"id"`
		Method json.RawMessage `json:"method"`
	}
	if json.Unmarshal(data, &head) != nil || len(head.Method) > 0 {
		return
	}
	if id, ok := idOf(head.ID); ok {
		fn(id)
	}
}

// inflight is the set of calls received and not yet answered.
type inflight struct {
	mu      sync.Mutex
	ids     map[any]bool
	changed chan struct{} // signalled, without blocking, on every removal
}

func newInflight() *inflight {
	return &inflight{ids: map[any]bool{}, changed: make(chan struct{}, 1)}
}

// received records a call; a cancellation notice ends the call it names,
// which the SDK then leaves unanswered.
func (f *inflight) received(m jsonrpc.Message) {
	req, ok := m.(*jsonrpc.Request)
	if !ok {
		return
	}
	if req.IsCall() {
		f.mu.Lock()
		f.ids[req.ID.Raw()] = true
		f.mu.Unlock()
		return
	}
	if req.Method == "notifications/cancelled" {
		var params struct {
			RequestID any `json:"requestId"`
		}
		if json.Unmarshal(req.Params, &params) == nil {
			if id, err := jsonrpc.MakeID(params.RequestID); err == nil {
				f.done(id)
			}
		}
	}
}

func (f *inflight) done(id jsonrpc.ID) {
	f.mu.Lock()
	delete(f.ids, id.Raw())
	f.mu.Unlock()
	select {
	case f.changed <- struct{}{}:
	default:
	}
}

// wait returns when no call is in flight, after timeout, or when ctx ends.
func (f *inflight) wait(ctx context.Context, timeout time.Duration) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		f.mu.Lock()
		n := len(f.ids)
		f.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-f.changed:
		case <-timer.C:
			return
		case <-ctx.Done():
			return
		}
	}
}
