"""Fixtures: inDegree, outDegree, totalDegree."""
from common import networks, to_nx

WEIGHTS = [None, "weight", "cost"]


def cases():
    out = []
    for name, entry in networks().items():
        for w in WEIGHTS:
            G = to_nx(entry, weight=w)
            if G.is_directed():
                ind = dict(G.in_degree(weight="weight" if w else None))
                outd = dict(G.out_degree(weight="weight" if w else None))
                cnt_in, cnt_out = dict(G.in_degree()), dict(G.out_degree())
            else:
                ind = outd = dict(G.degree(weight="weight" if w else None))
                cnt_in = cnt_out = dict(G.degree())
            tot = {v: ind[v] + outd[v] for v in G} if G.is_directed() else ind
            cnt_tot = {v: cnt_in[v] + cnt_out[v] for v in G} if G.is_directed() else cnt_in
            params = {} if w is None else {"metricEdgeWeights": True if w == "weight" else w}
            for metric, attr, vals, cnt in (("inDegree", "In Degree", ind, cnt_in), ("outDegree", "Out Degree", outd, cnt_out),
                                            ("totalDegree", "Total Degree", tot, cnt_tot)):
                out.append({"metric": metric, "name": f"{name}/{w}", "network": entry["network"], "isDirected": entry["isDirected"],
                            "params": params, "expected": {attr: vals}, "tol": 1e-9})
                if w is not None:
                    avg = {v: (vals[v] / cnt[v] if cnt[v] else 0) for v in G}
                    out.append({"metric": metric, "name": f"{name}/{w}/average", "network": entry["network"],
                                "isDirected": entry["isDirected"], "params": dict(params, type="average"),
                                "expected": {attr: avg}, "tol": 1e-9})
    return out
