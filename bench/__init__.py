"""Benchmarks (run each as ``python bench/<name>.py``).

A package so that tests import a benchmark's scoring functions and note sets by name
(``from bench import bench_detect``) rather than by file path.
"""
