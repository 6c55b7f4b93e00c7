"""Hex geometry: one grid, written once, used to draw the map, to write VASSAL's HexGrid
and numbering, and to turn logged pixel positions back into hex labels."""
from builder.geometry.hexmap import HexMap, Hexside

__all__ = ["HexMap", "Hexside"]
