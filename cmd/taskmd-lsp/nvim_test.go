package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

// nvimScript is a user's session in Neovim (0.7 and later): it starts
// the server on the workspace, opens docs/x.md, waits for diagnostics,
// asks for the code actions at the first task, picks "Complete", types
// the note when asked, and writes the buffer once the server's edit is in
// it. What it saw goes to $LSP_TEST_OUT as JSON.
const nvimScript = `
local exe = os.getenv('LSP_TEST_EXE')
local root = os.getenv('LSP_TEST_ROOT')
local out = os.getenv('LSP_TEST_OUT')
local note = os.getenv('LSP_TEST_NOTE')
local now = os.getenv('LSP_TEST_NOW')

local function finish(result)
  vim.fn.writefile({vim.fn.json_encode(result)}, out)
end

-- The user: types the note when asked, picks the action titled Complete.
vim.ui.input = function(opts, on_confirm) on_confirm(note) end
vim.ui.select = function(items, opts, on_choice)
  for i, item in ipairs(items) do
    local action = item[2] or item.action
    if action and action.title:find('^Complete') then return on_choice(item, i) end
  end
  on_choice(nil, nil)
end

-- The client side of taskmd.complete, as docs/editors.md gives it: ask for
-- the note, then execute the command with it.
vim.lsp.commands['taskmd.complete'] = function(command, ctx)
  local arg = vim.deepcopy(command.arguments[1])
  vim.ui.input({prompt = 'Note: '}, function(input)
    if not input or input == '' then return end
    arg.note = input
    local client = vim.lsp.get_client_by_id(ctx.client_id)
    client.request('workspace/executeCommand', {command = command.command, arguments = {arg}},
      function(err) if err then vim.g.taskmd_error = err.message end end, ctx.bufnr)
  end)
end

local client_id = vim.lsp.start_client({
  name = 'taskmd',
  cmd = {exe, '-now', now},
  root_dir = root,
  flags = {debounce_text_changes = 20},
})
vim.cmd('edit ' .. vim.fn.fnameescape(root .. '/docs/x.md'))
local bufnr = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(bufnr, client_id)

if not vim.wait(20000, function() return #vim.diagnostic.get(bufnr) > 0 end, 20) then
  return finish({error = 'no diagnostics'})
end
local diagnostics = {}
for _, d in ipairs(vim.diagnostic.get(bufnr)) do
  table.insert(diagnostics, {lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
    code = d.code, source = d.source, message = d.message})
end

vim.fn.search('Launch')
vim.lsp.buf.code_action()
local function completed()
  for _, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    if line:find('Status: completed', 1, true) then return true end
  end
  return vim.g.taskmd_error ~= nil
end
if not vim.wait(20000, completed, 20) or vim.g.taskmd_error then
  return finish({error = vim.g.taskmd_error or 'the task was not completed in the buffer', diagnostics = diagnostics})
end
vim.cmd('write')
local client = vim.lsp.get_client_by_id(client_id)
finish({diagnostics = diagnostics, encoding = client.offset_encoding, fileformat = vim.bo.fileformat})
vim.lsp.stop_client(client_id)
vim.wait(5000, function() return vim.tbl_isempty(vim.lsp.get_active_clients()) end, 20)
`

// nvimResult is what the script saw.
type nvimResult struct {
	Error       string `json:"error"`
	Encoding    string `json:"encoding"`
	Fileformat  string `json:"fileformat"`
	Diagnostics []struct {
		Lnum    int    `json:"lnum"`
		Col     int    `json:"col"`
		Code    string `json:"code"`
		Source  string `json:"source"`
		Message string `json:"message"`
	} `json:"diagnostics"`
}

// A user completes a task in Neovim: diagnostics show, the code action
// asks for the note, the server's edit lands in the buffer, and the file
// written is exactly the library's completion of the task.
func TestNeovim(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Skip("nvim not installed: apt-get install neovim")
	}
	root := workspaceDir(t)
	dir := t.TempDir()
	script := filepath.Join(dir, "complete.lua")
	out := filepath.Join(dir, "result.json")
	require.NoError(t, os.WriteFile(script, []byte(nvimScript), 0o644))
	exe, err := os.Executable()
	require.NoError(t, err)
	const note = "Shipped 🚀 from Neovim"

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-u", "NONE", "-i", "NONE",
		"-c", "luafile "+script, "-c", "qa!")
	cmd.Dir = root
	cmd.Env = append(os.Environ(),
		serveEnv+"=1", // the server nvim starts is this test binary
		"LSP_TEST_EXE="+exe, "LSP_TEST_ROOT="+root, "LSP_TEST_OUT="+out,
		"LSP_TEST_NOTE="+note, "LSP_TEST_NOW="+fixedNow,
		"XDG_CONFIG_HOME="+dir, "XDG_DATA_HOME="+dir, "XDG_STATE_HOME="+dir, "XDG_CACHE_HOME="+dir)
	output, err := cmd.CombinedOutput()
	require.NoError(t, err, "nvim: %s", output)

	data, err := os.ReadFile(out)
	require.NoError(t, err, "nvim wrote no result: %s", output)
	var res nvimResult
	require.NoError(t, json.Unmarshal(data, &res), "%s", data)
	require.Empty(t, res.Error, "nvim output: %s; lsp log: %s", output, nvimLog(dir))
	assert.Equal(t, "utf-16", res.Encoding)
	assert.Equal(t, "dos", res.Fileformat, "the CRLF file is read as one")
	codes := map[string]bool{}
	for _, d := range res.Diagnostics {
		assert.Equal(t, "taskmd", d.Source)
		codes[d.Code] = true
	}
	assert.True(t, codes[string(taskdoc.CodeDuplicateTask)], "diagnostics: %+v", res.Diagnostics)
	assert.True(t, codes[string(taskdoc.CodeUnknownStatus)], "diagnostics: %+v", res.Diagnostics)

	doc, err := taskdoc.Parse([]byte(awkward))
	require.NoError(t, err)
	now, _ := time.Parse(time.RFC3339, fixedNow)
	want, _, err := doc.Complete(launchSlug, note, now.UTC())
	require.NoError(t, err)
	got, err := os.ReadFile(filepath.Join(root, "docs", "x.md"))
	require.NoError(t, err)
	assert.Equal(t, string(want.Source), string(got))
}

// nvimLog is Neovim's log of the protocol, for a failure's message.
func nvimLog(dir string) string {
	data, _ := os.ReadFile(filepath.Join(dir, "nvim", "lsp.log"))
	return string(data)
}
