"""Reading VASSAL saves and logs of any module: container, commands, steps."""
