" Ascend C sources (.asc) get their own filetype, highlighted as C++.
autocmd BufRead,BufNewFile *.asc setfiletype asc
