"""Shared helpers for the NetworkX oracle: the test networks and the graph-building rules of
docs/spec/decisions.md §4.1 (node order kept, parallel/reciprocal edges merged with summed weights, missing
weight = 1, self-loops kept or dropped as the metric needs).

Every fixture generator imports this so all metrics are checked on the same networks."""
import json
import math
import random

import networkx as nx


def _net(nodes, edges, directed):
    return {"network": {"nodes": nodes, "edges": edges}, "isDirected": directed}


def from_nx(G, weight_key=None, id_map=None, attr_keys=()):
    """Network JSON from a NetworkX graph (edge order as NetworkX yields it)."""
    idf = id_map or (lambda v: v)
    nodes = []
    for v, data in G.nodes(data=True):
        attrs = {k: data[k] for k in attr_keys if k in data}
        node = {"id": idf(v)}
        if attrs:
            node["attributes"] = attrs
        nodes.append(node)
    edges = []
    it = G.edges(keys=True, data=True) if G.is_multigraph() else ((u, v, None, d) for u, v, d in G.edges(data=True))
    for i, (u, v, _k, d) in enumerate(it):
        e = {"id": i, "source": idf(u), "target": idf(v)}
        if weight_key and weight_key in d:
            e["attributes"] = {"weight": d[weight_key]}
        edges.append(e)
    return nodes, edges


def advice_network():
    """A small directed advice network (who asks whom for advice) with string ids, departments,
    reciprocal and parallel edges, a self-loop, an isolate and weighted ties."""
    people = [("ana", "Sales"), ("ben", "Sales"), ("cho", "Eng"), ("dee", "Eng"), ("eli", "Eng"),
              ("fay", "HR"), ("gus", "HR"), ("hal", "Sales"), ("ivy", "Eng"), ("jon", "Ops"),
              ("kim", "Ops"), ("lou", "Ops")]
    ties = [("ana", "ben", 3), ("ben", "ana", 1), ("ana", "cho", 2), ("cho", "dee", 5), ("dee", "cho", 1),
            ("dee", "eli", 2), ("eli", "cho", 4), ("fay", "gus", 1), ("gus", "ana", 2), ("hal", "ana", 1),
            ("hal", "ben", 2), ("ivy", "cho", 3), ("ivy", "dee", 1), ("ben", "cho", 1), ("cho", "fay", 2),
            ("ana", "ben", 2), ("eli", "eli", 1), ("jon", "kim", 1), ("kim", "jon", 3), ("fay", "hal", 1),
            ("gus", "hal", 2), ("dee", "ivy", 1)]
    nodes = [{"id": p, "attributes": {"name": p.title(), "department": d}} for p, d in people]
    nodes.append({"id": "lou", "attributes": {"name": "Lou", "department": "Ops"}})
    nodes = [n for i, n in enumerate(nodes) if n["id"] not in [m["id"] for m in nodes[:i]]]
    edges = [{"id": f"e{i}", "source": s, "target": t, "attributes": {"weight": w, "strength": w * 0.5}}
             for i, (s, t, w) in enumerate(ties)]
    return _net(nodes, edges, True)


def random_network(n, p, directed, seed, loops=True, parallel=True, str_ids=False):
    rng = random.Random(seed)
    ids = [f"n{i}" if str_ids else i for i in range(n)]
    nodes = [{"id": i, "attributes": {"group": rng.choice(["a", "b", "c"]), "score": rng.randint(1, 9)}} for i in ids]
    edges = []
    for i in range(n):
        for j in range(n):
            if i == j and not loops:
                continue
            if (directed or i <= j) and rng.random() < p:
                edges.append({"id": len(edges), "source": ids[i], "target": ids[j],
                              "attributes": {"weight": rng.randint(1, 5), "cost": round(rng.uniform(0.1, 3), 3)}})
                if parallel and rng.random() < 0.1:
                    edges.append({"id": len(edges), "source": ids[i], "target": ids[j],
                                  "attributes": {"weight": rng.randint(1, 5)}})
    return _net(nodes, edges, directed)


def networks():
    """name -> {"network", "isDirected"}: the classic and random networks every metric is checked on."""
    out = {}
    k = nx.karate_club_graph()  # edge attribute 'weight'
    nodes, edges = from_nx(k, weight_key="weight")
    for v, node in zip(k.nodes(), nodes):
        node["attributes"] = {"club": k.nodes[v]["club"]}
    out["karate"] = _net(nodes, edges, False)
    f = nx.florentine_families_graph()
    out["florentine"] = _net(*from_nx(f), False)
    lm = nx.les_miserables_graph()
    out["lesmis"] = _net(*from_nx(lm, weight_key="weight"), False)
    dw = nx.davis_southern_women_graph()
    nodes, edges = from_nx(dw)
    for v, node in zip(dw.nodes(), nodes):
        node["attributes"] = {"kind": "woman" if dw.nodes[v]["bipartite"] == 0 else "event"}
    out["davis"] = _net(nodes, edges, False)
    out["advice"] = advice_network()
    out["advice_undirected"] = dict(advice_network(), isDirected=False)
    out["random_dir"] = random_network(40, 0.08, True, 1)
    out["random_und"] = random_network(40, 0.1, False, 2, str_ids=True)
    out["random_sparse_dir"] = random_network(60, 0.02, True, 3)  # disconnected, isolates
    out["random_sparse_und"] = random_network(60, 0.025, False, 4)
    return out


def to_nx(entry, directed=None, weight=None, self_loops=True):
    """The graph of docs/spec/decisions.md §4.1. `directed` None = the network's own direction.
    `weight` None = unweighted (every merged edge 1, stored as attribute 'weight' = 1), else the attribute name.
    Weights of merged edges are summed; the graph's edge attribute is always named 'weight'."""
    net = entry["network"]
    d = entry["isDirected"] if directed is None else (entry["isDirected"] and directed)
    G = nx.DiGraph() if d else nx.Graph()
    for node in net["nodes"]:
        G.add_node(str(node["id"]), **node.get("attributes", {}))
    for e in net.get("edges", []):
        u, v = str(e["source"]), str(e["target"])
        if u == v and not self_loops:
            continue
        w = 1
        if weight is not None:
            w = e.get("attributes", {}).get(weight, 1)
        if G.has_edge(u, v):
            if weight is not None:
                G[u][v]["weight"] += w
        else:
            G.add_edge(u, v, weight=w)
    return G


def clean(x):
    """JSON-safe float (NaN/inf are 'not scored' in the API and must be absent)."""
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return x


def node_values(d):
    return {str(k): clean(v) for k, v in d.items() if clean(v) is not None}


def write_fixtures(path, cases):
    with open(path, "w") as fh:
        json.dump(cases, fh, indent=None, separators=(",", ":"))
    print(f"wrote {len(cases)} cases to {path}")
