"""Disputes: "Reportar problema" at a table, settled by staff from the table's record (docs/disputes.md)."""
