package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/textproto"
	"strconv"
	"sync"
	"testing"
	"time"
)

// rpcClient is the editor's end of a connection, written here from the
// protocol's wire format and nothing of the server's: Content-Length
// framing, JSON-RPC 2.0 messages, encoding/json.
type rpcClient struct {
	t testing.TB
	w io.Writer

	wmu sync.Mutex // one message at a time on w

	mu       sync.Mutex
	nextID   int
	pending  map[string]chan wireMessage
	received []wireMessage // notifications and requests from the server, in order
	wake     chan struct{} // closed when a message is received
	handlers map[string]func(params json.RawMessage) (any, *wireError)
	readErr  error
	done     chan struct{}
}

type wireMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *wireError      `json:"error,omitempty"`
}

type wireError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *wireError) Error() string { return fmt.Sprintf("%d: %s", e.Code, e.Message) }

// waitTimeout bounds every wait for the server.
const waitTimeout = 20 * time.Second

func newRPCClient(t testing.TB, r io.Reader, w io.Writer) *rpcClient {
	c := &rpcClient{t: t, w: w, pending: map[string]chan wireMessage{}, wake: make(chan struct{}),
		handlers: map[string]func(json.RawMessage) (any, *wireError){}, done: make(chan struct{})}
	go c.read(bufio.NewReader(r))
	return c
}

func (c *rpcClient) read(r *bufio.Reader) {
	defer close(c.done)
	tp := textproto.NewReader(r)
	for {
		header, err := tp.ReadMIMEHeader()
		if err != nil {
			c.fail(err)
			return
		}
		n, err := strconv.Atoi(header.Get("Content-Length"))
		if err != nil {
			c.fail(fmt.Errorf("bad Content-Length %q", header.Get("Content-Length")))
			return
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			c.fail(err)
			return
		}
		var m wireMessage
		if err := json.Unmarshal(body, &m); err != nil {
			c.fail(fmt.Errorf("%v: %s", err, body))
			return
		}
		c.dispatch(m)
	}
}

func (c *rpcClient) fail(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.readErr = err
	for id, ch := range c.pending {
		close(ch)
		delete(c.pending, id)
	}
	close(c.wake)
	c.wake = make(chan struct{})
}

func (c *rpcClient) dispatch(m wireMessage) {
	c.mu.Lock()
	if m.Method == "" { // a response
		ch := c.pending[string(m.ID)]
		delete(c.pending, string(m.ID))
		c.mu.Unlock()
		if ch != nil {
			ch <- m
		}
		return
	}
	c.received = append(c.received, m)
	close(c.wake)
	c.wake = make(chan struct{})
	handler := c.handlers[m.Method]
	c.mu.Unlock()
	if m.ID == nil {
		return
	}
	var result any
	var rerr *wireError
	if handler != nil {
		result, rerr = handler(m.Params)
	} else {
		rerr = &wireError{Code: -32601, Message: "no handler for " + m.Method}
	}
	resp := map[string]any{"jsonrpc": "2.0", "id": m.ID}
	if rerr != nil {
		resp["error"] = rerr
	} else {
		resp["result"] = result
	}
	c.send(resp)
}

// handle answers the server's requests of method with fn.
func (c *rpcClient) handle(method string, fn func(params json.RawMessage) (any, *wireError)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.handlers[method] = fn
}

func (c *rpcClient) send(v any) {
	body, err := json.Marshal(v)
	if err != nil {
		c.t.Errorf("marshal: %v", err)
		return
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		c.t.Logf("write %s: %v", body, err)
	}
}

// call sends a request and decodes its result into result (unless nil);
// the error is a *wireError for an error response.
func (c *rpcClient) call(method string, params, result any) error {
	c.mu.Lock()
	c.nextID++
	id := strconv.Itoa(c.nextID)
	ch := make(chan wireMessage, 1)
	c.pending[id] = ch
	c.mu.Unlock()
	msg := map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "method": method}
	if params != nil {
		msg["params"] = params
	}
	c.send(msg)
	select {
	case m, ok := <-ch:
		if !ok {
			return fmt.Errorf("%s: the connection ended: %v", method, c.readErr)
		}
		if m.Error != nil {
			return m.Error
		}
		if result != nil {
			return json.Unmarshal(m.Result, result)
		}
		return nil
	case <-time.After(waitTimeout):
		return fmt.Errorf("%s: no answer in %s", method, waitTimeout)
	}
}

func (c *rpcClient) notify(method string, params any) {
	msg := map[string]any{"jsonrpc": "2.0", "method": method}
	if params != nil {
		msg["params"] = params
	}
	c.send(msg)
}

// await returns the params of the first message from the server, from
// the n-th on, of method that match accepts, and its index; it fails the
// test after waitTimeout.
func (c *rpcClient) await(method string, from int, match func(params json.RawMessage) bool) (json.RawMessage, int) {
	c.t.Helper()
	deadline := time.After(waitTimeout)
	for {
		c.mu.Lock()
		for i := from; i < len(c.received); i++ {
			if m := c.received[i]; m.Method == method && (match == nil || match(m.Params)) {
				c.mu.Unlock()
				return m.Params, i
			}
		}
		from = len(c.received)
		wake, err := c.wake, c.readErr
		c.mu.Unlock()
		if err != nil {
			c.t.Fatalf("waiting for %s: the connection ended: %v", method, err)
		}
		select {
		case <-wake:
		case <-deadline:
			c.t.Fatalf("no %s from the server in %s", method, waitTimeout)
		}
	}
}

// count is the number of messages received from the server so far.
func (c *rpcClient) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.received)
}
