"""Dashboard helpers shared by app.py and pages/ (the only place with session state)."""
