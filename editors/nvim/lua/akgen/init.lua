-- akgen for Neovim: starts `akgen serve` for AscendC buffers (cpp and asc) and attaches them to it, one server per
-- project root (the top-most akgen.toml inside the git repository, else the git root, else the file's folder; never
-- above the home folder, never a folder or akgen.toml another user owns or may write).
-- Works on Neovim 0.7.2 (vim.lsp.start_client + vim.lsp.buf_attach_client) and uses vim.lsp.start on 0.8+; on 0.7-0.9
-- it sets the buffer-local omnifunc and the keymaps that 0.10+ has by default; on 0.12 it turns on inline completion.
--
--   require("akgen").setup({
--     cmd = { "/path/to/.venv/bin/akgen", "serve" },   -- default: `akgen` on the PATH, else :AkgenInstall's
--     settings = { arch = "Ascend910B2", lint = { debounce_ms = 150 } },
--   })
--
-- Neovim 0.11+ can use lsp/akgen.lua instead (vim.lsp.enable("akgen")); nvim-lspconfig users get
-- require("lspconfig").akgen.setup({}) from lua/lspconfig/configs/akgen.lua. All three build the same client config
-- (`M.client_config`).

local ui = require("akgen.ui")

local M = {}

local defaults = {
  cmd = nil, -- nil: `akgen serve` from the PATH, else the server :AkgenInstall put in Neovim's data folder
  filetypes = { "cpp", "asc" },
  settings = {},
  name = "akgen",
  -- buffer-local keymaps set on Neovim 0.7-0.9 (0.10+ has them built in); false turns them all off, and passing your
  -- own on_attach replaces them
  keymaps = {
    hover = "K",
    code_action = "gra",
    signature_help = "<C-s>",
    next_diagnostic = "]d",
    prev_diagnostic = "[d",
    diagnostic_float = "<C-w>d",
    accept_inline = "<Tab>", -- Neovim 0.12: accept the ghost text (falls back to a plain <Tab>)
  },
  inline_completion = true, -- Neovim 0.12: vim.lsp.inline_completion.enable() for akgen buffers
  notify = true, -- vim.notify the result of each check on save
  on_attach = nil,
}

M.config = vim.deepcopy(defaults)
-- root directory -> client id (Neovim 0.7, where vim.lsp.start does not exist)
local clients = {}

local function has(version)
  return vim.fn.has("nvim-" .. version) == 1
end

local function exists(path)
  return (vim.uv or vim.loop).fs_stat(path) ~= nil
end

local function parent(dir)
  return vim.fn.fnamemodify(dir, ":h")
end

--- Whether `path` is the user's own (theirs or root's) and no other user may write it (git's ownership rule): a
--- folder or akgen.toml that another user owns or may write never decides the root (docs/security.md).
local function own(path)
  local st = (vim.uv or vim.loop).fs_stat(path)
  if not st then
    return false
  end
  local uid = (vim.uv or vim.loop).getuid()
  if st.uid ~= uid and st.uid ~= 0 then
    return false
  end
  local others_write = math.floor(st.mode / 2) % 2 == 1
  local group_write = math.floor(st.mode / 16) % 2 == 1
  local gid = (vim.uv or vim.loop).getgid()
  return not others_write and not (group_write and st.gid ~= gid)
end

--- The project root of a file or folder: the top-most folder with an akgen.toml, not above the git root; else the
--- git root; else the folder itself. The walk up never passes the home folder or `/`, and ends at a folder that is
--- not the user's own (a shared or world-writable folder such as /tmp): an akgen.toml there is never the root.
function M.root_of(path)
  local dir = path ~= "" and vim.fn.fnamemodify(path, ":p") or vim.fn.getcwd()
  if vim.fn.isdirectory(dir) == 0 then
    dir = parent(dir)
  end
  dir = dir:gsub("/$", "")
  local home = (vim.uv or vim.loop).os_homedir()
  home = home and vim.fn.resolve(home):gsub("/$", "") or nil
  local git, top = nil, nil
  local current = dir
  while true do
    if current ~= dir and (current == home or current == "/" or current == "") then
      break
    end
    if not own(current) then
      break
    end
    if exists(current .. "/akgen.toml") and own(current .. "/akgen.toml") then
      top = current
    end
    if exists(current .. "/.git") then
      git = current
      break
    end
    local up = parent(current)
    if up == current then
      break
    end
    current = up
  end
  return top or git or dir
end

local function capabilities()
  local caps = vim.lsp.protocol.make_client_capabilities()
  caps.experimental = vim.tbl_extend("force", caps.experimental or {}, { akgenStatus = true })
  return caps
end

local function map(bufnr, mode, lhs, rhs, desc, opts)
  if not lhs or lhs == "" then
    return
  end
  vim.keymap.set(mode, lhs, rhs, vim.tbl_extend("force", { buffer = bufnr, silent = true, desc = desc }, opts or {}))
end

--- The check's estimate ("estimated 9.1 us on Ascend910B2 ..., 1/1 cases pass", the AKGEN-ESTIMATE diagnostic at
--- the kernel's entry line) as virtual text at the end of that line without hovering. Neovim 0.11+ shows no
--- diagnostic virtual text by default: for akgen's diagnostics it shows this one (a user's own virtual_text setting
--- for the namespace wins). Before 0.11 every diagnostic has virtual text already.
function M.show_estimate(client)
  if not has("0.11") or not (vim.lsp.diagnostic and vim.lsp.diagnostic.get_namespace) then
    return
  end
  local ok_ns, ns = pcall(vim.lsp.diagnostic.get_namespace, client.id)
  if not ok_ns or not ns then
    return
  end
  local current = vim.diagnostic.config(nil, ns) or {}
  if current.virtual_text ~= nil and current.virtual_text ~= false then
    return
  end
  vim.diagnostic.config({
    virtual_text = {
      format = function(d)
        if d.code == "AKGEN-ESTIMATE" then
          return d.message
        end
        return nil
      end,
    },
  }, ns)
end

--- What an attached buffer gets: omnifunc and keymaps on 0.7-0.9, inline completion on 0.12.
function M.on_attach(client, bufnr)
  local keys = M.config.keymaps
  if not has("0.10") then
    vim.bo[bufnr].omnifunc = "v:lua.vim.lsp.omnifunc"
    if keys then
      map(bufnr, "n", keys.hover, vim.lsp.buf.hover, "akgen: hover")
      map(bufnr, "n", keys.code_action, vim.lsp.buf.code_action, "akgen: code action")
      map(bufnr, "i", keys.signature_help, vim.lsp.buf.signature_help, "akgen: signature help")
      map(bufnr, "n", keys.next_diagnostic, vim.diagnostic.goto_next, "akgen: next diagnostic")
      map(bufnr, "n", keys.prev_diagnostic, vim.diagnostic.goto_prev, "akgen: previous diagnostic")
      map(bufnr, "n", keys.diagnostic_float, vim.diagnostic.open_float, "akgen: show the diagnostic")
    end
  end
  local inline = vim.lsp.inline_completion
  if M.config.inline_completion and inline and inline.enable then
    inline.enable(true, { bufnr = bufnr })
    if keys and keys.accept_inline then
      map(bufnr, "i", keys.accept_inline, function()
        if not inline.get() then
          return vim.api.nvim_replace_termcodes(keys.accept_inline, true, false, true)
        end
      end, "akgen: accept the inline completion", { expr = true })
    end
  end
end

local function init_options(settings)
  -- Lua's empty table is sent as a JSON array: the server wants an object
  if settings == nil or vim.tbl_isempty(settings) then
    return vim.empty_dict()
  end
  return settings
end

--- The client config for a root (shared by setup(), lsp/akgen.lua and lspconfig's configs/akgen.lua).
function M.client_config(root, opts)
  opts = opts or M.config
  local settings = opts.settings or {}
  local user_on_attach = opts.on_attach
  return {
    name = opts.name or "akgen",
    cmd = opts.cmd or M.command() or { "akgen", "serve" },
    root_dir = root,
    workspace_folders = root and { { uri = vim.uri_from_fname(root), name = root } } or nil,
    init_options = init_options(settings),
    settings = { akgen = init_options(settings) },
    capabilities = capabilities(),
    handlers = ui.handlers(),
    on_attach = function(client, bufnr)
      M.show_estimate(client)
      if user_on_attach then
        user_on_attach(client, bufnr)
      else
        M.on_attach(client, bufnr)
      end
    end,
    on_exit = function(code, signal)
      if root then
        clients[root] = nil
      end
      if code ~= 0 and code ~= nil then
        vim.schedule(function()
          vim.notify(string.format(
            "akgen: the language server exited with code %d (signal %s); see :AkgenLog, then :AkgenRestart",
            code, tostring(signal)), vim.log.levels.WARN)
        end)
      end
    end,
  }
end

--- The server command: the one given to setup(), else `akgen serve` when akgen is on the PATH, else the server
--- :AkgenInstall installed (stdpath("data")/akgen/server-env); nil when there is none. User-level places only.
function M.command()
  if M.config.cmd then
    return M.config.cmd
  end
  if vim.fn.executable("akgen") == 1 then
    return { "akgen", "serve" }
  end
  return require("akgen.install").managed_cmd()
end

local missing_said = false

local function notify_missing()
  if missing_said then
    return
  end
  missing_said = true
  local given = M.config.cmd and ("'" .. M.config.cmd[1] .. "' (the cmd given to setup) is not executable")
    or "no akgen server: none on the PATH and none installed by :AkgenInstall"
  vim.notify("akgen: " .. given .. "; run :AkgenInstall (installs the server from this plugin's checkout, about a "
    .. "minute), or pass cmd = { '/path/to/.venv/bin/akgen', 'serve' } to require('akgen').setup "
    .. "(:checkhealth akgen says more)", vim.log.levels.ERROR)
end

--- Attach `bufnr` to the akgen server of its root directory, starting the server when needed.
function M.attach(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local cmd = M.command()
  if not cmd or vim.fn.executable(cmd[1]) ~= 1 then
    notify_missing()
    return nil
  end
  local root = M.root_of(vim.api.nvim_buf_get_name(bufnr))
  if vim.lsp.start then
    return vim.lsp.start(M.client_config(root), { bufnr = bufnr })
  end
  local id = clients[root]
  if id == nil or vim.lsp.get_client_by_id(id) == nil then
    id = vim.lsp.start_client(M.client_config(root))
    if id == nil then
      return nil
    end
    clients[root] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
  return id
end

--- Every akgen client.
function M.clients(bufnr)
  local all
  if vim.lsp.get_clients then
    all = vim.lsp.get_clients({ bufnr = bufnr })
  elseif bufnr then
    all = vim.lsp.buf_get_clients(bufnr)
  else
    all = vim.lsp.get_active_clients()
  end
  local out = {}
  for _, client in pairs(all) do
    if client.name == M.config.name then
      table.insert(out, client)
    end
  end
  return out
end

--- Stop every akgen client; buffers re-attach on their next FileType event or with :AkgenRestart.
function M.stop()
  for _, client in ipairs(M.clients()) do
    if has("0.11") then
      client:stop()
    else
      client.stop()
    end
  end
  clients = {}
end

function M.restart()
  missing_said = false
  M.stop()
  vim.defer_fn(function()
    for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_is_loaded(bufnr) and vim.tbl_contains(M.config.filetypes, vim.bo[bufnr].filetype) then
        M.attach(bufnr)
      end
    end
  end, 300)
end

--- A short status for the status line: "akgen", "akgen: checking k.cpp", "akgen: 1/1 cases pass".
function M.statusline()
  return ui.statusline()
end

function M.setup(opts)
  M.config = vim.tbl_deep_extend("force", vim.deepcopy(defaults), opts or {})
  if opts and opts.keymaps == false then
    M.config.keymaps = false
  end
  ui.configure(M.config)
  local group = vim.api.nvim_create_augroup("akgen", { clear = true })
  vim.api.nvim_create_autocmd({ "BufRead", "BufNewFile" }, {
    group = group,
    pattern = "*.asc",
    command = "setfiletype asc",
  })
  vim.api.nvim_create_autocmd("FileType", {
    group = group,
    pattern = M.config.filetypes,
    callback = function(args)
      M.attach(args.buf)
    end,
  })
  -- buffers already open when setup runs
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.tbl_contains(M.config.filetypes, vim.bo[bufnr].filetype) then
      M.attach(bufnr)
    end
  end
end

return M
