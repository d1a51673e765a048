-- :checkhealth akgen — the server command, its version and what check on save needs (g++, the sandbox, the
-- references' runtime, the model and its backend), as `akgen info --json` reports them, each missing piece with its
-- fix, and whether this Neovim has what the client uses.

local M = {}

local h = vim.health or require("health")
local start = h.start or h.report_start
local ok = h.ok or h.report_ok
local warn = h.warn or h.report_warn
local error_ = h.error or h.report_error
local info = h.info or h.report_info

--- The info command for a server command: the same program and arguments, `serve` replaced by `info --json`.
local function info_command(cmd, root)
  local out = {}
  for _, part in ipairs(cmd) do
    if part == "serve" then -- what follows `serve` is for the server (--stdio ...)
      vim.list_extend(out, { "info", "--json", root })
      return out
    end
    table.insert(out, part)
  end
  return nil
end

--- The buffer the report is about: the most recently used cpp/asc buffer (checkhealth runs in a buffer of its own).
local function kernel_buffer(filetypes)
  local best, used = nil, -1
  for _, info in ipairs(vim.fn.getbufinfo({ buflisted = 1 })) do
    if vim.tbl_contains(filetypes, vim.bo[info.bufnr].filetype) and info.lastused > used then
      best, used = info.bufnr, info.lastused
    end
  end
  return best
end

function M.check()
  local akgen = require("akgen")
  local cmd = akgen.command()
  local bufnr = kernel_buffer(akgen.config.filetypes)
  start("akgen: the language server")
  if not cmd or vim.fn.executable(cmd[1]) ~= 1 then
    error_(cmd and string.format("'%s' is not executable", cmd[1])
      or "no server: akgen is not on the PATH and :AkgenInstall has not installed one", {
      ":AkgenInstall (the server from this plugin's checkout, into " .. require("akgen.install").env_dir() .. ")",
      "or bash scripts/setup.sh in the checkout and cmd = { '<checkout>/.venv/bin/akgen', 'serve' } in setup()",
    })
    return
  end
  ok("server command: " .. table.concat(cmd, " "))
  local root = akgen.root_of(bufnr and vim.api.nvim_buf_get_name(bufnr) or "")
  info("project root: " .. root .. (bufnr and (" (of " .. vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ":~:.") .. ")") or ""))
  local query = info_command(cmd, root)
  if not query then
    warn("the command has no `serve` argument, so its environment cannot be asked for (akgen info)")
    return
  end
  local output = vim.fn.system(query)
  local parsed_ok, report = pcall(vim.fn.json_decode, output)
  if not parsed_ok or type(report) ~= "table" then
    error_("`" .. table.concat(query, " ") .. "` did not answer: " .. vim.trim(output):sub(1, 300))
    return
  end
  for _, name in ipairs({ "server", "toolchain", "compiler", "sandbox", "references", "model" }) do
    local entry = report[name]
    if type(entry) == "table" then
      local line = string.format("%s: %s (%s)", name, entry.what, entry.detail)
      if entry.ok then
        ok(line)
      elseif name == "model" then
        warn(line)
      else
        error_(line)
      end
    end
  end

  start("akgen: this Neovim")
  local v = vim.version()
  ok(string.format("Neovim %d.%d.%d", v.major, v.minor, v.patch))
  if vim.fn.has("nvim-0.10") == 1 then
    ok("built-in LSP keymaps (K, gra, [d, ]d) and omnifunc")
  else
    ok("the akgen client sets omnifunc and K, gra, [d, ]d, <C-s> for its buffers (keymaps = false turns them off)")
  end
  if vim.lsp.inline_completion then
    ok("inline completion (vim.lsp.inline_completion): ghost text, <Tab> accepts")
  else
    info("no vim.lsp.inline_completion before Neovim 0.12: use the omnifunc (<C-x><C-o>) for completion")
  end
  if bufnr and #akgen.clients(bufnr) > 0 then
    ok("the last kernel buffer is attached to the akgen server")
  elseif bufnr then
    info("the last cpp/asc buffer is not attached (akgen serves .asc files and C++ that includes kernel_operator.h)")
  else
    info("no cpp or asc buffer is open")
  end
end

return M
