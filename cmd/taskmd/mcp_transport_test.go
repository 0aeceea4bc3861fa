package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// screenLines passes JSON-RPC messages on, one per line, and answers
// everything else; the end of the input is a clean end.
func TestScreenLines(t *testing.T) {
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	huge := `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":"` + strings.Repeat("a", maxLineLength) + `"}}`
	tests := []struct {
		name      string
		in        string
		wantValid string
		wantErrs  string
	}{
		{"one message", ping + "\n", ping + "\n", ""},
		{"no final newline", ping, ping + "\n", ""},
		{"CRLF and blank lines", "\r\n" + ping + "\r\n\n  \n", ping + "\n", ""},
		{"a batch", "[" + ping + "]\n", "[" + ping + "]\n", ""},
		{"junk between messages", ping + "\nnope\n" + ping + "\n", ping + "\n" + ping + "\n",
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: the line is not valid JSON"}}` + "\n"},
		{"string id echoed", `{"jsonrpc":"2.0","id":"a","method":[]}` + "\n", "",
			`"id":"a","error":{"code":-32600`},
		{"object id not echoed", `{"jsonrpc":"2.0","id":{},"method":"x"}` + "\n", "",
			`"id":null,"error":{"code":-32600`},
		{"line over the limit", huge + "\n" + ping + "\n", ping + "\n",
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"message too long"}}` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var valid, errs, logged bytes.Buffer
			err := screenLines(strings.NewReader(tt.in), &valid, &errs, newInflight(), log.New(&logged, "", 0))
			require.NoError(t, err)
			assert.Equal(t, tt.wantValid, valid.String())
			if tt.wantErrs == "" {
				assert.Empty(t, errs.String())
				assert.Empty(t, logged.String())
			} else {
				assert.Contains(t, errs.String(), tt.wantErrs)
				assert.Contains(t, logged.String(), "skipped")
			}
		})
	}
}

// A read error other than the end of the input is returned, so that the
// session ends with it.
func TestScreenLinesReadError(t *testing.T) {
	in := io.MultiReader(strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n"), errReader{})
	var valid bytes.Buffer
	err := screenLines(in, &valid, io.Discard, newInflight(), log.New(io.Discard, "", 0))
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
	assert.Equal(t, `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n", valid.String())
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, io.ErrUnexpectedEOF }

// The calls in flight are those received and neither answered nor
// cancelled by the client; wait returns once there are none.
func TestInflight(t *testing.T) {
	calls := newInflight()
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`,
		`{"jsonrpc":"2.0","id":"b","method":"tools/call"}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	} {
		receive(t, calls, line)
	}
	require.Len(t, calls.ids, 2)

	waited := make(chan struct{})
	go func() {
		calls.wait(context.Background(), time.Hour)
		close(waited)
	}()
	out := &lockedWriter{w: io.Discard, calls: calls}
	_, err := out.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}` + "\n"))
	require.NoError(t, err)
	receive(t, calls, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"b"}}`)
	<-waited // an hour's timeout: returning at all means both calls ended
	assert.Empty(t, calls.ids)
}

// receive hands the messages of line to calls as screenLines does.
func receive(t *testing.T, calls *inflight, line string) {
	t.Helper()
	msgs, _, code, reason := checkMessage([]byte(line))
	require.Zero(t, code, reason)
	for _, m := range msgs {
		calls.received(m)
	}
}

// TestEachResponse: the responses the writer finds in the server's output,
// and their ids, are those jsonrpc.DecodeMessage finds, batches included.
func TestEachResponse(t *testing.T) {
	for _, data := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"id\": 7}"}]}}`,
		`{"jsonrpc":"2.0","id":"a-1","result":{}}`,
		`{"jsonrpc":"2.0","id":12345678901,"error":{"code":-32602,"message":"bad"}}`,
		`{"jsonrpc":"2.0","id":2,"method":"sampling/createMessage","params":{}}`,
		`{"jsonrpc":"2.0","method":"notifications/message","params":{"id":3}}`,
		`{"jsonrpc":"2.0","result":{}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`,
		`[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","method":"notifications/progress"},{"jsonrpc":"2.0","id":"b","result":{}}]`,
		`not json`,
	} {
		var want, got []jsonrpc.ID
		for _, raw := range batchOf(data) {
			if m, err := jsonrpc.DecodeMessage(raw); err == nil {
				if res, ok := m.(*jsonrpc.Response); ok {
					want = append(want, res.ID)
				}
			}
		}
		eachResponse([]byte(data), func(id jsonrpc.ID) { got = append(got, id) })
		assert.Equal(t, want, got, data)
	}
}

// batchOf is the messages of data: its members when it is a batch, else
// data itself.
func batchOf(data string) []json.RawMessage {
	var batch []json.RawMessage
	if strings.HasPrefix(data, "[") && json.Unmarshal([]byte(data), &batch) == nil {
		return batch
	}
	return []json.RawMessage{json.RawMessage(data)}
}
