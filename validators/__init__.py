"""The auditor: VASSAL save/log reading, replay and per-game rules checks (issue 4)."""
