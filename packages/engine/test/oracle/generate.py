"""Generates golden fixtures from NetworkX 3.6.1 for every deterministic metric.

Usage: python3 packages/engine/test/oracle/generate.py [module ...]
Each module in this folder with a `cases()` function (a list of fixture dicts) writes
../fixtures/<module>.json. A fixture case:
  {"metric": id, "name": label, "network": {...}, "isDirected": bool, "params": {...},
   "expected": {"<Attribute>": {"<nodeId>": value}} | number, "tol": 1e-9}
"""
import importlib
import os
import sys

import networkx as nx

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from common import write_fixtures  # noqa: E402

assert nx.__version__.startswith("3.6"), f"NetworkX 3.6 expected, got {nx.__version__}"

MODULES = [m[:-3] for m in sorted(os.listdir(HERE)) if m.startswith("fx_") and m.endswith(".py")]

if __name__ == "__main__":
    wanted = sys.argv[1:] or MODULES
    for name in wanted:
        mod = importlib.import_module(name)
        write_fixtures(os.path.join(HERE, "..", "fixtures", name[3:] + ".json"), mod.cases())
