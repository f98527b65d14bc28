"""Quick match ("Jogar agora"): players who asked for the same table are seated together (docs/matchmaking.md)."""
