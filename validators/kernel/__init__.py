"""Rules machinery shared by every game: terrain costs and path search, read from the sources."""
