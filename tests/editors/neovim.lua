-- Drives `skillforge lsp` from a real Neovim, headless: opens a SKILL.md, waits for the server's
-- diagnostics, applies the quick fix the server offers for one of them, and writes what it saw to
-- $RESULT as JSON lines. Run by tests/editors/neovim.sh.
local skillforge = os.getenv("SKILLFORGE_BIN")
local root = os.getenv("WORKSPACE")
local file = os.getenv("SKILL_FILE")
local result = io.open(os.getenv("RESULT"), "w")

local function say(record)
  result:write(vim.fn.json_encode(record), "\n")
  result:flush()
end

local function finish(code)
  result:close()
  vim.cmd((code == 0) and "qall!" or ("cquit " .. code))
end

local client_id = vim.lsp.start_client({
  name = "skillforge",
  cmd = { skillforge, "lsp" },
  root_dir = root,
  workspace_folders = { { uri = vim.uri_from_fname(root), name = "skills" } },
  init_options = { profiles = { "spec" } },
})
if not client_id then
  say({ error = "the server did not start" })
  return finish(1)
end

vim.cmd("edit " .. vim.fn.fnameescape(file))
local buffer = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(buffer, client_id)

local function codes()
  local found = {}
  for _, diagnostic in ipairs(vim.diagnostic.get(buffer)) do
    table.insert(found, diagnostic.code)
  end
  table.sort(found)
  return found
end

if not vim.wait(30000, function() return #vim.diagnostic.get(buffer) > 0 end, 50) then
  say({ error = "no diagnostics arrived" })
  return finish(1)
end
say({ phase = "opened", codes = codes() })

-- The quick fix for the unquoted colon, asked for at its finding, as the editor's code-action menu does.
local target
for _, diagnostic in ipairs(vim.diagnostic.get(buffer)) do
  if diagnostic.code == "SF106" then target = diagnostic end
end
if not target then
  say({ error = "no SF106 finding" })
  return finish(1)
end
local client = vim.lsp.get_client_by_id(client_id)
local params = {
  textDocument = { uri = vim.uri_from_bufnr(buffer) },
  range = {
    start = { line = target.lnum, character = target.col },
    ["end"] = { line = target.end_lnum, character = target.end_col },
  },
  context = { diagnostics = { target.user_data and target.user_data.lsp or {} } },
}
local answer = client.request_sync("textDocument/codeAction", params, 30000, buffer)
if not answer or answer.err or not answer.result then
  say({ error = "codeAction failed", detail = answer and answer.err })
  return finish(1)
end
local applied = nil
for _, action in ipairs(answer.result) do
  if action.kind == "quickfix" and action.isPreferred then
    vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding or "utf-16")
    applied = action.title
    break
  end
end
if not applied then
  say({ error = "no preferred quick fix", actions = answer.result })
  return finish(1)
end

-- The edit reaches the server as a change; the finding goes away.
local gone = vim.wait(30000, function()
  for _, code in ipairs(codes()) do
    if code == "SF106" then return false end
  end
  return true
end, 50)
say({
  phase = "fixed",
  applied = applied,
  codes = codes(),
  gone = gone,
  lines = vim.api.nvim_buf_get_lines(buffer, 0, -1, false),
})
vim.lsp.stop_client(client_id)
finish(gone and 0 or 1)
