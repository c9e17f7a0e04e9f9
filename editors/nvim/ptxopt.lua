-- ptxopt for Neovim: PTX filetype detection and the `ptxopt lsp` language
-- server, with no plugin manager and no nvim-lspconfig needed.
--
-- Put this file at ~/.config/nvim/lua/ptxopt.lua and, in init.lua:
--
--   require("ptxopt").setup({
--     cmd = { "ptxopt", "lsp" },          -- or { "/path/to/ptxopt", "lsp" }
--     settings = { target = "sm_90", knobs = { MaxRegCount = 64 } },
--   })
--
-- (or `dofile("/path/to/ptxopt.lua").setup({...})` without copying it).
-- Change the settings later with `require("ptxopt").set_settings({...})`: they
-- are sent to the running servers (workspace/didChangeConfiguration).
--
-- Works on Neovim 0.7 and later (`vim.lsp.start` where it exists, 0.8+).

local M = {}

M.config = {
  cmd = { "ptxopt", "lsp" },
  -- The server's settings: { target = "sm_XX" | vim.NIL, knobs = { NAME = value } }.
  -- Sent as initializationOptions and as workspace/didChangeConfiguration
  -- (under "ptxopt").
  settings = {},
  -- The root directory is the nearest ancestor holding one of these, else
  -- the file's own directory.
  root_markers = { "ptxopt.toml", ".git" },
}

local uv = vim.uv or vim.loop

local function dirname(path)
  return vim.fn.fnamemodify(path, ":h")
end

--- The nearest ancestor of `path` (a file) holding one of `markers`.
function M.root_dir(path, markers)
  local dir = dirname(vim.fn.fnamemodify(path, ":p"))
  local start = dir
  while true do
    for _, marker in ipairs(markers) do
      if uv.fs_stat(dir .. "/" .. marker) then
        return dir
      end
    end
    local parent = dirname(dir)
    if parent == dir then
      return start
    end
    dir = parent
  end
end

local function settings_table()
  local s = vim.deepcopy(M.config.settings or {})
  if s.knobs == nil or next(s.knobs) == nil then
    s.knobs = vim.empty_dict()
  end
  return s
end

-- Neovim 0.7 has no vim.lsp.start: one client per root, reused.
local clients_by_root = {}

--- Starts (or reuses) the server for buffer `bufnr` and attaches it.
function M.attach(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local name = vim.api.nvim_buf_get_name(bufnr)
  local root = M.root_dir(name ~= "" and name or (uv.cwd() .. "/untitled.ptx"), M.config.root_markers)
  local settings = settings_table()
  local config = {
    name = "ptxopt",
    cmd = M.config.cmd,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    init_options = settings,
    settings = { ptxopt = settings },
  }
  if vim.lsp.start then
    return vim.lsp.start(config, { bufnr = bufnr })
  end
  local id = clients_by_root[root]
  if id == nil or vim.lsp.get_client_by_id(id) == nil then
    id = vim.lsp.start_client(config)
    clients_by_root[root] = id
  end
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
  return id
end

local function ptxopt_clients()
  local get = vim.lsp.get_clients or vim.lsp.get_active_clients
  local out = {}
  for _, client in pairs(get()) do
    if client.name == "ptxopt" then
      table.insert(out, client)
    end
  end
  return out
end

--- Replaces the settings and sends them to every running ptxopt server.
function M.set_settings(settings)
  M.config.settings = settings or {}
  local s = settings_table()
  for _, client in ipairs(ptxopt_clients()) do
    client.config.settings = { ptxopt = s }
    local params = { settings = { ptxopt = s } }
    if vim.fn.has("nvim-0.11") == 1 then
      client:notify("workspace/didChangeConfiguration", params)
    else
      client.notify("workspace/didChangeConfiguration", params)
    end
  end
end

function M.setup(opts)
  M.config = vim.tbl_deep_extend("force", M.config, opts or {})
  if vim.filetype and vim.filetype.add then
    vim.filetype.add({ extension = { ptx = "ptx" } })
  end
  local group = vim.api.nvim_create_augroup("ptxopt", { clear = true })
  -- Also for Neovim without filetype.lua (0.7) or started with `-u NONE`.
  vim.api.nvim_create_autocmd({ "BufRead", "BufNewFile" }, {
    group = group,
    pattern = "*.ptx",
    callback = function(args)
      if vim.bo[args.buf].filetype ~= "ptx" then
        vim.bo[args.buf].filetype = "ptx"
      end
    end,
  })
  vim.api.nvim_create_autocmd("FileType", {
    group = group,
    pattern = "ptx",
    callback = function(args)
      vim.bo[args.buf].commentstring = "// %s"
      M.attach(args.buf)
    end,
  })
  return M
end

return M
