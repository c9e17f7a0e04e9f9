-- End-to-end test of `ptxopt lsp` in a real editor: Neovim, headless, with
-- the server attached through editors/nvim/ptxopt.lua.
--
--   PTXOPT_BIN=target/debug/ptxopt \
--     nvim --headless -u NONE -i NONE -n -c "luafile editors/nvim/e2e.lua" </dev/null
--
-- (`nvim -l editors/nvim/e2e.lua` on Neovim 0.9+ works too.)
--
-- Environment:
--   PTXOPT_BIN         the ptxopt executable (runs `$PTXOPT_BIN lsp`); required
--   PTXOPT_E2E_RESULT  where to write the result JSON (default: stdout only)
--   PTXOPT_E2E_DIR     a scratch directory for the test file (default: a temp dir)
--   PTXOPT_E2E_TIMEOUT_MS  how long to wait for each answer (default 20000)
--
-- Steps: copy test-data/examples/saxpy.ptx with one undeclared register into
-- the scratch directory, open it, wait for that error's diagnostic; fix it
-- with an (incremental) buffer edit and wait for the diagnostics to clear;
-- then hover (a register, an instruction: its target comes from the
-- settings), inlay hints, go to definition, a settings change through
-- workspace/didChangeConfiguration, and a clean shutdown. Writes
-- { ok, nvim, checks = [{ name, ok, detail }] } and exits 0 only if every
-- check passed.

local timeout = tonumber(os.getenv("PTXOPT_E2E_TIMEOUT_MS") or "") or 20000
local checks = {}
local all_ok = true

local function json_encode(v)
  if vim.json and vim.json.encode then
    return vim.json.encode(v)
  end
  return vim.fn.json_encode(v)
end

local function check(name, ok, detail)
  ok = ok and true or false
  -- The detail (what was seen) is kept for failures only.
  table.insert(checks, { name = name, ok = ok, detail = (not ok and detail ~= nil) and tostring(detail) or "" })
  if not ok then
    all_ok = false
  end
  io.stdout:write(string.format("%s %s%s\n", ok and "ok  " or "FAIL", name, ok and "" or (": " .. tostring(detail))))
  return ok
end

local function nvim_version()
  local v = vim.version()
  return string.format("%d.%d.%d", v.major, v.minor, v.patch)
end

local function finish()
  local result = { ok = all_ok, nvim = nvim_version(), checks = checks }
  local text = json_encode(result)
  local out = os.getenv("PTXOPT_E2E_RESULT")
  if out and out ~= "" then
    local f = assert(io.open(out, "w"))
    f:write(text, "\n")
    f:close()
  end
  io.stdout:write(text, "\n")
  io.stdout:flush()
  if all_ok then
    vim.cmd("qall!")
  else
    vim.cmd("cquit 1")
  end
end

-- This script's directory, and the repository root two levels up.
local script = debug.getinfo(1, "S").source:gsub("^@", "")
local here = vim.fn.fnamemodify(script, ":p:h")
local root = vim.fn.fnamemodify(here, ":h:h")

local function read(path)
  local f = assert(io.open(path, "r"))
  local text = f:read("*a")
  f:close()
  return text
end

--- 0-based line and UTF-16 column of the `nth` (1-based) occurrence of
--- `needle` in the buffer (ASCII text), plus `delta` columns.
local function pos_of(buf, needle, nth, delta)
  nth = nth or 1
  local seen = 0
  for i, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    local from = 1
    while true do
      local s = line:find(needle, from, true)
      if not s then
        break
      end
      seen = seen + 1
      if seen == nth then
        return { line = i - 1, character = s - 1 + (delta or 0) }
      end
      from = s + 1
    end
  end
  error("not found: " .. needle)
end

local function line_of(buf, needle)
  return pos_of(buf, needle, 1, 0).line
end

--- The one result of a request to the ptxopt client (or nil, err).
local function request(buf, method, params)
  local responses, err = vim.lsp.buf_request_sync(buf, method, params, timeout)
  if not responses then
    return nil, "no response: " .. tostring(err)
  end
  for _, r in pairs(responses) do
    if r.err then
      return nil, "error: " .. json_encode(r.err)
    end
    return r.result, nil
  end
  return nil, "no client answered"
end

--- The ids of the clients attached to `buf` (any Neovim from 0.7).
local function client_ids(buf)
  local ids = {}
  if vim.lsp.get_clients then
    for _, c in ipairs(vim.lsp.get_clients({ bufnr = buf })) do
      table.insert(ids, c.id)
    end
  else
    for id, _ in pairs(vim.lsp.buf_get_clients(buf)) do
      table.insert(ids, id)
    end
  end
  return ids
end

local function uri_path(uri)
  return vim.uri_to_fname(uri)
end

local function same_file(a, b)
  local uv = vim.uv or vim.loop
  return uv.fs_realpath(a) == uv.fs_realpath(b)
end

local function run()
  local bin = os.getenv("PTXOPT_BIN")
  if not check("PTXOPT_BIN is an executable", bin and bin ~= "" and vim.fn.executable(bin) == 1, tostring(bin)) then
    return
  end

  -- The test file: saxpy with one undeclared register (`%r9`, declared are %r0..%r5).
  local dir = os.getenv("PTXOPT_E2E_DIR")
  if not dir or dir == "" then
    dir = vim.fn.tempname()
  end
  vim.fn.mkdir(dir, "p")
  local path = dir .. "/saxpy_e2e.ptx"
  local good = read(root .. "/test-data/examples/saxpy.ptx")
  local bad_line = "mad.lo.s32 \t%r1, %r3, %r4, %r5;"
  local s = good:find(bad_line, 1, true)
  if not check("test-data/examples/saxpy.ptx has the line to break", s ~= nil, bad_line) then
    return
  end
  local bad = good:sub(1, s - 1) .. bad_line:gsub("%%r5;", "%%r9;") .. good:sub(s + #bad_line)
  local f = assert(io.open(path, "w"))
  f:write(bad)
  f:close()

  local ptxopt = dofile(here .. "/ptxopt.lua")
  ptxopt.setup({
    cmd = { bin, "lsp" },
    settings = { target = "sm_80", knobs = {} },
  })

  vim.cmd("edit " .. vim.fn.fnameescape(path))
  local buf = vim.api.nvim_get_current_buf()
  check("filetype is ptx", vim.bo[buf].filetype == "ptx", vim.bo[buf].filetype)

  local attached = vim.wait(timeout, function()
    return #client_ids(buf) > 0
  end, 20)
  if not check("server attached", attached, "no client for the buffer") then
    return
  end

  -- 1. The diagnostic of the undeclared register, where it is.
  local got = vim.wait(timeout, function()
    return #vim.diagnostic.get(buf) > 0
  end, 20)
  local diags = vim.diagnostic.get(buf)
  local want = pos_of(buf, "%r9", 1, 0)
  local d = diags[1]
  check(
    "diagnostic: undeclared register",
    got
      and #diags == 1
      and d.message:find("undeclared register `%r9`", 1, true) ~= nil
      and d.lnum == want.line
      and d.col == want.character
      and d.severity == vim.diagnostic.severity.ERROR,
    json_encode(vim.tbl_map(function(x)
      return { lnum = x.lnum, col = x.col, message = x.message, severity = x.severity }
    end, diags)) .. " want " .. json_encode(want)
  )

  -- 2. Fix it with an edit (incremental didChange); the diagnostics clear.
  vim.api.nvim_buf_set_text(buf, want.line, want.character, want.line, want.character + 3, { "%r5" })
  local cleared = vim.wait(timeout, function()
    return #vim.diagnostic.get(buf) == 0
  end, 20)
  check("diagnostics clear after the fix", cleared, #vim.diagnostic.get(buf) .. " left")

  local doc = { uri = vim.uri_from_bufnr(buf) }

  -- 3. Hover on a register use and on an instruction.
  local hover, err = request(buf, "textDocument/hover", {
    textDocument = doc,
    position = pos_of(buf, "%r1, %r2;", 1, 1),
  })
  local value = hover and hover.contents and hover.contents.value or ""
  check(
    "hover: register",
    hover ~= nil and value:find("**`%r1`** register", 1, true) ~= nil and value:find(".reg .b32", 1, true) ~= nil,
    err or value
  )
  hover, err = request(buf, "textDocument/hover", {
    textDocument = doc,
    position = pos_of(buf, "fma.rn.f32", 1, 1),
  })
  value = hover and hover.contents and hover.contents.value or ""
  check(
    "hover: instruction, with the target of the settings (sm_80, the file says sm_90)",
    hover ~= nil and value:find("**`fma.rn.f32`**", 1, true) ~= nil and value:find("on sm_80", 1, true) ~= nil,
    err or value
  )

  -- 4. Inlay hints over the whole file: register pressure per instruction.
  local last = vim.api.nvim_buf_line_count(buf)
  local hints
  hints, err = request(buf, "textDocument/inlayHint", {
    textDocument = doc,
    range = { start = { line = 0, character = 0 }, ["end"] = { line = last, character = 0 } },
  })
  local labels = {}
  local max_hint = false
  for _, h in ipairs(hints or {}) do
    local label = type(h.label) == "string" and h.label or json_encode(h.label)
    table.insert(labels, label)
    if label:match("^max R %d+ P %d+") then
      max_hint = true
    end
  end
  check(
    "inlay hints: register pressure",
    hints ~= nil and #labels >= 10 and max_hint,
    err or json_encode(labels)
  )

  -- 5. Go to definition of a register use: its `.reg` declaration.
  local def
  def, err = request(buf, "textDocument/definition", {
    textDocument = doc,
    position = pos_of(buf, "%r1, %r2;", 1, 1),
  })
  local loc = def
  if type(def) == "table" and def[1] then
    loc = def[1]
  end
  local decl_line = line_of(buf, ".reg .b32 \t%r<6>;")
  check(
    "definition: the .reg declaration",
    type(loc) == "table"
      and loc.uri ~= nil
      and same_file(uri_path(loc.uri), path)
      and loc.range.start.line == decl_line,
    err or (json_encode(def) .. " want line " .. decl_line)
  )

  -- 6. A settings change (workspace/didChangeConfiguration) reaches the server.
  ptxopt.set_settings({ target = "sm_75" })
  hover, err = request(buf, "textDocument/hover", {
    textDocument = doc,
    position = pos_of(buf, "fma.rn.f32", 1, 1),
  })
  value = hover and hover.contents and hover.contents.value or ""
  check("settings change: hover now on sm_75", value:find("on sm_75", 1, true) ~= nil, err or value)

  -- 7. Clean shutdown.
  local ids = client_ids(buf)
  vim.lsp.stop_client(ids)
  local stopped = vim.wait(timeout, function()
    for _, id in ipairs(ids) do
      if vim.lsp.get_client_by_id(id) ~= nil then
        return false
      end
    end
    return true
  end, 20)
  check("server shut down", stopped, "still running")
end

local ok, err = pcall(run)
if not ok then
  check("script ran without errors", false, err)
end
finish()
