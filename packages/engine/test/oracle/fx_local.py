"""Fixtures: spectral metrics — eigenvectorCentrality, katzCentrality, HITS, pageRank.

Cases NetworkX cannot compute (PowerIterationFailedConvergence) are not fixtures; they are written to
../fixtures/local-errors.jsonl (one case per line, expected error code) and checked by test/local.test.ts.
"""
import json
import os

import networkx as nx
import numpy as np

from common import networks, to_nx

HERE = os.path.dirname(os.path.abspath(__file__))


def weight_variants(name):
    """(label, attribute name used by to_nx, metricEdgeWeights value)."""
    out = [(None, None, None), ("weight", "weight", True)]
    if name.startswith("random"):
        out.append(("cost", "cost", "cost"))
    if name.startswith("advice"):
        out.append(("strength", "strength", "strength"))
    return out


def extra_networks():
    """Extra networks with many triangles and cliques (plc) and a directed version of it."""
    out = {}
    G = nx.powerlaw_cluster_graph(150, 3, 0.5, seed=7)
    nodes = [{"id": v, "attributes": {"half": "low" if v < 75 else "high"}} for v in G]
    edges = [{"id": i, "source": u, "target": v, "attributes": {"weight": 1 + (u * 7 + v * 3) % 5}} for i, (u, v) in enumerate(G.edges())]
    out["plc"] = {"network": {"nodes": nodes, "edges": edges}, "isDirected": False}
    # directed: orient by parity, add some reciprocal arcs and a self-loop
    dedges = []
    for i, (u, v) in enumerate(G.edges()):
        s, t = (u, v) if (u + v) % 2 else (v, u)
        dedges.append({"id": len(dedges), "source": s, "target": t, "attributes": {"weight": 1 + (u + v) % 4}})
        if (u * v) % 5 == 0:
            dedges.append({"id": len(dedges), "source": t, "target": s, "attributes": {"weight": 2}})
    dedges.append({"id": len(dedges), "source": 3, "target": 3, "attributes": {"weight": 2}})
    out["plc_dir"] = {"network": {"nodes": nodes, "edges": dedges}, "isDirected": True}
    return out


def all_networks():
    d = networks()
    d.update(extra_networks())
    return d


def params_for(mw, **kw):
    p = dict(kw)
    if mw is not None:
        p["metricEdgeWeights"] = mw
    return p


def case(metric, name, entry, params, expected, tol):
    return {"metric": metric, "name": name, "network": entry["network"], "isDirected": entry["isDirected"],
            "params": params, "expected": expected, "tol": tol}


def vals(d):
    return {str(k): float(v) for k, v in d.items()}


def eigenvector_expected(G, w, max_iter=1000):
    """NetworkX eigenvector centrality (raises nx.PowerIterationFailedConvergence). The expected-value helpers
    here and in fx_local2 / fx_extras are shared with live.py (the property tests); `max_iter` other than
    the endpoint's is only for live.py's probes of borderline convergence."""
    return {"Eigenvector Centrality": vals(nx.eigenvector_centrality(G, max_iter=max_iter, tol=1e-10, weight=w))}


def katz_expected(G, alpha, norm, w, max_iter=1000):
    """NetworkX Katz centrality; alpha None = the endpoint default 0.1."""
    x = nx.katz_centrality(G, alpha=alpha or 0.1, beta=1.0, max_iter=max_iter, tol=1e-10, normalized=norm, weight=w)
    return {"Katz Centrality": vals(x)}


def pagerank_expected(G, alpha, w, max_iter=100):
    """NetworkX PageRank; alpha None = the endpoint default 0.85."""
    return {"PageRank": vals(nx.pagerank(G, alpha=alpha or 0.85, weight=w, max_iter=max_iter))}


def hits_expected(G, norm):
    """NetworkX HITS with the engine's sign convention (non-negative vectors). Only when hits_ok(G)."""
    h, a = nx.hits(G, max_iter=1000, tol=1e-10, normalized=norm)
    if sum(a.values()) < 0:  # svds sign is arbitrary; the engine returns the non-negative vector
        h = {k: -v for k, v in h.items()}
        a = {k: -v for k, v in a.items()}
    return {"Hubs": vals(h), "Authorities": vals(a)}


def hits_ok(G):
    """True when the top singular value is simple (HITS well defined) and the graph has edges."""
    if G.number_of_edges() == 0:
        return False
    A = nx.to_numpy_array(G, weight=None)
    s = np.linalg.svd(A, compute_uv=False)
    return len(s) < 2 or (s[0] - s[1]) / s[0] > 1e-3


def cases():
    out = []
    errors = []
    for name, entry in all_networks().items():
        for wl, wa, mw in weight_variants(name):
            G = to_nx(entry, weight=wa)
            w = "weight" if wa else None
            label = f"{name}/{wl}"
            # eigenvector
            try:
                out.append(case("eigenvectorCentrality", label, entry, params_for(mw), eigenvector_expected(G, w), 1e-6))
            except nx.PowerIterationFailedConvergence:
                errors.append(case("eigenvectorCentrality", label, entry, params_for(mw), "NOT_CONVERGED", 0))
            # katz
            for alpha, norm in ((None, True), (0.05, True), (0.05, False), (0.02, True), (0.3, True)):
                kw = {}
                if alpha is not None:
                    kw["katzCentralityAlpha"] = alpha
                if not norm:
                    kw["normalized"] = False
                try:
                    out.append(case("katzCentrality", f"{label}/a={alpha}/n={norm}", entry, params_for(mw, **kw), katz_expected(G, alpha, norm, w), 1e-6))
                except nx.PowerIterationFailedConvergence:
                    errors.append(case("katzCentrality", f"{label}/a={alpha}/n={norm}", entry, params_for(mw, **kw), "NOT_CONVERGED", 0))
            # pagerank
            for alpha in (None, 0.5):
                kw = {} if alpha is None else {"alpha": alpha}
                try:
                    out.append(case("pageRank", f"{label}/a={alpha}", entry, params_for(mw, **kw), pagerank_expected(G, alpha, w), 1e-6))
                except nx.PowerIterationFailedConvergence:
                    errors.append(case("pageRank", f"{label}/a={alpha}", entry, params_for(mw, **kw), "NOT_CONVERGED", 0))
        # HITS (unweighted endpoint)
        G = to_nx(entry)
        if hits_ok(G):
            for norm in (True, False):
                out.append(case("HITS", f"{name}/n={norm}", entry, {} if norm else {"normalized": False},
                                hits_expected(G, norm), 1e-6))
    # a directed path: eigenvector iteration never settles (NetworkX fails too)
    path = {"network": {"nodes": [{"id": i} for i in range(30)],
                        "edges": [{"id": i, "source": i, "target": i + 1} for i in range(29)]}, "isDirected": True}
    try:
        nx.eigenvector_centrality(to_nx(path), max_iter=1000, tol=1e-10)
        raise AssertionError("expected NetworkX to fail on the directed path")
    except nx.PowerIterationFailedConvergence:
        errors.append(case("eigenvectorCentrality", "path30", path, {}, "NOT_CONVERGED", 0))
    with open(os.path.join(HERE, "..", "fixtures", "local-errors.jsonl"), "w") as fh:
        for e in errors:
            fh.write(json.dumps(e, separators=(",", ":")) + "\n")
    print(f"{len(errors)} error cases")
    return out
