-- akgen as an nvim-lspconfig server config (nvim-lspconfig 1.x format): with editors/nvim on the runtimepath,
--   require("lspconfig").akgen.setup({ cmd = { "/path/to/.venv/bin/akgen", "serve" } })
local akgen = require("akgen")
local base = akgen.client_config(nil, akgen.config)

return {
  default_config = {
    cmd = base.cmd,
    filetypes = { "cpp", "asc" },
    root_dir = function(fname)
      return akgen.root_of(fname)
    end,
    single_file_support = true,
    init_options = base.init_options,
    settings = base.settings,
    capabilities = base.capabilities,
    handlers = base.handlers,
    on_attach = base.on_attach,
  },
  docs = {
    description = [[
https://github.com/akgen-lsp/akgen-lsp

The akgen language server for Ascend C kernels: static checks from the real Ascend C API, hover and completion from
its catalog, check on save on a CPU simulator of Ascend C, KernelGen-LM inline completions.
`:AkgenInstall` (with editors/nvim on the runtimepath) or `bash scripts/setup.sh` in a checkout installs `akgen`.
]],
  },
}
