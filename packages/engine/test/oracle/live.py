"""Live NetworkX oracle for property tests: reads a batch of cases as JSON on stdin, answers a JSON list.

stdin:  {"cases": [{"metric": id, "network": {...}, "isDirected": bool, "params": {...}, ...extras}]}
stdout: {"results": [expected | {"error": "..."}]}, expected as in fixtures: {"<Attribute>": {"<id>": v}}
        for node metrics (unscored nodes absent), a number for network metrics; or
        {"expectError": "NOT_CONVERGED"} when NetworkX does not converge (the engine must refuse too);
        or {"skip": "why"} for a case the reference does not define (HITS with a repeated top singular
        value, iterations that converge only within a few steps of the limit).
`live.py --serve`: one case per stdin line, one result per stdout line (used to shrink a failure).

To add a metric: write `def my_metric(entry, params, case) -> expected` and register it in METRICS
(metric id -> function). `entry` is {"network", "isDirected"} as common.to_nx expects; `case` gives
access to test-only extras (e.g. the sampled sources the engine chose). Keep functions pure, and take
the semantics from the fixture generators' helpers (fx_*.py) rather than re-deriving them.
"""
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import networkx as nx  # noqa: E402

import fx_paths  # noqa: E402
from common import node_values, to_nx  # noqa: E402
from fx_extras import brokerage_ref, complex_ref, ei_ref, influencers_ref, informal_ref  # noqa: E402
from fx_local import eigenvector_expected, hits_expected, hits_ok, katz_expected, pagerank_expected  # noqa: E402
from fx_local2 import (avg_neighbor_expected, clustering_expected, components_expected, core_expected,  # noqa: E402
                       kclique_expected, modularity_expected, structural_holes_expected)


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
        vals = fx_paths.closeness_plain(G, wk)
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
    return {"Current Flow Closeness Centrality": node_values(fx_paths.current_flow(G, wk))}


def diameter(entry, _params, _case):
    return fx_paths.lcc_diameter(to_nx(entry, directed=False, self_loops=False))


def avg_spl(entry, _params, _case):
    return fx_paths.avg_spl(to_nx(entry, self_loops=False))


# ------------------------------------------------------------------ spectral (fx_local helpers)

NOT_CONVERGED = {"expectError": "NOT_CONVERGED"}


def _iterative(run, max_iter, margin):
    """NetworkX's answer with the endpoint's iteration limit, NOT_CONVERGED when NetworkX fails, or a skip
    when the outcome hinges on the last few steps (engine and NetworkX may round one step apart there)."""
    try:
        return run(max_iter - margin)  # converged early: same iterate as with the full limit
    except nx.PowerIterationFailedConvergence:
        pass
    try:
        run(max_iter + margin)
        return {"skip": "converges within a few steps of the iteration limit"}
    except nx.PowerIterationFailedConvergence:
        return NOT_CONVERGED


def eigenvector(entry, params, _case):
    G = to_nx(entry, weight=weight_attr(params))
    w = "weight" if weight_attr(params) else None
    return _iterative(lambda it: eigenvector_expected(G, w, max_iter=it), 1000, 10)


def katz(entry, params, _case):
    G = to_nx(entry, weight=weight_attr(params))
    w = "weight" if weight_attr(params) else None
    alpha, norm = params.get("katzCentralityAlpha"), params.get("normalized", True)
    return _iterative(lambda it: katz_expected(G, alpha, norm, w, max_iter=it), 1000, 10)


def pagerank(entry, params, _case):
    G = to_nx(entry, weight=weight_attr(params))
    w = "weight" if weight_attr(params) else None
    return _iterative(lambda it: pagerank_expected(G, params.get("alpha"), w, max_iter=it), 100, 3)


def hits(entry, params, _case):
    G = to_nx(entry)
    if G.number_of_edges() == 0:
        return {"Hubs": {}, "Authorities": {}}  # documented: a graph without edges scores no node
    if len(G) < 2:
        return {"skip": "NetworkX's svds needs at least 2 nodes"}
    if not hits_ok(G):
        return {"skip": "top singular value repeated: HITS undefined (svds answers any vector of the space)"}
    return hits_expected(G, params.get("normalized", True))


# ------------------------------------------------------------------ local / structural (fx_local2 helpers)

def clustering(entry, params, _case):
    return clustering_expected(entry, params.get("directed", True), weight_attr(params))


def _structural(metric):
    def run(entry, params, _case):
        return structural_holes_expected(entry, weight_attr(params))[metric]
    return run


def avg_neighbor(entry, params, _case):
    return avg_neighbor_expected(entry, weight_attr(params), params.get("averageNeighborDegreeSource", "out"),
                                 params.get("averageNeighborDegreeTarget", "out"), params.get("directed", True))


def modularity(entry, params, _case):
    return modularity_expected(entry, weight_attr(params), params["attribute"])


def core(entry, _params, _case):
    return core_expected(entry)


def components(entry, _params, _case):
    return components_expected(entry)


def kclique(entry, params, _case):
    return kclique_expected(entry, params.get("kCliqueCommunities", 2))


# ------------------------------------------------------------------ docs/spec/metrics-extra.md (fx_extras helpers)

def brokerage(entry, params, _case):
    return brokerage_ref(entry, params["partition"], weight_attr(params))


def external_internal(entry, params, _case):
    return ei_ref(entry, params["attribute"], params.get("type", "total"))


def influencers(entry, params, _case):
    return influencers_ref(entry, params.get("direction", "total"), params.get("identifyInfluencersMethod", "coverage"),
                           count=params.get("influencersCount"), target=params.get("targetCoveragePercent", 90),
                           attr=params.get("identifyInfluencersAttribute"), values=params.get("identifyInfluencersAttributeValues"))


def _informal(which):
    def run(entry, params, _case):
        res = informal_ref(entry, params["fiFormalAttribute"], params["fiFormalValues"],
                           params["fiInformalAttribute"], params["fiInformalValues"])
        return res[which]
    return run


def complex_centrality(entry, params, _case):
    t, kind = params.get("complexCentralityThreshold", 3), params.get("complexCentralityThresholdType", "absolute")
    G = to_nx(entry, directed=False, self_loops=False)
    max_deg = max((d for _, d in G.degree()), default=0)
    if not (kind == "absolute" and t == 1 or kind == "fractional" and round(t * max_deg) <= 1):
        return {"error": "complexCentrality oracle only for threshold 1 (deterministic)"}
    return complex_ref(entry, params.get("normalized", False))


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
    "eigenvectorCentrality": eigenvector,
    "katzCentrality": katz,
    "pageRank": pagerank,
    "HITS": hits,
    "clustering": clustering,
    "constraint": _structural("constraint"),
    "effectiveSize": _structural("effectiveSize"),
    "efficiency": _structural("efficiency"),
    "averageNeighborDegree": avg_neighbor,
    "modularity": modularity,
    "coreNumber": core,
    "connectedComponents": components,
    "kCliqueCommunities": kclique,
    "brokerage": brokerage,
    "externalVsInternal": external_internal,
    "identifyInfluencers": influencers,
    "informalAlignment": _informal(0),
    "informalDistance": _informal(1),
    "complexCentrality": complex_centrality,
}


def answer(case):
    fn = METRICS.get(case["metric"])
    if fn is None:
        return {"error": f"no oracle for {case['metric']}"}
    entry = {"network": case["network"], "isDirected": case["isDirected"]}
    try:
        return fn(entry, case.get("params", {}), case)
    except Exception as exc:  # report, don't die: one bad case must not hide the others
        return {"error": f"{type(exc).__name__}: {exc}"}


def main():
    if "--serve" in sys.argv[1:]:
        for line in sys.stdin:
            if line.strip():
                sys.stdout.write(json.dumps(answer(json.loads(line))) + "\n")
                sys.stdout.flush()
        return
    batch = json.load(sys.stdin)
    json.dump({"results": [answer(case) for case in batch["cases"]]}, sys.stdout)


if __name__ == "__main__":
    main()
