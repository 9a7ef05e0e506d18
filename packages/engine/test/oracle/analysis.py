"""NetworkX reference of the group report and network compare (docs/spec/decisions.md §11), written from
the definitions alone (not from the engine's code): reads {"cases": [...]} on stdin, answers
{"results": [...]} on stdout.

A case is {"kind": "groups", "network", "isDirected", "params": {attribute, metricEdgeWeights?,
minGroupSize?}} or {"kind": "compare", "a": {"network", "isDirected"}, "b": {...}, "params": {metrics?,
attribute?, minGroupSize?, metricEdgeWeights?}}; results have the API's answer shape (without meta;
lists of ties are sorted so the test compares them as sets).
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import networkx as nx  # noqa: E402

from common import to_nx  # noqa: E402

NO_VALUE = "(no value)"


def weight_key(mew, network):
    """§4.1: true reads `weight`, or `Weight` when no edge has `weight` but one has `Weight`; a String names it."""
    if mew is None or mew is False:
        return None
    if isinstance(mew, str):
        return mew
    edges = network.get("edges", [])
    if any("weight" in (e.get("attributes") or {}) for e in edges):
        return "weight"
    if any("Weight" in (e.get("attributes") or {}) for e in edges):
        return "Weight"
    return "weight"


def tie_graph(network, directed, wkey):
    """Ties: distinct pairs after merging parallel (undirected: also reciprocal) edges, weights summed."""
    G = nx.DiGraph() if directed else nx.Graph()
    for node in network["nodes"]:
        G.add_node(str(node["id"]))
    for e in network.get("edges", []):
        u, v = str(e["source"]), str(e["target"])
        if u == v:
            continue
        w = (e.get("attributes") or {}).get(wkey, 1) if wkey else 1
        if G.has_edge(u, v):
            if wkey:
                G[u][v]["w"] += w
        else:
            G.add_edge(u, v, w=w)
    return G


def group_of(network, attribute):
    out = {}
    for node in network["nodes"]:
        raw = (node.get("attributes") or {}).get(attribute)
        out[str(node["id"])] = NO_VALUE if raw is None or raw == "" else str(raw)
    return out


def group_report(network, directed, params, G=None):
    attribute = params["attribute"]
    k = params.get("minGroupSize", 1)
    wkey = weight_key(params.get("metricEdgeWeights"), network)
    if G is None:
        G = tie_graph(network, directed, wkey)
    raw = group_of(network, attribute)
    size_raw = {}
    for g in raw.values():
        size_raw[g] = size_raw.get(g, 0) + 1
    other = f"Other (< {k})"
    final = {v: (g if size_raw[g] >= k else other) for v, g in raw.items()}
    suppressed = sum(s for s in size_raw.values() if s < k)
    size = {}
    for g in final.values():
        size[g] = size.get(g, 0) + 1
    counts = {}
    total = 0
    for u, v, d in G.edges(data=True):
        a, b = final[u], final[v]
        counts[(a, b)] = counts.get((a, b), 0) + d["w"]
        if not G.is_directed() and a != b:
            counts[(b, a)] = counts.get((b, a), 0) + d["w"]
        total += d["w"]
    kept = sorted(g for g in size if g != other and g != NO_VALUE)
    if NO_VALUE in size and size[NO_VALUE] >= k and NO_VALUE != other:
        kept.append(NO_VALUE)
    if other in size and size[other] >= k:
        kept.append(other)

    def pairs(s):
        return s * (s - 1) if G.is_directed() else s * (s - 1) / 2

    groups = []
    internal_all = 0
    all_groups = set(size)
    for g in all_groups:
        internal_all += counts.get((g, g), 0)
    for g in kept:
        internal = counts.get((g, g), 0)
        external = 0
        for h in all_groups:
            if h == g:
                continue
            external += counts.get((g, h), 0)
            if G.is_directed():
                external += counts.get((h, g), 0)
        p = pairs(size[g])
        groups.append({
            "value": g, "size": size[g], "internal": internal, "external": external,
            "density": internal / p if p > 0 else None,
            "ei": (external - internal) / (external + internal) if external + internal > 0 else None,
        })
    mcounts = [[counts.get((a, b), 0) for b in kept] for a in kept]
    mdens = []
    for a in kept:
        row = []
        for b in kept:
            p = pairs(size[a]) if a == b else size[a] * size[b]
            row.append(counts.get((a, b), 0) / p if p > 0 else None)
        mdens.append(row)
    external_all = total - internal_all
    return {
        "attribute": attribute, "groups": groups,
        "matrix": {"values": kept, "counts": mcounts, "densities": mdens},
        "ei": (external_all - internal_all) / total if total > 0 else None,
        "suppressed": suppressed, "directed": G.is_directed(), "ties": total,
    }


def first_metric(metric, entry):
    """The node metrics the compare test uses, from NetworkX on the graph of §4.1 (unweighted defaults)."""
    if metric == "totalDegree":
        G = to_nx(entry)
        return {v: float(d) for v, d in G.degree()}
    if metric == "harmonicCentrality":
        G = to_nx(entry, self_loops=False)
        return {v: x for v, x in nx.harmonic_centrality(G).items()}
    raise ValueError(metric)


def compare(case):
    a, b, params = case["a"], case["b"], case["params"]
    directed = a["isDirected"] and b["isDirected"]
    mew = params.get("metricEdgeWeights", True)
    Ga = tie_graph(a["network"], directed, weight_key(mew, a["network"]))
    Gb = tie_graph(b["network"], directed, weight_key(mew, b["network"]))
    ids_a = [str(n["id"]) for n in a["network"]["nodes"]]
    ids_b = [str(n["id"]) for n in b["network"]["nodes"]]
    set_a, set_b = set(ids_a), set(ids_b)

    def key(u, v):
        return (u, v) if directed or u < v else (v, u)

    ties_a = {key(u, v): d["w"] for u, v, d in Ga.edges(data=True)}
    ties_b = {key(u, v): d["w"] for u, v, d in Gb.edges(data=True)}
    out = {
        "directed": directed,
        "nodes": {"joined": sorted(set_b - set_a), "left": sorted(set_a - set_b), "kept": len(set_a & set_b)},
        "ties": {
            "added": sorted([list(t) for t in ties_b.keys() - ties_a.keys()]),
            "removed": sorted([list(t) for t in ties_a.keys() - ties_b.keys()]),
            "kept": len(ties_a.keys() & ties_b.keys()),
            "weightChanged": sorted([[t[0], t[1], ties_a[t], ties_b[t]] for t in ties_a.keys() & ties_b.keys() if ties_a[t] != ties_b[t]]),
        },
    }
    if params.get("metrics"):
        out["metrics"] = {}
        for m in params["metrics"]:
            va, vb = first_metric(m, a), first_metric(m, b)
            per = {}
            for v in set_a | set_b:
                x, y = va.get(v), vb.get(v)
                per[v] = {"a": x, "b": y, "delta": y - x if x is not None and y is not None else None}
            out["metrics"][m] = per
    if params.get("attribute") is not None:
        gp = {"attribute": params["attribute"], "minGroupSize": params.get("minGroupSize", 1), "metricEdgeWeights": mew}
        ra = group_report(a["network"], directed, gp, Ga)
        rb = group_report(b["network"], directed, gp, Gb)
        rows_a = {r["value"]: r for r in ra["groups"]}
        rows_b = {r["value"]: r for r in rb["groups"]}

        def sub(x, y):
            return y - x if x is not None and y is not None else None

        groups = []
        for value in sorted(rows_a.keys() | rows_b.keys()):
            x, y = rows_a.get(value), rows_b.get(value)
            groups.append({"value": value, "a": x, "b": y,
                           "densityChange": sub(x and x["density"], y and y["density"]),
                           "eiChange": sub(x and x["ei"], y and y["ei"])})
        out["groups"] = groups
        out["ei"] = {"a": ra["ei"], "b": rb["ei"], "change": sub(ra["ei"], rb["ei"])}
        out["suppressed"] = {"a": ra["suppressed"], "b": rb["suppressed"]}
    return out


def main():
    cases = json.load(sys.stdin)["cases"]
    results = []
    for case in cases:
        if case["kind"] == "groups":
            results.append(group_report(case["network"], case["isDirected"], case["params"]))
        else:
            results.append(compare(case))
    json.dump({"results": results}, sys.stdout)


if __name__ == "__main__":
    main()
