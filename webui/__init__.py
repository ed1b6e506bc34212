"""The local web dashboard (Flask)."""
