"""Python companion of bench/metrics.ts (called by it; not meant to be run by hand, but it can be).

  python3 bench/metrics_compare.py nx <body.json> <metric> <reps>
      NetworkX "as a service built on it would": read the request body text (not timed), then time
      json.loads + graph build (nodes, edges with their attributes) + the metric + json.dumps of the
      {id: value} answer. Prints {"seconds": [...], "phases": {...}} (phases of the last repeat).
  python3 bench/metrics_compare.py kernels <edges.txt> <n> <what,...>
      igraph and networkit on the same undirected edge list, graph built untimed, kernels only:
      betweenness, closeness, louvain (igraph community_multilevel, networkit PLM), with 2 threads for
      networkit (the machine's cores). Prints {"<lib> <kernel>": seconds, ...} (median of repeats).
"""
import json
import statistics
import sys
import time


def nx_metric(name):
    import networkx as nx

    table = {
        "betweennessCentrality": nx.betweenness_centrality,
        "closenessCentrality": nx.closeness_centrality,
        "harmonicCentrality": nx.harmonic_centrality,
        "loadCentrality": nx.load_centrality,
        "currentFlowClosenessCentrality": nx.current_flow_closeness_centrality,
        "clustering": nx.clustering,
        "coreNumber": nx.core_number,
        "eigenvectorCentrality": lambda G: nx.eigenvector_centrality(G, max_iter=1000),
        "constraint": nx.constraint,
        "communities": lambda G: {
            v: i for i, c in enumerate(nx.community.louvain_communities(G, seed=0)) for v in c
        },
    }
    return table[name]


def run_nx(path, metric, reps):
    import networkx as nx

    text = open(path, encoding="utf8").read()
    f = nx_metric(metric)
    seconds = []
    phases = {}
    for _ in range(reps):
        t0 = time.perf_counter()
        body = json.loads(text)
        net = body["networkJSON"]
        t1 = time.perf_counter()
        G = nx.DiGraph() if body.get("isDirected", True) else nx.Graph()
        G.add_nodes_from((n["id"], n.get("attributes", {})) for n in net["nodes"])
        G.add_edges_from((e["source"], e["target"], e.get("attributes", {})) for e in net["edges"])
        t2 = time.perf_counter()
        values = f(G)
        t3 = time.perf_counter()
        out = json.dumps({"values": {metric: {str(k): v for k, v in values.items()}}})
        t4 = time.perf_counter()
        seconds.append(t4 - t0)
        phases = {"parse": t1 - t0, "build": t2 - t1, "metric": t3 - t2, "dumps": t4 - t3, "bytes": len(out)}
    print(json.dumps({"seconds": seconds, "phases": phases}))


def run_kernels(path, n, what):
    import igraph as ig
    import networkit as nk

    nk.setNumberOfThreads(2)
    edges = [tuple(map(int, line.split())) for line in open(path) if line.strip()]
    gi = ig.Graph(n=n, edges=edges, directed=False).simplify()
    gk = nk.Graph(n, weighted=False, directed=False)
    for u, v in edges:
        if u != v and not gk.hasEdge(u, v):
            gk.addEdge(u, v)
    res = {}

    def timed(label, f, reps):
        ts = []
        for _ in range(reps):
            t0 = time.perf_counter()
            f()
            ts.append(time.perf_counter() - t0)
        res[label] = statistics.median(ts)

    reps = 3
    if "betweenness" in what:
        timed("igraph betweenness", lambda: gi.betweenness(directed=False), 1)
        timed("networkit betweenness (2 threads)", lambda: nk.centrality.Betweenness(gk).run(), reps)
    if "closeness" in what:
        timed("igraph closeness", lambda: gi.closeness(), reps)
        timed("networkit closeness (2 threads)", lambda: nk.centrality.Closeness(gk, True, nk.centrality.ClosenessVariant.GENERALIZED).run(), reps)
    if "louvain" in what:
        q = {}

        def plm():
            algo = nk.community.PLM(gk, refine=False)
            algo.run()
            q["networkit"] = nk.community.Modularity().getQuality(algo.getPartition(), gk)

        def ml():
            q["igraph"] = gi.community_multilevel().modularity

        timed("networkit PLM (2 threads)", plm, reps)
        timed("igraph community_multilevel", ml, reps)
        res["modularity"] = q
    print(json.dumps(res))


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "nx":
        run_nx(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    elif cmd == "kernels":
        run_kernels(sys.argv[2], int(sys.argv[3]), sys.argv[4].split(","))
    else:
        sys.exit(f"unknown command {cmd}")
