# Reads a PGN file with Scid (tkscid, Debian package scid) and prints each game's final FEN
# and ply; import messages go to stderr. Used by crates/pgn/tests/scid.rs.
set pgn [lindex $argv 0]
set db [file join [file dirname $pgn] "scid-check-[pid]"]
set base [sc_base create $db]
set result [sc_base import $base $pgn]
puts stderr "import: $result"
set n [sc_base numGames $base]
sc_base switch $base
for {set i 1} {$i <= $n} {incr i} {
  sc_game load $i
  sc_move end
  puts "[sc_pos fen] [sc_pos location]"
}
sc_base close $base
file delete {*}[glob -nocomplain $db.*]
exit 0
