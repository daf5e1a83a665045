"""Puts tests/ on the import path, so every test folder can use the shared helpers kept
here (browser_support)."""
