"""The metric folders, installed as the package data ``taskeval._metrics``.

Each sub-folder is a self-contained ``evaluate`` metric: ``evaluate.load(<folder path>)`` works
with only evaluate, datasets and numpy installed.
"""
