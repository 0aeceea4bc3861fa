package agent_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/agent"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

var ctx = context.Background()

func TestLifecycle(t *testing.T) {
	c := newClock()
	r, root := setup(t, c)

	a, err := r.Register(ctx, agent.Registration{
		Name: "worker-1", Runtime: "claude_code",
		Capabilities:  []string{"typescript", "testing"},
		WorkspacePath: "/Users/travis/projects/myapp",
		Metadata:      map[string]string{"model": "opus"},
	})
	require.NoError(t, err)
	assert.Regexp(t, `^ag_[0-9a-f]{12}$`, a.ID)
	assert.Equal(t, agent.Agent{
		ID: a.ID, Name: "worker-1", Runtime: "claude_code", Role: "worker",
		Capabilities: []string{"typescript", "testing"}, WorkspacePath: "/Users/travis/projects/myapp",
		Metadata: map[string]string{"model": "opus"}, Registered: t0, LastHeartbeat: t0, Online: true,
	}, a)
	got, err := r.Get(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, a, got, "Get reads back what Register returned")

	c.Add(20 * time.Second)
	next, err := r.Heartbeat(ctx, a.ID, agent.HeartbeatInfo{CurrentTask: "/api/auth.md#implement-jwt-signing", Status: "busy"})
	require.NoError(t, err)
	assert.Equal(t, 30*time.Second, next)
	got, err = r.Get(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, t0, got.Registered)
	assert.Equal(t, t0.Add(20*time.Second), got.LastHeartbeat)
	assert.Equal(t, "/api/auth.md#implement-jwt-signing", got.CurrentTask)
	assert.Equal(t, "busy", got.Status)
	assert.True(t, got.Online)

	list, err := r.List(ctx, agent.ListOptions{})
	require.NoError(t, err)
	assert.Equal(t, []agent.Agent{got}, list)

	require.NoError(t, r.Unregister(ctx, a.ID))
	_, err = r.Get(ctx, a.ID)
	assert.ErrorIs(t, err, agent.ErrAgentNotFound)
	_, err = r.Heartbeat(ctx, a.ID, agent.HeartbeatInfo{})
	assert.ErrorIs(t, err, agent.ErrAgentNotFound, "an unregistered agent is not found")
	err = r.Unregister(ctx, a.ID)
	assert.ErrorIs(t, err, agent.ErrAgentNotFound, "a second unregister is AGENT_NOT_FOUND")
	assert.Contains(t, err.Error(), a.ID)
	list, err = r.List(ctx, agent.ListOptions{})
	require.NoError(t, err)
	assert.Empty(t, list)
	assert.Empty(t, withPrefix(files(t, root), ".taskmd/agents"), "the agent's file is gone")
}

// The file is the documented format, and reads back whatever the
// registry's defaults.
func TestFileFormat(t *testing.T) {
	c := newClock()
	r, root := setup(t, c)
	_, err := r.Register(ctx, agent.Registration{
		ID: "ag_a1b2c3d4e5f6", Name: " worker-1 ", Runtime: "claude_code", Role: "reviewer",
		Capabilities: []string{"go"}, Metadata: map[string]string{"b": "2", "a": "1"},
	})
	require.NoError(t, err)
	c.Add(1500 * time.Millisecond)
	_, err = r.Heartbeat(ctx, "ag_a1b2c3d4e5f6", agent.HeartbeatInfo{CurrentTask: "/a.md#x", Status: "busy"})
	require.NoError(t, err)

	data, err := os.ReadFile(filepath.Join(root, ".taskmd", "agents", "ag_a1b2c3d4e5f6.json"))
	require.NoError(t, err)
	assert.Equal(t, `{
  "id": "ag_a1b2c3d4e5f6",
  "name": "worker-1",
  "runtime": "claude_code",
  "role": "reviewer",
  "capabilities": [
    "go"
  ],
  "metadata": {
    "a": "1",
    "b": "2"
  },
  "registered": "2025-10-14T15:30:45Z",
  "last_heartbeat": "2025-10-14T15:30:46.5Z",
  "current_task": "/a.md#x",
  "status": "busy"
}
`, string(data))

	// A file written by hand (or by a later version, with a field this one
	// does not know), in another time zone, reads as well.
	hand := `{"id":"ag_hand","name":"n","runtime":"rt","role":"worker","registered":"2025-10-14T17:30:45+02:00","last_heartbeat":"2025-10-14T17:30:45+02:00","lease":7}`
	require.NoError(t, os.WriteFile(filepath.Join(root, ".taskmd", "agents", "ag_hand.json"), []byte(hand), 0o644))
	got, err := r.Get(ctx, "ag_hand")
	require.NoError(t, err)
	assert.Equal(t, t0, got.Registered, "in UTC")
	assert.True(t, got.Online)
}

func TestOnlineAndOffline(t *testing.T) {
	c := newClock()
	r, _ := setup(t, c)
	a, err := r.Register(ctx, worker("w"))
	require.NoError(t, err)
	b, err := r.Register(ctx, worker("other"))
	require.NoError(t, err)

	assert.Equal(t, t0.Add(time.Minute), r.OnlineUntil(a))
	assert.True(t, r.Online(a, t0.Add(-time.Hour)), "a clock behind the heartbeat's says online")
	assert.True(t, r.Online(a, t0.Add(time.Minute)), "online for the whole timeout")
	assert.False(t, r.Online(a, t0.Add(time.Minute+time.Nanosecond)))
	assert.False(t, r.Online(agent.Agent{}, t0), "an agent never registered is offline")

	online := func() []string {
		t.Helper()
		list, err := r.List(ctx, agent.ListOptions{OnlineOnly: true})
		require.NoError(t, err)
		var ids []string
		for _, x := range list {
			assert.True(t, x.Online)
			ids = append(ids, x.ID)
		}
		return ids
	}
	c.Add(45 * time.Second)
	_, err = r.Heartbeat(ctx, a.ID, agent.HeartbeatInfo{})
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{a.ID, b.ID}, online())

	c.Add(15*time.Second + time.Nanosecond) // b: 60 s and a nanosecond since it registered
	assert.Equal(t, []string{a.ID}, online())
	got, err := r.Get(ctx, b.ID)
	require.NoError(t, err)
	assert.False(t, got.Online)
	all, err := r.List(ctx, agent.ListOptions{})
	require.NoError(t, err)
	assert.Len(t, all, 2, "offline agents stay listed")

	c.Add(time.Hour)
	assert.Empty(t, online())
	_, err = r.Heartbeat(ctx, b.ID, agent.HeartbeatInfo{})
	require.NoError(t, err, "an agent that went offline may come back")
	assert.Equal(t, []string{b.ID}, online())
}

func TestOptions(t *testing.T) {
	c := newClock()
	tests := []struct {
		name     string
		opts     []agent.Option
		timeout  time.Duration
		interval time.Duration
	}{
		{"defaults", nil, 60 * time.Second, 30 * time.Second},
		{"timeout", []agent.Option{agent.WithTimeout(10 * time.Minute)}, 10 * time.Minute, 30 * time.Second},
		{"interval", []agent.Option{agent.WithHeartbeatInterval(5 * time.Second)}, 60 * time.Second, 5 * time.Second},
		{"advice at most half the timeout", []agent.Option{agent.WithTimeout(20 * time.Second)}, 20 * time.Second, 10 * time.Second},
		{"zero and negative ignored", []agent.Option{agent.WithTimeout(0), agent.WithHeartbeatInterval(-time.Second)}, 60 * time.Second, 30 * time.Second},
		{"zero option and nil clock ignored", []agent.Option{{}, agent.WithClock(nil)}, 60 * time.Second, 30 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, _ := setup(t, c, tt.opts...)
			a, err := r.Register(ctx, worker("w"))
			require.NoError(t, err)
			assert.Equal(t, t0, a.Registered)
			assert.Equal(t, t0.Add(tt.timeout), r.OnlineUntil(a))
			next, err := r.Heartbeat(ctx, a.ID, agent.HeartbeatInfo{})
			require.NoError(t, err)
			assert.Equal(t, tt.interval, next)
		})
	}
}

// Without a clock option the registry runs on time.Now.
func TestRealClock(t *testing.T) {
	ws, err := workspace.Open(t.TempDir())
	require.NoError(t, err)
	defer ws.Close()
	r := agent.New(ws)
	before := time.Now()
	a, err := r.Register(ctx, worker("w"))
	require.NoError(t, err)
	assert.False(t, a.Registered.Before(before.Truncate(time.Microsecond)))
	assert.Equal(t, time.UTC, a.Registered.Location())
	got, err := r.Get(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, a.Registered, got.Registered, "nanoseconds survive the file")
	assert.True(t, got.Online)
}

func TestNotFound(t *testing.T) {
	r, root := setup(t, newClock())
	_, err := r.Register(ctx, worker("w"))
	require.NoError(t, err)
	before := files(t, root)

	for _, id := range []string{"ag_000000000000", "ag_A1B2C3D4E5F6", "../x", "docs/a.md", ".taskmd", "_x", strings.Repeat("a", 65)} {
		t.Run(id, func(t *testing.T) {
			_, err := r.Get(ctx, id)
			assert.ErrorIs(t, err, agent.ErrAgentNotFound)
			_, err = r.Heartbeat(ctx, id, agent.HeartbeatInfo{Status: "busy"})
			assert.ErrorIs(t, err, agent.ErrAgentNotFound)
			err = r.Unregister(ctx, id)
			assert.ErrorIs(t, err, agent.ErrAgentNotFound)
			assert.Equal(t, agent.CodeAgentNotFound, taskdoc.CodeOf(err))
		})
	}
	assert.Equal(t, before, files(t, root), "nothing written, not even a lock file")

	_, err = r.Get(ctx, "")
	assert.Equal(t, taskdoc.CodeInvalidArguments, taskdoc.CodeOf(err))
	_, err = r.Heartbeat(ctx, "", agent.HeartbeatInfo{})
	assert.Equal(t, taskdoc.CodeInvalidArguments, taskdoc.CodeOf(err))
	assert.Equal(t, taskdoc.CodeInvalidArguments, taskdoc.CodeOf(r.Unregister(ctx, "")))

	// A workspace where no agent ever registered has none.
	empty, _ := setup(t, newClock())
	list, err := empty.List(ctx, agent.ListOptions{})
	require.NoError(t, err)
	assert.Empty(t, list)
	_, err = empty.Get(ctx, "ag_000000000000")
	assert.ErrorIs(t, err, agent.ErrAgentNotFound)
}

func TestBadInput(t *testing.T) {
	long := strings.Repeat("x", 1025)
	many := make([]string, 65)
	for i := range many {
		many[i] = "c"
	}
	manyMeta := map[string]string{}
	for i := range 65 {
		manyMeta[strings.Repeat("k", i+1)] = "v"
	}
	tests := []struct {
		name string
		reg  agent.Registration
		code taskdoc.Code
		msg  string
	}{
		{"no name", agent.Registration{Runtime: "rt"}, taskdoc.CodeInvalidArguments, "name"},
		{"blank name", agent.Registration{Name: " \u00a0 ", Runtime: "rt"}, taskdoc.CodeInvalidArguments, "name"},
		{"no runtime", agent.Registration{Name: "n"}, taskdoc.CodeInvalidArguments, "runtime"},
		{"line break in name", agent.Registration{Name: "a\nb", Runtime: "rt"}, taskdoc.CodeInvalidArguments, "one line"},
		{"carriage return in role", agent.Registration{Name: "n", Runtime: "rt", Role: "a\rb"}, taskdoc.CodeInvalidArguments, "one line"},
		{"tab in runtime", agent.Registration{Name: "n", Runtime: "claude\tcode"}, taskdoc.CodeControlCharacter, "U+0009"},
		{"NUL in name", agent.Registration{Name: "n\x00", Runtime: "rt"}, taskdoc.CodeControlCharacter, "U+0000"},
		{"DEL in path", agent.Registration{Name: "n", Runtime: "rt", WorkspacePath: "/a\x7f"}, taskdoc.CodeControlCharacter, "U+007F"},
		{"C1 control in capability", agent.Registration{Name: "n", Runtime: "rt", Capabilities: []string{"go\u009b31m"}}, taskdoc.CodeControlCharacter, "U+009B"},
		{"escape in metadata value", agent.Registration{Name: "n", Runtime: "rt", Metadata: map[string]string{"k": "\x1b[31m"}}, taskdoc.CodeControlCharacter, "U+001B"},
		{"line break in metadata key", agent.Registration{Name: "n", Runtime: "rt", Metadata: map[string]string{"a\nb": "v"}}, taskdoc.CodeInvalidArguments, "one line"},
		{"invalid UTF-8", agent.Registration{Name: "n\xff", Runtime: "rt"}, taskdoc.CodeInvalidUTF8, "name"},
		{"long name", agent.Registration{Name: long, Runtime: "rt"}, taskdoc.CodeInvalidArguments, "1025 bytes"},
		{"long path", agent.Registration{Name: "n", Runtime: "rt", WorkspacePath: "/" + strings.Repeat("p", 4096)}, taskdoc.CodeInvalidArguments, "4097 bytes"},
		{"empty capability", agent.Registration{Name: "n", Runtime: "rt", Capabilities: []string{"go", " "}}, taskdoc.CodeInvalidArguments, "capability 2"},
		{"too many capabilities", agent.Registration{Name: "n", Runtime: "rt", Capabilities: many}, taskdoc.CodeInvalidArguments, "at most 64"},
		{"too many metadata entries", agent.Registration{Name: "n", Runtime: "rt", Metadata: manyMeta}, taskdoc.CodeInvalidArguments, "at most 64"},
		{"empty metadata key", agent.Registration{Name: "n", Runtime: "rt", Metadata: map[string]string{" ": "v"}}, taskdoc.CodeInvalidArguments, "metadata key"},
		{"metadata keys equal once trimmed", agent.Registration{Name: "n", Runtime: "rt", Metadata: map[string]string{"k": "1", " k": "2"}}, taskdoc.CodeInvalidArguments, "twice"},
		{"upper-case id", agent.Registration{ID: "AG_1", Name: "n", Runtime: "rt"}, taskdoc.CodeInvalidArguments, "agent id"},
		{"id with a dot", agent.Registration{ID: "a.b", Name: "n", Runtime: "rt"}, taskdoc.CodeInvalidArguments, "agent id"},
		{"id leaving the folder", agent.Registration{ID: "../../docs/x", Name: "n", Runtime: "rt"}, taskdoc.CodeInvalidArguments, "agent id"},
		{"id starting with -", agent.Registration{ID: "-x", Name: "n", Runtime: "rt"}, taskdoc.CodeInvalidArguments, "agent id"},
		{"long id", agent.Registration{ID: strings.Repeat("a", 65), Name: "n", Runtime: "rt"}, taskdoc.CodeInvalidArguments, "agent id"},
		{"id with spaces", agent.Registration{ID: " ag ", Name: "n", Runtime: "rt"}, taskdoc.CodeInvalidArguments, "agent id"},
	}
	r, root := setup(t, newClock())
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := r.Register(ctx, tt.reg)
			require.Error(t, err)
			assert.Equal(t, tt.code, taskdoc.CodeOf(err), "%v", err)
			assert.Contains(t, err.Error(), tt.msg)
			assert.Less(t, len(err.Error()), 300, "messages stay short whatever the input")
		})
	}
	assert.Empty(t, files(t, root), "bad input writes nothing")

	a, err := r.Register(ctx, worker("w"))
	require.NoError(t, err)
	before := files(t, root)
	for _, info := range []agent.HeartbeatInfo{
		{CurrentTask: "a\nb"}, {Status: "busy\x00"}, {Status: "\xff"}, {CurrentTask: long},
	} {
		_, err := r.Heartbeat(ctx, a.ID, info)
		assert.Error(t, err, "%q", info)
	}
	assert.Equal(t, before, files(t, root), "a bad heartbeat writes nothing")
}

// Values are kept as given, trimmed, and owned by the registry.
func TestRegistrationIsCopied(t *testing.T) {
	r, _ := setup(t, newClock())
	caps := []string{" go ", "sql"}
	meta := map[string]string{" k ": " v "}
	a, err := r.Register(ctx, agent.Registration{Name: "n", Runtime: "rt", Role: " lead ", Capabilities: caps, Metadata: meta})
	require.NoError(t, err)
	caps[1] = "changed"
	meta["new"] = "x"
	got, err := r.Get(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, []string{"go", "sql"}, got.Capabilities)
	assert.Equal(t, map[string]string{"k": "v"}, got.Metadata)
	assert.Equal(t, "lead", got.Role)
	assert.Equal(t, got, a)
}

func TestRetries(t *testing.T) {
	c := newClock()
	r, root := setup(t, c)
	reg := agent.Registration{ID: "worker-1", Name: "worker-1", Runtime: "claude_code", Role: "lead"}
	first, err := r.Register(ctx, reg)
	require.NoError(t, err)
	assert.Equal(t, "worker-1", first.ID)

	t.Run("register with the caller's id again", func(t *testing.T) {
		c.Add(2 * time.Minute) // long enough to be offline
		retry := reg
		retry.Role = "worker"
		retry.Capabilities = []string{"go"}
		again, err := r.Register(ctx, retry)
		require.NoError(t, err)
		assert.Equal(t, first.Registered, again.Registered, "the same agent")
		assert.Equal(t, "lead", again.Role, "as first registered")
		assert.Nil(t, again.Capabilities)
		assert.Equal(t, c.Now(), again.LastHeartbeat, "renewed")
		assert.True(t, again.Online)
		list, err := r.List(ctx, agent.ListOptions{})
		require.NoError(t, err)
		assert.Len(t, list, 1)
	})
	t.Run("same id, another name or runtime", func(t *testing.T) {
		before := files(t, root)
		for _, other := range []agent.Registration{
			{ID: "worker-1", Name: "worker-2", Runtime: "claude_code"},
			{ID: "worker-1", Name: "worker-1", Runtime: "codex"},
		} {
			_, err := r.Register(ctx, other)
			assert.ErrorIs(t, err, taskdoc.ErrConflict)
			assert.Contains(t, err.Error(), `"worker-1"`)
		}
		assert.Equal(t, before, files(t, root))
	})
	t.Run("heartbeat again", func(t *testing.T) {
		info := agent.HeartbeatInfo{CurrentTask: "/a.md#x", Status: "busy"}
		for range 3 {
			_, err := r.Heartbeat(ctx, "worker-1", info)
			require.NoError(t, err)
		}
		got, err := r.Get(ctx, "worker-1")
		require.NoError(t, err)
		assert.Equal(t, "/a.md#x", got.CurrentTask)
		_, err = r.Heartbeat(ctx, "worker-1", agent.HeartbeatInfo{})
		require.NoError(t, err)
		got, err = r.Get(ctx, "worker-1")
		require.NoError(t, err)
		assert.Empty(t, got.CurrentTask, "a heartbeat states the whole report")
		assert.Empty(t, got.Status)
	})
	t.Run("unregister again, then register anew", func(t *testing.T) {
		require.NoError(t, r.Unregister(ctx, "worker-1"))
		assert.ErrorIs(t, r.Unregister(ctx, "worker-1"), agent.ErrAgentNotFound)
		c.Add(time.Second)
		fresh, err := r.Register(ctx, reg)
		require.NoError(t, err)
		assert.Equal(t, c.Now(), fresh.Registered, "a new registration")
	})
	t.Run("register without an id again", func(t *testing.T) {
		a, err := r.Register(ctx, worker("w"))
		require.NoError(t, err)
		b, err := r.Register(ctx, worker("w"))
		require.NoError(t, err)
		assert.NotEqual(t, a.ID, b.ID, "not idempotent: two agents")
	})
}

// A heartbeat never moves LastHeartbeat back, whatever the clock says.
func TestClockGoesBack(t *testing.T) {
	c := newClock()
	r, _ := setup(t, c)
	a, err := r.Register(ctx, worker("w"))
	require.NoError(t, err)
	c.Add(-time.Hour)
	_, err = r.Heartbeat(ctx, a.ID, agent.HeartbeatInfo{Status: "idle"})
	require.NoError(t, err)
	got, err := r.Get(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, t0, got.LastHeartbeat)
	assert.Equal(t, "idle", got.Status)
}

func TestListOrderAndStrayFiles(t *testing.T) {
	c := newClock()
	r, root := setup(t, c)
	var want []string
	for _, id := range []string{"c", "a", "b"} {
		c.Add(time.Second)
		_, err := r.Register(ctx, agent.Registration{ID: id, Name: id, Runtime: "rt"})
		require.NoError(t, err)
		want = append(want, id)
	}
	// Two at the same moment are listed by ID.
	for _, id := range []string{"z", "y"} {
		_, err := r.Register(ctx, agent.Registration{ID: id, Name: id, Runtime: "rt"})
		require.NoError(t, err)
	}
	want = append(want, "y", "z")
	dir := filepath.Join(root, ".taskmd", "agents")
	for _, name := range []string{"README", "notes.txt", "UPPER.json", "x.json.bak"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte("not an agent"), 0o644))
	}
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub.json"), 0o755))

	list, err := r.List(ctx, agent.ListOptions{})
	require.NoError(t, err)
	var ids []string
	for _, a := range list {
		ids = append(ids, a.ID)
	}
	assert.Equal(t, want, ids, "by registration time, then ID; other files ignored")
}

func TestDamagedFile(t *testing.T) {
	r, root := setup(t, newClock())
	_, err := r.Register(ctx, worker("w"))
	require.NoError(t, err)
	dir := filepath.Join(root, ".taskmd", "agents")
	for name, content := range map[string]string{
		"ag_bad.json":   "{not json",
		"ag_moved.json": `{"id":"ag_elsewhere","name":"n","runtime":"rt"}`,
	} {
		id := strings.TrimSuffix(name, ".json")
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
		_, err := r.Get(ctx, id)
		assert.ErrorIs(t, err, taskdoc.ErrParse)
		assert.Contains(t, err.Error(), ".taskmd/agents/"+name)
		_, err = r.List(ctx, agent.ListOptions{})
		assert.ErrorIs(t, err, taskdoc.ErrParse)
		_, err = r.Heartbeat(ctx, id, agent.HeartbeatInfo{})
		assert.ErrorIs(t, err, taskdoc.ErrParse)
		_, err = r.Register(ctx, agent.Registration{ID: id, Name: "n", Runtime: "rt"})
		assert.ErrorIs(t, err, taskdoc.ErrParse)
		assert.Equal(t, content, files(t, root)[".taskmd/agents/"+name], "left as it was")

		require.NoError(t, r.Unregister(ctx, id), "unregister removes it")
		list, err := r.List(ctx, agent.ListOptions{})
		require.NoError(t, err)
		assert.Len(t, list, 1)
	}
}

func TestCancelledContext(t *testing.T) {
	r, root := setup(t, newClock())
	a, err := r.Register(ctx, worker("w"))
	require.NoError(t, err)
	before := files(t, root)
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, err = r.Register(cancelled, worker("x"))
	assert.ErrorIs(t, err, context.Canceled)
	_, err = r.Heartbeat(cancelled, a.ID, agent.HeartbeatInfo{})
	assert.ErrorIs(t, err, context.Canceled)
	assert.ErrorIs(t, r.Unregister(cancelled, a.ID), context.Canceled)
	_, err = r.Get(cancelled, a.ID)
	assert.ErrorIs(t, err, context.Canceled)
	_, err = r.List(cancelled, agent.ListOptions{})
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, before, files(t, root))
}

// Agents live under .taskmd/ alone: no call writes a Markdown file, and a
// heartbeat rewrites its agent's file and nothing else.
func TestOnlyAgentFilesAreWritten(t *testing.T) {
	c := newClock()
	r, root := setup(t, c)
	require.NoError(t, os.MkdirAll(filepath.Join(root, "docs"), 0o755))
	doc := "# Auth\n\n## Tasks\n\n### Implement JWT signing\n\n- Status: in_progress\n"
	require.NoError(t, os.WriteFile(filepath.Join(root, "docs", "auth.md"), []byte(doc), 0o644))

	a, err := r.Register(ctx, worker("a"))
	require.NoError(t, err)
	b, err := r.Register(ctx, worker("b"))
	require.NoError(t, err)
	before := files(t, root)
	for range 5 {
		c.Add(30 * time.Second)
		_, err := r.Heartbeat(ctx, a.ID, agent.HeartbeatInfo{CurrentTask: "/auth.md#implement-jwt-signing", Status: "busy"})
		require.NoError(t, err)
	}
	after := files(t, root)
	for name, content := range before {
		if name == ".taskmd/agents/"+a.ID+".json" {
			assert.NotEqual(t, content, after[name])
			continue
		}
		assert.Equal(t, content, after[name], "%s is untouched by a's heartbeats", name)
	}
	assert.Len(t, after, len(before), "and no file appeared")

	require.NoError(t, r.Unregister(ctx, b.ID))
	_, err = r.Register(ctx, agent.Registration{ID: "w3", Name: "w3", Runtime: "rt"})
	require.NoError(t, err)
	_, err = r.List(ctx, agent.ListOptions{})
	require.NoError(t, err)

	all := files(t, root)
	assert.Equal(t, doc, all["docs/auth.md"])
	lock := regexp.MustCompile(`^\.taskmd/locks/[^/]+\.lock$`)
	agentFile := regexp.MustCompile(`^\.taskmd/agents/[a-z0-9_-]+\.json$`)
	for name := range all {
		if name == "docs/auth.md" {
			continue
		}
		assert.True(t, lock.MatchString(name) || agentFile.MatchString(name), "unexpected file %s", name)
		assert.False(t, strings.HasSuffix(name, ".md"), "%s is Markdown", name)
	}
}
