-- akgen for Neovim 0.11+'s vim.lsp.config: put editors/nvim on the runtimepath, then
--   vim.lsp.enable("akgen")
-- and, to change the command or the settings,
--   vim.lsp.config("akgen", { cmd = { "/path/to/.venv/bin/akgen", "serve" }, settings = { akgen = { arch = "Ascend910B4" } } })
-- (the server reads `init_options`, built from `settings.akgen` when you set them through vim.lsp.config).
local akgen = require("akgen")
local base = akgen.client_config(nil, akgen.config)

return {
  cmd = base.cmd,
  filetypes = { "cpp", "asc" },
  root_dir = function(bufnr, on_dir)
    on_dir(akgen.root_of(vim.api.nvim_buf_get_name(bufnr)))
  end,
  init_options = base.init_options,
  settings = base.settings,
  capabilities = base.capabilities,
  handlers = base.handlers,
  on_attach = base.on_attach,
  before_init = function(params, config)
    -- settings given through vim.lsp.config("akgen", { settings = { akgen = {...} } }) reach the server at start
    local settings = config.settings and config.settings.akgen
    if type(settings) == "table" and not vim.tbl_isempty(settings) then
      params.initializationOptions = settings
    end
  end,
}
