-- akgen for Neovim: starts `akgen serve` for AscendC buffers (cpp and asc) and attaches them to it.
-- Works on Neovim 0.7.2 (vim.lsp.start_client + vim.lsp.buf_attach_client) and uses vim.lsp.start on 0.8+.
--
--   require("akgen").setup({
--     cmd = { "/path/to/.venv/bin/akgen", "serve" },   -- default: { "akgen", "serve" }
--     settings = { arch = "Ascend910B2", lint = { debounce_ms = 150 } },
--   })

local M = {}

local defaults = {
  cmd = { "akgen", "serve" },
  filetypes = { "cpp", "asc" },
  settings = {},
  root_markers = { "akgen.toml", ".git" },
  name = "akgen",
}

M.config = vim.deepcopy(defaults)
-- root directory -> client id (Neovim 0.7, where vim.lsp.start does not exist)
local clients = {}

local function root_dir(bufnr)
  local file = vim.api.nvim_buf_get_name(bufnr)
  local dir = file ~= "" and vim.fn.fnamemodify(file, ":p:h") or vim.fn.getcwd()
  for _, marker in ipairs(M.config.root_markers) do
    local found = vim.fn.findfile(marker, dir .. ";")
    if found == "" then
      found = vim.fn.finddir(marker, dir .. ";")
    end
    if found ~= "" then
      return vim.fn.fnamemodify(found, ":p:h"):gsub("/%.git/?$", "")
    end
  end
  return dir
end

local function client_config(root)
  local settings = M.config.settings or {}
  return {
    name = M.config.name,
    cmd = M.config.cmd,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    init_options = settings,
    settings = { akgen = settings },
    capabilities = vim.lsp.protocol.make_client_capabilities(),
    on_exit = function(code, signal)
      clients[root] = nil
      if code ~= 0 and code ~= nil then
        vim.schedule(function()
          vim.notify(
            string.format("akgen: the language server exited with code %d (signal %s); run :AkgenRestart after fixing it", code, tostring(signal)),
            vim.log.levels.WARN
          )
        end)
      end
    end,
  }
end

--- Attach `bufnr` to the akgen server of its root directory, starting the server when needed.
function M.attach(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  if vim.fn.executable(M.config.cmd[1]) ~= 1 then
    vim.notify("akgen: '" .. M.config.cmd[1] .. "' not found; pass cmd = { '/path/to/akgen', 'serve' } to require('akgen').setup", vim.log.levels.ERROR)
    return nil
  end
  local root = root_dir(bufnr)
  if vim.lsp.start then
    return vim.lsp.start(client_config(root), { bufnr = bufnr })
  end
  local id = clients[root]
  if id == nil or vim.lsp.get_client_by_id(id) == nil then
    id = vim.lsp.start_client(client_config(root))
    if id == nil then
      return nil
    end
    clients[root] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
  return id
end

--- Stop every akgen client; buffers re-attach on their next FileType event or with :AkgenRestart.
function M.stop()
  local all = vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients()
  for _, client in pairs(all) do
    if client.name == M.config.name then
      client.stop()
    end
  end
  clients = {}
end

function M.restart()
  M.stop()
  vim.defer_fn(function()
    for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_is_loaded(bufnr) and vim.tbl_contains(M.config.filetypes, vim.bo[bufnr].filetype) then
        M.attach(bufnr)
      end
    end
  end, 200)
end

function M.setup(opts)
  M.config = vim.tbl_deep_extend("force", vim.deepcopy(defaults), opts or {})
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
  vim.api.nvim_create_user_command("AkgenRestart", M.restart, { desc = "Restart the akgen language server" })
  -- buffers already open when setup runs
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.tbl_contains(M.config.filetypes, vim.bo[bufnr].filetype) then
      M.attach(bufnr)
    end
  end
end

return M
