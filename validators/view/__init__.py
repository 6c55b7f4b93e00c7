"""`hexforge view`: a match as one self-contained HTML page (issue 34)."""
