-- akgen's user commands, defined whichever way the client was configured (setup(), lsp/akgen.lua, nvim-lspconfig).
if vim.g.loaded_akgen then
  return
end
vim.g.loaded_akgen = 1

local function command(name, fn, desc)
  vim.api.nvim_create_user_command(name, fn, { desc = desc })
end

command("AkgenInfo", function()
  require("akgen.ui").info()
end, "akgen: the server, its environment and the last check")
command("AkgenLog", function()
  require("akgen.ui").log()
end, "akgen: the server's messages")
command("AkgenCheck", function()
  require("akgen.ui").check()
end, "akgen: save and check this kernel now")
command("AkgenGenerate", function()
  require("akgen.ui").generate(false)
end, "akgen: generate this task's kernel with the model (verified on the simulator before it is written)")
command("AkgenImprove", function()
  require("akgen.ui").generate(true)
end, "akgen: performance rounds on this passing kernel (a faster one is written only if it still passes)")
command("AkgenGenerateCancel", function()
  require("akgen.ui").cancel_generate()
end, "akgen: stop the running generation")
command("AkgenRestart", function()
  require("akgen").restart()
end, "akgen: restart the language server")
command("AkgenInstall", function()
  require("akgen.install").install(function(cmd)
    if cmd then
      require("akgen").restart()
    end
  end)
end, "akgen: install the language server from this plugin's checkout into Neovim's data folder")
