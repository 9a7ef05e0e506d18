"""Live NetworkX oracle for property tests: reads a batch of cases as JSON on stdin, answers a JSON list.

stdin:  {"cases": [{"metric": id, "network": {...}, "isDirected": bool, "params": {...}, ...extras}]}
stdout: {"results": [expected | {"error": "..."}]}, expected as in fixtures: {"<Attribute>": {"<id>": v}}
        for node metrics (unscored nodes absent), a number for network metrics.

To add a metric: write `def my_metric(entry, params, case) -> expected` and register it in METRICS
(metric id -> function). `entry` is {"network", "isDirected"} as common.to_nx expects; `case` gives
access to test-only extras (e.g. the sampled sources the engine chose). Keep functions pure.
"""
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import networkx as nx  # noqa: E402

from common import node_values, to_nx  # noqa: E402


def weight_attr(params):
    w = params.get("metricEdgeWeights")
    if w is True or w == "true":
        return "weight"
    if isinstance(w, str) and w not in ("", "false"):
        return w
    return None


class FixedSample(random.Random):
    """A Random whose sample() returns given nodes: lets NetworkX use the engine's sampled sources."""

    def __init__(self, nodes):
        super().__init__(0)
        self._nodes = nodes

    def sample(self, population, k, **_kw):
        assert k == len(self._nodes)
        return list(self._nodes)


# ------------------------------------------------------------------ degree

def _degree(which):
    def run(entry, params, _case):
        w = weight_attr(params)
        G = to_nx(entry, weight=w)
        wk = "weight" if w else None
        if G.is_directed():
            parts = {"in": [G.in_degree], "out": [G.out_degree], "total": [G.in_degree, G.out_degree]}[which]
        else:
            parts = [G.degree]
        vals = {v: sum(f(v, weight=wk) for f in parts) for v in G}
        if w and params.get("type") == "average":
            cnt = {v: sum(f(v) for f in parts) for v in G}
            vals = {v: (vals[v] / cnt[v] if cnt[v] else 0) for v in G}
        attr = {"in": "In Degree", "out": "Out Degree", "total": "Total Degree"}[which]
        return {attr: node_values(vals)}
    return run


# ------------------------------------------------------------------ paths

def _path_graph(entry, params, keep_direction=True):
    d = params.get("directed", True) if keep_direction else True
    return to_nx(entry, directed=d, weight=weight_attr(params), self_loops=False)


def betweenness(entry, params, case):
    G = _path_graph(entry, params)
    wk = "weight" if weight_attr(params) else None
    norm = params.get("normalized", True)
    if params.get("kPercent", 100) < 100 and "sources" in case:
        k = len(case["sources"])
        if k == len(G):
            vals = nx.betweenness_centrality(G, normalized=norm, weight=wk)
        else:
            srcs = [str(s) for s in case["sources"]]
            vals = nx.betweenness_centrality(G, k=k, normalized=norm, weight=wk, seed=FixedSample(srcs))
    else:
        vals = nx.betweenness_centrality(G, normalized=norm, weight=wk)
    return {"Betweenness Centrality": node_values(vals)}


def _incoming(G, v, wk):
    R = G.reverse() if G.is_directed() else G
    return nx.single_source_dijkstra_path_length(R, v, weight=wk) if wk else nx.single_source_shortest_path_length(R, v)


def closeness(entry, params, case):
    G = _path_graph(entry, params)
    wk = "weight" if weight_attr(params) else None
    norm = params.get("normalized", True)
    n = len(G)
    if params.get("kPercent", 100) < 100 and "pivots" in case:
        # pivot estimator of the engine (see paths.ts) on the largest weakly connected component
        U = G.to_undirected() if G.is_directed() else G
        comp = max(nx.connected_components(U), key=len) if n else set()
        C = len(comp)
        pivots = [str(p) for p in case["pivots"]]
        K = len(pivots)
        sums = {v: 0.0 for v in comp}
        cnts = {v: 0 for v in comp}
        own = {}
        for p in pivots:
            sp = nx.single_source_dijkstra_path_length(G, p, weight=wk) if wk else nx.single_source_shortest_path_length(G, p)
            own[p] = sum(sp.values())
            for v, d in sp.items():
                if v != p:
                    sums[v] += d
                    cnts[v] += 1
        out = {}
        for v in comp:
            if not G.is_directed() and v in own:
                tot, rm1 = own[v], C - 1
            else:
                others = K - (1 if v in own else 0)
                if others == 0:
                    continue
                f = (C - 1) / others
                tot = sums[v] * f
                rm1 = cnts[v] * f if G.is_directed() else C - 1
            out[v] = 0.0 if not (tot > 0) or n <= 1 else ((rm1 / tot) * (rm1 / (n - 1)) if norm else 1.0 / tot)
        return {"Closeness Centrality": node_values(out)}
    if norm:
        vals = nx.closeness_centrality(G, distance=wk, wf_improved=True)
    else:
        vals = {}
        for v in G:
            tot = sum(_incoming(G, v, wk).values())
            vals[v] = 1.0 / tot if tot > 0 else 0.0
    return {"Closeness Centrality": node_values(vals)}


def harmonic(entry, _params, _case):
    return {"Harmonic Centrality": node_values(nx.harmonic_centrality(to_nx(entry, self_loops=False)))}


def load(entry, params, _case):
    G = to_nx(entry, weight=weight_attr(params), self_loops=False)
    wk = "weight" if weight_attr(params) else None
    return {"Load Centrality": node_values(nx.load_centrality(G, normalized=params.get("normalized", True), weight=wk))}


def current_flow(entry, params, _case):
    G = to_nx(entry, directed=False, weight=weight_attr(params), self_loops=False)
    wk = "weight" if weight_attr(params) else None
    out = {}
    for comp in nx.connected_components(G):
        if len(comp) >= 2:
            out.update(nx.current_flow_closeness_centrality(G.subgraph(comp), weight=wk))
    return {"Current Flow Closeness Centrality": node_values(out)}


def diameter(entry, _params, _case):
    U = to_nx(entry, directed=False, self_loops=False)
    if len(U) == 0:
        return 0
    return nx.diameter(U.subgraph(max(nx.connected_components(U), key=len)))


def avg_spl(entry, _params, _case):
    G = to_nx(entry, self_loops=False)
    tot = pairs = 0
    for u in G:
        for v, d in nx.single_source_shortest_path_length(G, u).items():
            if v != u:
                tot += d
                pairs += 1
    return tot / pairs if pairs else 0


METRICS = {
    "inDegree": _degree("in"),
    "outDegree": _degree("out"),
    "totalDegree": _degree("total"),
    "betweennessCentrality": betweenness,
    "closenessCentrality": closeness,
    "harmonicCentrality": harmonic,
    "loadCentrality": load,
    "currentFlowClosenessCentrality": current_flow,
    "diameter": diameter,
    "avgShortestPathLength": avg_spl,
}


def main():
    batch = json.load(sys.stdin)
    results = []
    for case in batch["cases"]:
        fn = METRICS.get(case["metric"])
        if fn is None:
            results.append({"error": f"no oracle for {case['metric']}"})
            continue
        entry = {"network": case["network"], "isDirected": case["isDirected"]}
        try:
            results.append(fn(entry, case.get("params", {}), case))
        except Exception as exc:  # report, don't die: one bad case must not hide the others
            results.append({"error": f"{type(exc).__name__}: {exc}"})
    json.dump({"results": results}, sys.stdout)


if __name__ == "__main__":
    main()
