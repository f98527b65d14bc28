"""The platform's streams as a whole: backed up and restored with their sequences (docs/operations.md)."""
