# short.sed -- shortens gcnsim --trace=fifo output for the tutorial: each FIFO entry
# "0x16a8 buffer_load_dword v2, s[12:15], 0 offen lds" becomes "0x16a8 buffer_load_dword",
# so a FIFO of six entries fits on one line.  Usage: gcnsim ... --trace=fifo | sed -E -f short.sed
/cnt=[0-9]+  \[/ s/(0x[0-9a-f]+ [a-z_0-9]+)[^|]*( \||]$)/\1\2/g
