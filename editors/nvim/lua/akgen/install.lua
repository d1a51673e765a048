-- :AkgenInstall — the server from the checkout this plugin lives in (editors/nvim of akgen-lsp), installed into an
-- environment the plugin manages, stdpath("data")/akgen/server-env (python3 -m venv, then pip install of the
-- checkout: the server and the packages it needs, no torch). The client then finds it with no `cmd` set.
-- Only user-level places: never a program of the folder you opened.

local M = {}

local function exists(path)
  return (vim.uv or vim.loop).fs_stat(path) ~= nil
end

--- The environment the plugin manages.
function M.env_dir()
  return vim.fn.stdpath("data") .. "/akgen/server-env"
end

--- `{ <env>/bin/akgen, "serve" }` when the managed environment has the server, else nil.
function M.managed_cmd()
  local exe = M.env_dir() .. "/bin/akgen"
  if vim.fn.executable(exe) == 1 then
    return { exe, "serve" }
  end
  return nil
end

--- The akgen-lsp checkout this plugin is part of (its pyproject.toml), or nil.
function M.source()
  local here = debug.getinfo(1, "S").source:sub(2) -- .../editors/nvim/lua/akgen/install.lua
  local root = vim.fn.fnamemodify(here, ":p:h:h:h:h:h")
  if exists(root .. "/pyproject.toml") and exists(root .. "/akgen_lsp") then
    return root
  end
  return nil
end

--- The steps that make the environment and install `source` into it.
function M.steps(python, env, source)
  return {
    { title = "creating the environment " .. env, cmd = { python, "-m", "venv", "--clear", env } },
    {
      title = "installing akgen-lsp from " .. source .. " and the packages it needs (about 60 MB; no torch)",
      cmd = { env .. "/bin/python", "-m", "pip", "install", "--disable-pip-version-check", "--no-input", source },
    },
  }
end

local function python3()
  for _, name in ipairs({ "python3", "python" }) do
    local exe = vim.fn.exepath(name)
    if exe ~= "" then
      vim.fn.system({ exe, "-c", "import sys, venv, ensurepip; sys.exit(0 if sys.version_info >= (3, 10) else 3)" })
      if vim.v.shell_error == 0 then
        return exe
      end
    end
  end
  return nil
end

--- Run the install (asynchronously); `done(cmd)` gets the server command, or nil after a failure (said with
--- vim.notify). `opts.wait`: block until it ends (headless use and tests).
function M.install(done, opts)
  opts = opts or {}
  local source = M.source()
  if not source then
    vim.notify("akgen: :AkgenInstall installs the server from the akgen-lsp checkout this plugin is in, and there "
      .. "is none around it; run `bash scripts/setup.sh` in a checkout and pass cmd = { '<checkout>/.venv/bin/akgen', "
      .. "'serve' } to require('akgen').setup()", vim.log.levels.ERROR)
    return done and done(nil)
  end
  local python = python3()
  if not python then
    vim.notify("akgen: no Python 3.10 or newer with venv on the PATH (Debian/Ubuntu: sudo apt-get install python3 "
      .. "python3-venv)", vim.log.levels.ERROR)
    return done and done(nil)
  end
  local steps = M.steps(python, M.env_dir(), source)
  local finished = false
  local output = {}
  local function run(i)
    if i > #steps then
      finished = true
      local cmd = M.managed_cmd()
      vim.notify("akgen: the server is installed in " .. M.env_dir(), vim.log.levels.INFO)
      return done and done(cmd)
    end
    local step = steps[i]
    vim.notify(string.format("akgen: install %d/%d: %s", i, #steps, step.title), vim.log.levels.INFO)
    local function collect(_, data)
      for _, line in ipairs(data or {}) do
        if line ~= "" then
          table.insert(output, line)
        end
      end
    end
    local id = vim.fn.jobstart(step.cmd, {
      on_stdout = collect,
      on_stderr = collect,
      on_exit = function(_, code)
        vim.schedule(function()
          if code ~= 0 then
            finished = true
            vim.notify(string.format("akgen: %s failed (exit %d): %s", step.title, code,
              table.concat(vim.list_slice(output, math.max(1, #output - 5)), "\n")), vim.log.levels.ERROR)
            return done and done(nil)
          end
          run(i + 1)
        end)
      end,
    })
    if id <= 0 then
      finished = true
      vim.notify("akgen: could not run " .. step.cmd[1], vim.log.levels.ERROR)
      return done and done(nil)
    end
  end
  run(1)
  if opts.wait then
    vim.wait(opts.wait, function()
      return finished
    end, 200)
  end
end

return M
