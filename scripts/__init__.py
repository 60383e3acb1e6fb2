"""Scripts of the project (sample-data generators, setup and test runners).

A package so that tests and benchmarks import the generators by name
(``from scripts import make_pii_data``) rather than by file path.
"""
