"""Another maker's module of one of our games (issue 33): its pieces and location names read as
ours, so that logs written on it can be audited by our rules (`hexforge map-pieces`, `audit --pieces`)."""
