"""Fixtures: the deterministic Polinode-specific metrics of docs/spec/metrics-extra.md (brokerage,
externalVsInternal, identifyInfluencers, informalAlignment, informalDistance, and complexCentrality with
threshold 1), from straightforward Python implementations of the written definitions, with NetworkX
for graphs and shortest paths."""
import networkx as nx

from common import networks, to_nx, _net

ROLES = ["Coordinator", "Consultant", "Gatekeeper", "Representative", "Liaison"]


def js_str(v):
    """String form as JavaScript's String(v) (attribute values are compared as strings)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def case(metric, name, entry, params, expected, tol=1e-9):
    return {"metric": metric, "name": name, "network": entry["network"], "isDirected": entry["isDirected"],
            "params": params, "expected": expected, "tol": tol}


def node_attr(entry, attr):
    out = {}
    for nd in entry["network"]["nodes"]:
        v = nd.get("attributes", {}).get(attr)
        if v is not None and v != "":
            out[str(nd["id"])] = js_str(v)
    return out


# ---------------------------------------------------------------- brokerage
def brokerage_ref(entry, partition, weight):
    G = to_nx(entry, weight=weight, self_loops=False)
    if weight is not None:
        G.remove_edges_from([(u, v) for u, v, d in G.edges(data=True) if not d["weight"] > 0])
    directed = G.is_directed()
    succ = (lambda x: G.successors(x)) if directed else (lambda x: G.neighbors(x))
    pred = (lambda x: G.predecessors(x)) if directed else (lambda x: G.neighbors(x))
    g = {v: js_str(partition[v]) for v in G}
    res = {r: {} for r in ROLES + ["Total"]}
    for b in G:
        cnt = dict.fromkeys(ROLES + ["Total"], 0)
        for a in pred(b):
            for c in succ(b):
                if a == c or G.has_edge(a, c):
                    continue
                ga, gb, gc = g[a], g[b], g[c]
                if ga == gb == gc:
                    r = "Coordinator"
                elif ga == gc != gb:
                    r = "Consultant"
                elif ga != gb == gc:
                    r = "Gatekeeper"
                elif ga == gb != gc:
                    r = "Representative"
                else:
                    r = "Liaison"
                cnt[r] += 1
                cnt["Total"] += 1
        for r in cnt:
            res[r][b] = cnt[r]
    return {f"Brokerage - {r}": res[r] for r in res}


def worked_example():
    groups = {"A": "x", "B": "x", "F": "x", "C": "y", "D": "y", "E": "z"}
    nodes = [{"id": k} for k in "ABCDEF"]
    edges = [{"id": i, "source": s, "target": t} for i, (s, t) in
             enumerate([("A", "B"), ("B", "C"), ("D", "B"), ("E", "B"), ("B", "F"), ("A", "F")])]
    return _net(nodes, edges, True), groups


def zero_weight_network():
    nodes = [{"id": i, "attributes": {"team": "ab"[i % 2]}} for i in range(6)]
    ties = [(0, 1, 1), (1, 2, 0), (2, 3, 2), (1, 3, 1), (3, 4, 0), (4, 5, 3), (0, 2, 0), (0, 2, 1), (5, 1, 1)]
    edges = [{"id": i, "source": s, "target": t, "attributes": {"weight": w}} for i, (s, t, w) in enumerate(ties)]
    return _net(nodes, edges, True)


def brokerage_cases(nets):
    out = []
    ex, groups = worked_example()
    out.append(case("brokerage", "worked example", ex, {"partition": groups}, brokerage_ref(ex, groups, None)))
    specs = [("karate", "club"), ("advice", "department"), ("advice_undirected", "department"), ("random_dir", "group"),
             ("random_und", "group"), ("random_sparse_dir", "group"), ("random_sparse_und", "score"), ("davis", "kind")]
    for name, attr in specs:
        entry = nets[name]
        part = node_attr(entry, attr)
        out.append(case("brokerage", f"{name}/{attr}", entry, {"partition": part}, brokerage_ref(entry, part, None)))
    # florentine: numeric groups from node index
    entry = nets["florentine"]
    part = {str(nd["id"]): i % 3 for i, nd in enumerate(entry["network"]["nodes"])}
    out.append(case("brokerage", "florentine/index%3", entry, {"partition": part}, brokerage_ref(entry, part, None)))
    zw = zero_weight_network()
    part = node_attr(zw, "team")
    out.append(case("brokerage", "zero-weight/unweighted", zw, {"partition": part}, brokerage_ref(zw, part, None)))
    out.append(case("brokerage", "zero-weight/weighted", zw, {"partition": part, "metricEdgeWeights": True},
                    brokerage_ref(zw, part, "weight")))
    zwu = dict(zw, isDirected=False)
    out.append(case("brokerage", "zero-weight-undirected/weighted", zwu, {"partition": part, "metricEdgeWeights": True},
                    brokerage_ref(zwu, part, "weight")))
    return out


# ---------------------------------------------------------------- externalVsInternal
def ei_ref(entry, attr, typ):
    val = node_attr(entry, attr)
    E, I = {}, {}
    for e in entry["network"].get("edges", []):
        s, t = str(e["source"]), str(e["target"])
        if s == t or s not in val or t not in val:
            continue
        same = val[s] == val[t]
        ends = []
        if not entry["isDirected"] or typ != "in":
            ends.append(s)
        if not entry["isDirected"] or typ != "out":
            ends.append(t)
        for x in ends:
            (I if same else E)[x] = (I if same else E).get(x, 0) + 1
    ext, inn, ei = {}, {}, {}
    for v in val:
        e, i = E.get(v, 0), I.get(v, 0)
        if e + i == 0:
            continue
        ext[v], inn[v], ei[v] = e / (e + i), i / (e + i), (e - i) / (e + i)
    return {"External": ext, "Internal": inn, "E-I Index": ei}


def ei_cases(nets):
    out = []
    specs = [("karate", "club"), ("advice", "department"), ("advice_undirected", "department"), ("random_dir", "group"),
             ("random_dir", "score"), ("random_und", "group"), ("random_sparse_dir", "group"), ("davis", "kind")]
    for name, attr in specs:
        for typ in ("total", "in", "out"):
            entry = nets[name]
            params = {"attribute": attr} if typ == "total" else {"attribute": attr, "type": typ}
            out.append(case("externalVsInternal", f"{name}/{attr}/{typ}", entry, params, ei_ref(entry, attr, typ)))
    # missing values: half the advice nodes lose their department
    entry = nets["advice"]
    holes = {"network": {"nodes": [dict(nd, attributes={"department": nd["attributes"]["department"]}) if i % 2 else {"id": nd["id"]}
                                   for i, nd in enumerate(entry["network"]["nodes"])], "edges": entry["network"]["edges"]},
             "isDirected": True}
    out.append(case("externalVsInternal", "advice/holes", holes, {"attribute": "department"}, ei_ref(holes, "department", "total")))
    return out


# ---------------------------------------------------------------- identifyInfluencers
def influencers_ref(entry, direction, method, count=None, target=90, attr=None, values=None):
    G = to_nx(entry, self_loops=False)
    n = G.number_of_nodes()
    order = list(G.nodes())
    pos = {v: i for i, v in enumerate(order)}
    if attr is None:
        cands = list(order)
    else:
        vals = node_attr(entry, attr)
        allowed = None if values is None else {js_str(x) for x in values}
        cands = [v for v in order if v in vals and (allowed is None or vals[v] in allowed)]

    def cov(v):
        s = {v}
        if not G.is_directed():
            s.update(G.neighbors(v))
        else:
            if direction in ("total", "out"):
                s.update(G.successors(v))
            if direction in ("total", "in"):
                s.update(G.predecessors(v))
        return s

    deg = dict(G.degree())
    covered, chosen = set(), []
    while True:
        if method == "count" and len(chosen) >= count:
            break
        if method == "coverage" and n > 0 and len(covered) / n >= target / 100:
            break
        best, bestkey = None, None
        for v in cands:
            if v in chosen:
                continue
            key = (len(cov(v) - covered), deg[v], -pos[v])
            if bestkey is None or key > bestkey:
                best, bestkey = v, key
        if best is None or bestkey[0] == 0:
            break
        chosen.append(best)
        covered |= cov(best)
    return {"Influencer": {v: k + 1 for k, v in enumerate(chosen)}}


def influencer_cases(nets):
    out = []
    for name in ("karate", "advice", "advice_undirected", "random_dir", "random_und", "random_sparse_dir", "random_sparse_und", "davis", "lesmis"):
        entry = nets[name]
        for direction in ("total", "in", "out"):
            for method, extra in (("coverage", {}), ("coverage", {"targetCoveragePercent": 50}), ("coverage", {"targetCoveragePercent": 100}),
                                  ("count", {"influencersCount": 3}), ("count", {"influencersCount": 1000})):
                params = dict({"direction": direction, "identifyInfluencersMethod": method}, **extra)
                exp = influencers_ref(entry, direction, method, count=extra.get("influencersCount"),
                                      target=extra.get("targetCoveragePercent", 90))
                out.append(case("identifyInfluencers", f"{name}/{direction}/{method}/{extra}", entry, params, exp))
    filters = [("advice", "department", ["Eng", "HR"]), ("random_dir", "group", ["a"]), ("random_dir", "score", [1, 2, 3]),
               ("karate", "club", None)]
    for name, attr, values in filters:
        entry = nets[name]
        params = {"identifyInfluencersAttribute": attr}
        if values is not None:
            params["identifyInfluencersAttributeValues"] = values
        out.append(case("identifyInfluencers", f"{name}/filter {attr}={values}", entry, params,
                        influencers_ref(entry, "total", "coverage", attr=attr, values=values)))
    return out


# ---------------------------------------------------------------- informal*
def informal_ref(entry, fa, fv, ia, iv):
    fv, iv = {js_str(x) for x in fv}, {js_str(x) for x in iv}
    F, I = nx.Graph(), nx.Graph()
    for nd in entry["network"]["nodes"]:
        F.add_node(str(nd["id"]))
        I.add_node(str(nd["id"]))
    for e in entry["network"].get("edges", []):
        u, v = str(e["source"]), str(e["target"])
        if u == v:
            continue
        a = e.get("attributes", {})
        if fa in a and js_str(a[fa]) in fv:
            F.add_edge(u, v)
        if ia in a and js_str(a[ia]) in iv:
            I.add_edge(u, v)
    align, dist = {}, {}
    for v in I:
        nb = list(I.neighbors(v))
        if not nb:
            continue
        align[v] = sum(1 for u in nb if F.has_edge(v, u)) / len(nb)
        lengths = nx.single_source_shortest_path_length(F, v)
        ds = [lengths[u] for u in nb if u in lengths]
        if ds:
            dist[v] = sum(ds) / len(ds)
    keys = list(dist)
    s = len(keys)
    ranked = {}
    if s == 1:
        ranked[keys[0]] = 1
    elif s > 1:
        from scipy.stats import rankdata  # imported here: scipy.stats costs ~1.5 s, live.py rarely needs it

        r = rankdata([dist[k] for k in keys], method="average")
        ranked = {k: (s - float(rk)) / (s - 1) for k, rk in zip(keys, r)}
    return {"Informal Alignment": align}, {"Informal Distance": dist, "Informal Distance - Ranked": ranked}


def informal_cases(nets):
    out = []
    specs = [("karate", "weight", [1, 2], "weight", [3, 4, 5, 6, 7]),
             ("karate", "weight", [1, 2, 3], "weight", [3, 4, 5]),
             ("lesmis", "weight", [1], "weight", [2, 3, 4, 5, 6, 7, 8, 9, 10]),
             ("advice", "weight", [1, 2], "strength", [1.5, 2, 2.5]),
             ("advice_undirected", "strength", ["0.5", 1], "weight", [2, 3, 4, 5]),
             ("random_dir", "weight", [1, 2, 3], "weight", [3, 4, 5]),
             ("random_und", "weight", [1, 2, 3], "weight", [4, 5]),
             ("random_sparse_und", "weight", [1, 2], "weight", [3, 4, 5])]
    for name, fa, fv, ia, iv in specs:
        entry = nets[name]
        params = {"fiFormalAttribute": fa, "fiFormalValues": fv, "fiInformalAttribute": ia, "fiInformalValues": iv}
        al, di = informal_ref(entry, fa, fv, ia, iv)
        out.append(case("informalAlignment", f"{name}/{fv}/{iv}", entry, params, al))
        out.append(case("informalDistance", f"{name}/{fv}/{iv}", entry, params, di))
    return out


# ---------------------------------------------------------------- complexCentrality, threshold 1
def complex_ref(entry, normalized):
    G = to_nx(entry, directed=False, self_loops=False)
    n = G.number_of_nodes()
    pl, reach = {}, {}
    for s in G:
        lengths = nx.single_source_shortest_path_length(G, s)
        pl[s] = sum(lengths.values()) / n
        reach[s] = len(lengths)
    if normalized:
        lo, hi = min(pl.values()), max(pl.values())
        pl = {k: (0 if hi == lo else (x - lo) / (hi - lo)) for k, x in pl.items()}
    return {"Complex Centrality": pl, "Complex Centrality - Reach": reach}


def complex_cases(nets):
    out = []
    for name, entry in nets.items():
        for normalized in (False, True):
            exp = complex_ref(entry, normalized)
            out.append(case("complexCentrality", f"{name}/T=1/norm={normalized}", entry,
                            {"complexCentralityThreshold": 1, "normalized": normalized}, exp))
        if name in ("karate", "lesmis", "random_und"):  # every round(0.01·deg) is 0 there -> T = 1
            out.append(case("complexCentrality", f"{name}/fractional 0.01", entry,
                            {"complexCentralityThreshold": 0.01, "complexCentralityThresholdType": "fractional"},
                            complex_ref(entry, False)))
    return out


def cases():
    nets = networks()
    return brokerage_cases(nets) + ei_cases(nets) + influencer_cases(nets) + informal_cases(nets) + complex_cases(nets)
