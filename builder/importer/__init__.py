"""`hexforge import`: a game's sources (sources/SLUG/, YAML) from any VASSAL module (issue 33).

archive.py opens the module with bounded work, modulefile.py reads its build file (maps, grids,
zones, piece slots, predefined setups), setups.py reads where each set-up piece stands, and
sources.py turns all of it into the game's files and the list of what could not be carried over.
"""
