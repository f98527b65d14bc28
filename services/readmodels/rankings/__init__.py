"""Rankings, player statistics and history: projections of the tables' streams (docs/rankings.md)."""
