"""VASSAL's vocabulary (trait strings, build file, saves) lives here and in the log reader only."""
