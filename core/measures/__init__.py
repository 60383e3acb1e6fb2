"""Measures of a table: integer coding and equivalence classes, the privacy models, the
distributions of sensitive values they read (STYLE.md "measures/")."""
