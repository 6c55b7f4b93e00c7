"""The rules kernel: rules as registered objects run by one engine over the replay, the game state
driven by the sequence of play, and the mechanisms the games share, parametrised by their tables
(README.md in this folder)."""
