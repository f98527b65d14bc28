"""Accounts: a name, a password (its Argon2id hash), an avatar, the guest identity it plays as (docs/accounts.md)."""
