" Ascend C is C++ with device keywords: use the C++ syntax.
if exists("b:current_syntax")
  finish
endif
runtime! syntax/cpp.vim
let b:current_syntax = "asc"
