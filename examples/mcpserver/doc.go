// Command mcpserver serves taskmd's task tools to AI agents over the Model
// Context Protocol, on stdin/stdout:
//
//	go run ./examples/mcpserver -root DIR
//
// DIR is a taskmd workspace: knowledge-graph documents in docs/, the
// coordinator list in coordinator/active.md, workflow texts in workflows/,
// finished coordinator lists in archived/coordinator/. The server is
// mcptools.NewServer with every group of tools; package mcptools documents
// the tools, their results and errors. A Go MCP server that wants the
// tools next to its own calls mcptools.Register instead of running this
// command.
//
// # Protocol
//
// The server speaks newline-delimited JSON-RPC on stdin and stdout, and
// writes nothing else to stdout: logs go to stderr. A line that is not a
// JSON-RPC message gets a JSON-RPC error (-32700 parse error, -32600
// invalid request) and is skipped; the session goes on. When the client
// closes stdin, the calls already received are answered (for up to ten
// seconds) before the server exits with status 0. SIGINT and SIGTERM end it
// at once, with status 0: calls in flight see their context cancelled,
// which stops a wait for a lock, and an update is written whole or not at
// all. A -root that is missing or not a directory is reported on stderr
// with exit status 1.
package main
