-- Minimal, hermetic init for the headless Neovim LSP test: no plugins, no shada, no swap.
vim.opt.shadafile = 'NONE'
vim.opt.swapfile = false
vim.opt.more = false
vim.opt.loadplugins = false
