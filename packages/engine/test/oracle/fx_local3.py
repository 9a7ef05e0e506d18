"""Fixtures: coreNumber, connectedComponents, kCliqueCommunities, network modularity (see fx_local2)."""
from fx_local2 import GROUP3, all_cases


def cases():
    return [c for c in all_cases() if c["metric"] in GROUP3]
