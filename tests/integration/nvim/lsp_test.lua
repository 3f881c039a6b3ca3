-- Drives `cudalint lsp` from a real editor: headless Neovim (0.7 on Debian 12, hence
-- vim.lsp.start_client rather than the 0.8+ vim.lsp.start). Run by tests/integration/nvim_test.sh with
--   CUDALINT_BIN  the cudalint binary
--   CUDALINT_WS   a scratch copy of tests/integration/nvim/workspace
-- Prints a transcript ("nvim-lsp: ...") and exits 0 when every expectation holds, 1 when one
-- fails (or the script errors), 2 on a setup problem. Every wait is bounded
-- (CUDALINT_NVIM_TIMEOUT_MS, default 60 s); the shell wrapper bounds the whole run too.

local bin = os.getenv('CUDALINT_BIN')
local ws = os.getenv('CUDALINT_WS')
local TIMEOUT = tonumber(os.getenv('CUDALINT_NVIM_TIMEOUT_MS') or '60000')

local function say(msg)
  io.stdout:write('nvim-lsp: ' .. msg .. '\n')
  io.stdout:flush()
end

-- Failures unwind to the xpcall at the bottom, which exits with the status.
local Failure = {}
local function finish(code, msg)
  error(setmetatable({ code = code, msg = msg }, Failure), 0)
end

local function check(cond, msg)
  if not cond then finish(1, 'FAIL: ' .. msg) end
end

local exit_status
local server_errors = {}
local client_id

local function client()
  return vim.lsp.get_client_by_id(client_id)
end

local function open(name)
  vim.cmd('edit ' .. vim.fn.fnameescape(ws .. '/' .. name))
  local buf = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(buf, client_id)
  return buf
end

local function diags(buf)
  local out = vim.diagnostic.get(buf)
  table.sort(out, function(a, b) return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col) end)
  return out
end

-- Positions as Neovim shows them: 1-based line, 1-based byte column.
local function describe(buf)
  local parts = {}
  for _, d in ipairs(diags(buf)) do
    table.insert(parts, string.format('%s@%d:%d-%d', tostring(d.code), d.lnum + 1, d.col + 1, d.end_col + 1))
  end
  return '[' .. table.concat(parts, ', ') .. ']'
end

local function line(buf, n)
  return vim.api.nvim_buf_get_lines(buf, n - 1, n, false)[1]
end

-- Waits until the buffer's diagnostic codes are exactly `codes` (in line order). Each call
-- follows an edit whose expected result differs from what was shown before, so a stale list
-- cannot satisfy it.
local function wait_codes(buf, codes, what)
  local want = table.concat(codes, ',')
  local ok = vim.wait(TIMEOUT, function()
    if exit_status then return true end
    local got = {}
    for _, d in ipairs(diags(buf)) do table.insert(got, tostring(d.code)) end
    return table.concat(got, ',') == want
  end, 10)
  check(not exit_status, what .. ': the server exited (code ' .. tostring(exit_status and exit_status.code) .. ')')
  check(ok, what .. ': expected [' .. want .. '], editor shows ' .. describe(buf) .. ' after ' .. TIMEOUT .. ' ms')
  say(what .. ': ' .. describe(buf))
end

-- The diagnostic `code` must cover `token` on 1-based line `lnum` (byte columns, as Neovim
-- converts the server's UTF-16 positions).
local function check_span(buf, code, lnum, token)
  local text = line(buf, lnum)
  local s, e = text:find(token, 1, true)
  check(s, 'line ' .. lnum .. ' has no `' .. token .. '`: ' .. text)
  for _, d in ipairs(diags(buf)) do
    if d.code == code then
      check(d.lnum + 1 == lnum and d.col == s - 1 and d.end_lnum + 1 == lnum and d.end_col == e,
        string.format('%s should cover `%s` at %d:%d-%d, editor has %d:%d-%d', code, token, lnum, s, e + 1,
          d.lnum + 1, d.col + 1, d.end_col + 1))
      return
    end
  end
  check(false, 'no ' .. code .. ' diagnostic')
end

-- Asks for code actions on the diagnostic with `code`, as `vim.lsp.buf.code_action` does
-- (Neovim's own line diagnostics as context), and applies the one whose title matches `pattern`.
local function apply_action(buf, code, pattern)
  local target
  for _, d in ipairs(diags(buf)) do
    if d.code == code then target = d end
  end
  check(target, 'no ' .. code .. ' diagnostic to fix')
  local params = vim.lsp.util.make_range_params()
  params.range = { start = { line = target.lnum, character = 0 }, ['end'] = { line = target.lnum, character = 0 } }
  params.textDocument = { uri = vim.uri_from_bufnr(buf) }
  params.context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(buf, target.lnum) }
  local responses, err = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', params, TIMEOUT)
  check(responses and responses[client_id], 'no codeAction response: ' .. tostring(err))
  check(not responses[client_id].error, 'codeAction error: ' .. vim.inspect(responses[client_id].error))
  local actions = responses[client_id].result or {}
  local titles = {}
  local chosen
  for _, a in ipairs(actions) do
    table.insert(titles, a.title .. (a.isPreferred and ' (preferred)' or ''))
    if not chosen and a.title:match(pattern) then chosen = a end
  end
  say('code actions for ' .. code .. ': ' .. table.concat(titles, ' | '))
  check(chosen, 'no code action matching "' .. pattern .. '"')
  check(chosen.edit, 'code action "' .. chosen.title .. '" has no edit')
  vim.lsp.util.apply_workspace_edit(chosen.edit, client().offset_encoding or 'utf-16')
  say('applied "' .. chosen.title .. '"')
end

local function run()
  if not bin or not ws then finish(2, 'CUDALINT_BIN and CUDALINT_WS must be set') end
  local v = vim.version()
  say(string.format('Neovim %d.%d.%d, server: %s lsp, workspace: %s', v.major, v.minor, v.patch, bin, ws))

  client_id = vim.lsp.start_client({
    name = 'cudalint',
    cmd = { bin, 'lsp' },
    root_dir = ws,
    flags = { debounce_text_changes = 50, exit_timeout = 5000 },
    handlers = {
      ['window/logMessage'] = function(_, result)
        if result and result.type == 1 then table.insert(server_errors, result.message) end
        say('server log: ' .. tostring(result and result.message))
      end,
      ['window/showMessage'] = function(_, result)
        if result and result.type == 1 then table.insert(server_errors, result.message) end
        say('server message: ' .. tostring(result and result.message))
      end,
    },
    on_exit = function(code, signal) exit_status = { code = code, signal = signal } end,
  })
  if not client_id then finish(2, 'could not start ' .. bin .. ' lsp') end

  -- 1. Both files open: the Dockerfile misspells an arch (ARCH004), and through the build
  --    model (TORCH_CUDA_ARCH_LIST with 7.5) the kernel's sm_80 warp reduction is flagged.
  local cu = open('sum.cu')
  local docker = open('Dockerfile')
  check(vim.wait(TIMEOUT, function() return client() and client().initialized end, 10), 'server did not initialize')
  local caps = client().server_capabilities or {}
  say('initialize: ' .. vim.fn.json_encode({ textDocumentSync = caps.textDocumentSync,
    codeActionProvider = caps.codeActionProvider, hoverProvider = caps.hoverProvider,
    positionEncoding = caps.positionEncoding }) .. ', client offset encoding ' .. tostring(client().offset_encoding))
  wait_codes(docker, { 'ARCH004' }, 'Dockerfile diagnostics')
  wait_codes(cu, { 'INTR001' }, 'sum.cu diagnostics')
  check_span(docker, 'ARCH004', 3, 'sm_90')
  -- A comment with a non-BMP character precedes the call: the server's UTF-16 columns must
  -- land on the intrinsic in Neovim's byte columns.
  check_span(cu, 'INTR001', 2, '__reduce_add_sync')
  local d = diags(docker)[1]
  check(d.source == 'cudalint', 'source is ' .. tostring(d.source))
  check(d.severity == vim.diagnostic.severity.ERROR, 'ARCH004 severity ' .. tostring(d.severity))
  check(d.user_data and d.user_data.lsp and d.user_data.lsp.codeDescription
    and d.user_data.lsp.codeDescription.href:match('arch_list_spelling_rejected_by_torch%.md$'),
    'codeDescription.href missing')
  say('ARCH004 message: ' .. d.message)
  say('INTR001 message: ' .. diags(cu)[1].message)

  -- 2. The quick fix rewrites `sm_90` as `9.0`.
  apply_action(docker, 'ARCH004', '9%.0')
  check(line(docker, 3) == 'ENV TORCH_CUDA_ARCH_LIST="7.5;8.0;9.0"', 'fixed line is ' .. line(docker, 3))
  say('Dockerfile line 3 is now: ' .. line(docker, 3))
  wait_codes(docker, {}, 'Dockerfile after the quick fix')

  -- 3. Editing the (unsaved) Dockerfile re-diagnoses the open kernel: without 7.5 in the arch
  --    list, __reduce_add_sync is fine; with it back, the finding returns.
  vim.api.nvim_buf_set_lines(docker, 2, 3, false, { 'ENV TORCH_CUDA_ARCH_LIST="8.0;9.0"' })
  say('Dockerfile line 3 is now: ' .. line(docker, 3))
  wait_codes(cu, {}, 'sum.cu after dropping 7.5 from the Dockerfile')
  vim.api.nvim_buf_set_text(docker, 2, 26, 2, 26, { '7.5;' })
  say('Dockerfile line 3 is now: ' .. line(docker, 3))
  wait_codes(cu, { 'INTR001' }, 'sum.cu after restoring 7.5')
  check_span(cu, 'INTR001', 2, '__reduce_add_sync')

  -- 4. The "suppress on this line" action silences the kernel's finding ...
  apply_action(cu, 'INTR001', '^Suppress')
  check(line(cu, 2) == '  // cudalint: ignore[INTR001]', 'inserted line is ' .. tostring(line(cu, 2)))
  say('sum.cu line 2 is now: ' .. line(cu, 2))
  wait_codes(cu, {}, 'sum.cu after the suppression')
  -- ... and removing the call leaves the suppression unused (SUP001), whose own quick fix
  -- removes the comment.
  vim.api.nvim_buf_set_lines(cu, 2, 3, false, { '  return v;' })
  say('sum.cu line 3 is now: ' .. line(cu, 3))
  wait_codes(cu, { 'SUP001' }, 'sum.cu with an unused suppression')
  local hover = vim.lsp.buf_request_sync(cu, 'textDocument/hover', {
    textDocument = { uri = vim.uri_from_bufnr(cu) },
    position = { line = 1, character = diags(cu)[1].col },
  }, TIMEOUT)
  local contents = hover and hover[client_id] and hover[client_id].result and hover[client_id].result.contents
  check(contents and contents.value and contents.value:find('(SUP001)', 1, true), 'hover on SUP001: ' .. vim.inspect(hover))
  say('hover on SUP001: ' .. contents.value:match('^[^\n]*'))
  apply_action(cu, 'SUP001', '^Remove')
  check(line(cu, 2) == '  return v;', 'line 2 after removing the suppression is ' .. tostring(line(cu, 2)))
  wait_codes(cu, {}, 'sum.cu after removing the unused suppression')

  check(#server_errors == 0, 'the server reported errors: ' .. table.concat(server_errors, '; '))

  -- 5. Shutdown and exit.
  vim.lsp.stop_client(client_id)
  check(vim.wait(TIMEOUT, function() return exit_status ~= nil end, 10), 'server did not exit')
  say(string.format('server exited: code %d, signal %d', exit_status.code, exit_status.signal))
  check(exit_status.code == 0 and exit_status.signal == 0, 'unclean exit')
end

local ok, err = xpcall(run, function(e)
  if getmetatable(e) == Failure then return e end
  return { code = 1, msg = 'FAIL: script error: ' .. debug.traceback(tostring(e), 2) }
end)
if ok then
  say('PASS')
  vim.cmd('qall!')
else
  if err.msg then say(err.msg) end
  if client_id and not exit_status then pcall(vim.lsp.stop_client, client_id, true) end
  vim.cmd('cquit ' .. err.code)
end
