"""Reference modularities of NetworkX 3.6 Louvain for the communities property tests.

Usage: python3 packages/engine/test/oracle/louvain_reference.py
Writes louvain_reference.json next to this file: for each test graph its network JSON (edge list),
whether weights are used, and NetworkX's `modularity(G, louvain_communities(G, weight, seed=s))` for
seeds 0..4 (mean and max), plus NetworkX's run time. communities.test.ts requires the engine's
modularity to be ≥ 0.99 × the NetworkX mean on each graph.
Not a fixtures/*.json file (the conformance runner would take it for golden cases)."""
import json
import os
import statistics
import time

import networkx as nx
from networkx.algorithms.community import louvain_communities, modularity

from common import networks, to_nx, from_nx, _net

HERE = os.path.dirname(os.path.abspath(__file__))


def graphs():
    nets = networks()
    out = [("karate", nets["karate"], None), ("karate_weighted", nets["karate"], "weight"),
           ("lesmis", nets["lesmis"], None), ("lesmis_weighted", nets["lesmis"], "weight"),
           ("random_und", nets["random_und"], None), ("random_dir_weighted", nets["random_dir"], "weight"),
           ("advice", nets["advice"], None)]
    pp = nx.planted_partition_graph(8, 40, 0.3, 0.02, seed=7)
    out.append(("planted_8x40", _net(*from_nx(pp), False), None))
    try:
        lfr = nx.LFR_benchmark_graph(3000, 2.5, 1.5, 0.3, average_degree=12, max_degree=60, min_community=30, seed=11)
        lfr.remove_edges_from(nx.selfloop_edges(lfr))
        G = nx.Graph()
        G.add_nodes_from(lfr.nodes())
        G.add_edges_from(lfr.edges())
        out.append(("lfr_3000", _net(*from_nx(G), False), None))
    except nx.ExceededMaxIterations:
        pass
    ba = nx.barabasi_albert_graph(3000, 3, seed=5)
    out.append(("ba_3000", _net(*from_nx(ba), False), None))
    return out


def main():
    result = []
    for name, entry, w in graphs():
        G = to_nx(entry, directed=False, weight=w)
        mods = []
        t0 = time.perf_counter()
        for s in range(5):
            comms = louvain_communities(G, weight="weight", resolution=1, threshold=1e-7, seed=s)
            mods.append(modularity(G, comms, weight="weight"))
        elapsed = (time.perf_counter() - t0) / 5
        net = entry["network"]
        slim = {"nodes": [{"id": n["id"]} for n in net["nodes"]],
                "edges": [{k: e[k] for k in ("id", "source", "target", "attributes") if k in e} for e in net["edges"]]}
        if w is None:
            for e in slim["edges"]:
                e.pop("attributes", None)
        result.append({"name": name, "network": slim, "isDirected": entry["isDirected"],
                       "params": {} if w is None else {"metricEdgeWeights": True},
                       "nxModularityMean": statistics.mean(mods), "nxModularityMax": max(mods),
                       "nxSeconds": round(elapsed, 4)})
        print(name, G.number_of_nodes(), G.number_of_edges(), round(statistics.mean(mods), 4), round(max(mods), 4), round(elapsed, 3))
    with open(os.path.join(HERE, "louvain_reference.json"), "w") as fh:
        json.dump(result, fh, separators=(",", ":"))


if __name__ == "__main__":
    main()
