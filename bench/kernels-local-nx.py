"""NetworkX timings for the metrics of bench/kernels-local.ts on the same network.

Usage: npx node bench/kernels-local.ts 50000 5 --write /tmp/ba.json && python3 bench/kernels-local-nx.py /tmp/ba.json [--directed]
Times NetworkX end to end from the network JSON (building the graph as test/oracle/common.py does, then
the function), and the function alone."""
import json
import sys
import time

import networkx as nx

path = sys.argv[1]
directed = "--directed" in sys.argv
net = json.load(open(path))


def build(self_loops=True, as_directed=directed):
    G = nx.DiGraph() if as_directed else nx.Graph()
    G.add_nodes_from(str(n["id"]) for n in net["nodes"])
    for e in net["edges"]:
        u, v = str(e["source"]), str(e["target"])
        if u != v or self_loops:
            G.add_edge(u, v, weight=1)
    return G


def bench(label, f, self_loops=True):
    t0 = time.perf_counter()
    G = build(self_loops)
    t1 = time.perf_counter()
    try:
        f(G)
        note = ""
    except Exception as exc:  # noqa: BLE001
        note = f"  ({type(exc).__name__})"
    t2 = time.perf_counter()
    print(f"{label:40s} end-to-end {t2 - t0:8.3f} s   function {t2 - t1:8.3f} s{note}", flush=True)


bench("clustering", lambda G: nx.clustering(G), self_loops=False)
bench("core_number", lambda G: nx.core_number(G), self_loops=False)
bench("eigenvector_centrality", lambda G: nx.eigenvector_centrality(G, max_iter=1000, tol=1e-10))
bench("constraint", lambda G: nx.constraint(G))
bench("katz_centrality alpha=0.01", lambda G: nx.katz_centrality(G, alpha=0.01, max_iter=1000, tol=1e-10))
bench("hits", lambda G: nx.hits(G, max_iter=1000, tol=1e-10))
bench("pagerank", lambda G: nx.pagerank(G))
bench("average_neighbor_degree", lambda G: nx.average_neighbor_degree(G))
bench("k_clique_communities k=3", lambda G: list(nx.community.k_clique_communities(G.to_undirected(), 3)))
