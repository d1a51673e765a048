-- What the akgen client shows besides the diagnostics: the result of each check (vim.notify and a status line
-- component), the server's log messages (:AkgenLog), the environment and the last check (:AkgenInfo), "check now"
-- (:AkgenCheck). The server sends `akgen/status` because our client asks for it (capabilities.experimental).

local M = {}

local config = { notify = true, name = "akgen" }
local state = { server = nil, check = nil, log = {} }
local LOG_LINES = 2000

function M.configure(cfg)
  config = cfg
end

local function short_name(uri)
  return vim.fn.fnamemodify(vim.uri_to_fname(uri or ""), ":t")
end

--- "akgen", "akgen: checking k.cpp", "akgen: 1/1 cases pass"
function M.statusline()
  local check = state.check
  if not check or not check.state then
    return state.server and "akgen" or ""
  end
  if check.state == "running" then
    return "akgen: checking " .. short_name(check.uri)
  end
  return "akgen: " .. (check.summary or check.state)
end

local function on_status(_, result, ctx)
  if type(result) ~= "table" then
    return
  end
  state.server = result.server or state.server
  local check = result.check
  if type(check) == "table" and check ~= vim.NIL then
    local previous = state.check
    state.check = check
    local finished = check.state ~= "running" and check.state ~= "cancelled"
    local changed = not previous or previous.message ~= check.message or previous.state ~= check.state
    if config.notify and finished and changed then
      local level = (check.state == "passed" or check.state == "no task") and vim.log.levels.INFO or vim.log.levels.WARN
      vim.schedule(function()
        vim.notify("akgen: " .. (check.summary or check.message or check.state), level)
      end)
    end
    vim.schedule(function()
      pcall(vim.cmd, "redrawstatus")
    end)
  end
  local _ = ctx
end

local function on_log(err, result, ctx, cfg)
  if type(result) == "table" and result.message then
    local kinds = { "ERROR", "WARN", "INFO", "LOG" }
    local line = string.format("[%s] %s", kinds[result.type] or "LOG", result.message)
    table.insert(state.log, line)
    if #state.log > LOG_LINES then
      table.remove(state.log, 1)
    end
  end
  local default = vim.lsp.handlers["window/logMessage"]
  if default then
    return default(err, result, ctx, cfg)
  end
end

function M.handlers()
  return { ["akgen/status"] = on_status, ["window/logMessage"] = on_log }
end

local function scratch(name, lines)
  vim.cmd("botright new")
  local buf = vim.api.nvim_get_current_buf()
  vim.bo[buf].buftype = "nofile"
  vim.bo[buf].bufhidden = "wipe"
  vim.bo[buf].swapfile = false
  pcall(vim.api.nvim_buf_set_name, buf, name)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  return buf
end

local function akgen_clients(bufnr)
  local all = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = bufnr })
    or (bufnr and vim.lsp.buf_get_clients(bufnr)) or vim.lsp.get_active_clients()
  local out = {}
  for _, client in pairs(all) do
    if client.name == (config.name or "akgen") then
      table.insert(out, client)
    end
  end
  return out
end

local function execute(client, command, uri, timeout)
  local args = uri and { uri } or {}
  local params = { command = command, arguments = args }
  local bufnr = vim.api.nvim_get_current_buf()
  local reply, err
  if vim.fn.has("nvim-0.11") == 1 then
    reply, err = client:request_sync("workspace/executeCommand", params, timeout or 10000, bufnr)
  else
    reply, err = client.request_sync("workspace/executeCommand", params, timeout or 10000, bufnr)
  end
  if not reply then
    return nil, tostring(err)
  end
  if reply.err then
    return nil, reply.err.message
  end
  return reply.result, nil
end

--- :AkgenInfo: the client (root, command), the server's environment report, the last check.
function M.info()
  local bufnr = vim.api.nvim_get_current_buf()
  local lines = { "akgen", "" }
  local list = akgen_clients(bufnr)
  if #list == 0 then
    list = akgen_clients(nil)
    table.insert(lines, "This buffer is not attached to akgen (filetype " .. vim.bo[bufnr].filetype .. ").")
  end
  if #list == 0 then
    table.insert(lines, "No akgen server is running: open a .asc or a C++ file that includes kernel_operator.h.")
    table.insert(lines, "Run :checkhealth akgen to see whether the server can start.")
  end
  for _, client in ipairs(list) do
    table.insert(lines, string.format("client %d: root %s", client.id, client.config.root_dir or "?"))
    table.insert(lines, "  command: " .. table.concat(client.config.cmd or {}, " "))
    local uri = vim.uri_from_bufnr(bufnr)
    local result, err = execute(client, "akgen.server.info", uri)
    if result then
      for _, l in ipairs(vim.split(result.message or "", "\n")) do
        table.insert(lines, "  " .. l)
      end
      if result.worker and result.worker.pid ~= vim.NIL then
        table.insert(lines, string.format("  check worker: pid %s (started %s times)", tostring(result.worker.pid),
          tostring(result.worker.starts)))
      end
      local last = result.last_check
      if type(last) == "table" then
        table.insert(lines, "  last check: " .. (last.message or last.state))
        if last.trace and last.trace ~= vim.NIL then
          table.insert(lines, "  trace: " .. last.trace .. " (open it in https://ui.perfetto.dev)")
        end
      end
    else
      table.insert(lines, "  the server did not answer: " .. tostring(err))
    end
  end
  scratch("akgen://info", lines)
end

--- :AkgenLog: what the server said (window/logMessage), and where Neovim's LSP log is.
function M.log()
  local lines = vim.deepcopy(state.log)
  table.insert(lines, 1, "akgen server messages (Neovim's LSP log, with the server's stderr: "
    .. vim.lsp.get_log_path() .. ")")
  table.insert(lines, 2, "")
  if #state.log == 0 then
    table.insert(lines, "(nothing yet)")
  end
  scratch("akgen://log", lines)
end

--- The current buffer, saved, and its akgen client (nil, with a message, when it is not attached).
local function saved_buffer_client()
  local bufnr = vim.api.nvim_get_current_buf()
  local client = akgen_clients(bufnr)[1]
  if not client then
    vim.notify("akgen: this buffer is not attached to the akgen server", vim.log.levels.WARN)
    return bufnr, nil
  end
  if vim.bo[bufnr].modified then
    vim.cmd("write")
  end
  return bufnr, client
end

--- :AkgenCheck: save the buffer and check it now, whatever check_on_save says.
function M.check()
  local bufnr, client = saved_buffer_client()
  if not client then
    return
  end
  local result, err = execute(client, "akgen.server.check", vim.uri_from_bufnr(bufnr), 300000)
  if result then
    vim.notify(result.message or "akgen: done", result.ok == false and vim.log.levels.WARN or vim.log.levels.INFO)
  else
    vim.notify("akgen: the check failed: " .. tostring(err), vim.log.levels.ERROR)
  end
end

--- :AkgenGenerate / :AkgenImprove: "Generate kernel for this task" and "Improve performance" on this buffer's
--- kernel. The server runs the loop (progress as $/progress), writes the kernel with workspace/applyEdit only after
--- it verified on the simulator, and answers what it verified; :AkgenGenerateCancel stops it (nothing is written).
function M.generate(improve)
  local bufnr, client = saved_buffer_client()
  if not client then
    return
  end
  local what = improve and "Improve performance" or "Generate kernel"
  local command = improve and "akgen.server.improvePerformance" or "akgen.server.generateKernel"
  local params = { command = command, arguments = { vim.uri_from_bufnr(bufnr) } }
  local function done(err, result)
    state.generating = nil
    if err then
      vim.notify("akgen: " .. what .. " failed: " .. tostring(err.message or err), vim.log.levels.ERROR)
    elseif type(result) == "table" then
      table.insert(state.log, result.message or "")
      vim.notify(result.message or ("akgen: " .. what .. " finished"),
        result.written and vim.log.levels.INFO or vim.log.levels.WARN)
    end
  end
  local ok, id
  if vim.fn.has("nvim-0.11") == 1 then
    ok, id = client:request("workspace/executeCommand", params, done, bufnr)
  else
    ok, id = client.request("workspace/executeCommand", params, done, bufnr)
  end
  if not ok then
    vim.notify("akgen: the server did not take the request", vim.log.levels.ERROR)
    return
  end
  state.generating = { client = client, id = id, uri = params.arguments[1], bufnr = bufnr }
  vim.notify("akgen: " .. what .. " started; :AkgenGenerateCancel stops it", vim.log.levels.INFO)
end

function M.cancel_generate()
  local g = state.generating
  if not g then
    vim.notify("akgen: no generation is running", vim.log.levels.INFO)
    return
  end
  -- the server stops the loop and the generation's own request answers "cancelled" (a $/cancelRequest would not
  -- stop it: the server's framework answers an executeCommand's cancel without stopping its work)
  local params = { command = "akgen.server.cancelGenerate", arguments = { g.uri } }
  local function said(err, result)
    if err or type(result) ~= "table" or not result.ok then
      vim.notify("akgen: " .. tostring(err and err.message or (type(result) == "table" and result.message)
        or "the cancel was not taken"), vim.log.levels.WARN)
    end
  end
  if vim.fn.has("nvim-0.11") == 1 then
    g.client:request("workspace/executeCommand", params, said, g.bufnr)
  else
    g.client.request("workspace/executeCommand", params, said, g.bufnr)
  end
  vim.notify("akgen: cancelling the generation; nothing is written", vim.log.levels.INFO)
end

function M.state()
  return state
end

return M
