"""Fixtures: path-based metrics (betweenness, closeness, harmonic, load, current-flow closeness,
diameter, average shortest path length) from NetworkX 3.6.1.

Covers directed/undirected networks, `directed: false` on directed networks, weights by `true` and by
a named attribute (`cost` on random networks, `strength` on the advice network), normalized on/off,
disconnected graphs with isolates (random_sparse_*, advice), self-loops (dropped: path metrics ignore
them), string and numeric ids. Sampled variants (kPercent < 100) are checked by the property test.
"""
import networkx as nx

from common import networks, to_nx, node_values

# per network: weight variants (None = unweighted, True = attribute `weight`, str = named attribute)
WEIGHTS = {
    "karate": [None, True],
    "florentine": [None],
    "lesmis": [None, True],
    "davis": [None],
    "advice": [None, True, "strength"],
    "advice_undirected": [None, True],
    "random_dir": [None, True, "cost"],
    "random_und": [None, "cost"],
    "random_sparse_dir": [None, "cost"],
    "random_sparse_und": [None, True],
}


def attr(w):
    return None if w is None else ("weight" if w is True else w)


def wparams(w):
    return {} if w is None else {"metricEdgeWeights": w}


def closeness_plain(G, weight):
    """1/Σ d(u, v) over u reaching v (incoming), 0 when the sum is 0."""
    R = G.reverse() if G.is_directed() else G
    out = {}
    for v in G:
        sp = nx.single_source_dijkstra_path_length(R, v, weight=weight) if weight else nx.single_source_shortest_path_length(R, v)
        tot = sum(sp.values())
        out[v] = 1.0 / tot if tot > 0 else 0.0
    return out


def current_flow(G, weight):
    out = {}
    for comp in nx.connected_components(G):
        if len(comp) < 2:
            continue
        out.update(nx.current_flow_closeness_centrality(G.subgraph(comp), weight=weight))
    return out


def avg_spl(G):
    tot = 0
    pairs = 0
    for u in G:
        for v, d in nx.single_source_shortest_path_length(G, u).items():
            if v != u:
                tot += d
                pairs += 1
    return tot / pairs if pairs else 0


def lcc_diameter(G):
    U = G.to_undirected() if G.is_directed() else G
    if len(U) == 0:
        return 0
    comp = max(nx.connected_components(U), key=len)
    return nx.diameter(U.subgraph(comp))


def case(metric, name, entry, params, expected, tol=1e-9):
    return {"metric": metric, "name": name, "network": entry["network"], "isDirected": entry["isDirected"],
            "params": params, "expected": expected, "tol": tol}


def cases():
    out = []
    for name, entry in networks().items():
        directed_net = entry["isDirected"]
        dir_variants = [True, False] if directed_net else [True]
        for w in WEIGHTS[name]:
            wa = attr(w)
            for d in dir_variants:
                G = to_nx(entry, directed=d, weight=wa, self_loops=False)
                label = f"{name}/w={w}/directed={d}"
                for norm in (True, False):
                    p = dict(wparams(w), normalized=norm)
                    if not d:
                        p["directed"] = False
                    bc = nx.betweenness_centrality(G, normalized=norm, weight="weight" if wa else None)
                    out.append(case("betweennessCentrality", label, entry, p, {"Betweenness Centrality": node_values(bc)}))
                    if norm:
                        cc = nx.closeness_centrality(G, distance="weight" if wa else None, wf_improved=True)
                    else:
                        cc = closeness_plain(G, "weight" if wa else None)
                    out.append(case("closenessCentrality", label, entry, p, {"Closeness Centrality": node_values(cc)}))
            # load: network's own direction
            G = to_nx(entry, weight=wa, self_loops=False)
            for norm in (True, False):
                lc = nx.load_centrality(G, normalized=norm, weight="weight" if wa else None)
                out.append(case("loadCentrality", f"{name}/w={w}", entry, dict(wparams(w), normalized=norm),
                                {"Load Centrality": node_values(lc)}))
            # current flow: always undirected, weights as conductances
            U = to_nx(entry, directed=False, weight=wa, self_loops=False)
            out.append(case("currentFlowClosenessCentrality", f"{name}/w={w}", entry, wparams(w),
                            {"Current Flow Closeness Centrality": node_values(current_flow(U, "weight" if wa else None))}))
        G = to_nx(entry, self_loops=False)
        out.append(case("harmonicCentrality", name, entry, {}, {"Harmonic Centrality": node_values(nx.harmonic_centrality(G))}))
        out.append(case("diameter", name, entry, {}, lcc_diameter(G)))
        out.append(case("avgShortestPathLength", name, entry, {}, avg_spl(G)))
    # tiny graphs: n < 3 scaling branches, an edgeless graph, the empty graph
    tiny = {
        "pair": {"network": {"nodes": [{"id": "a"}, {"id": "b"}], "edges": [{"id": 1, "source": "a", "target": "b"}]}, "isDirected": True},
        "single": {"network": {"nodes": [{"id": 7}], "edges": [{"id": 1, "source": 7, "target": 7}]}, "isDirected": False},
        "edgeless": {"network": {"nodes": [{"id": 1}, {"id": 2}, {"id": 3}]}, "isDirected": False},
        "empty": {"network": {"nodes": [], "edges": []}, "isDirected": True},
    }
    for name, entry in tiny.items():
        G = to_nx(entry, self_loops=False)
        for norm in (True, False):
            out.append(case("betweennessCentrality", name, entry, {"normalized": norm},
                            {"Betweenness Centrality": node_values(nx.betweenness_centrality(G, normalized=norm))}))
            cc = nx.closeness_centrality(G) if norm else closeness_plain(G, None)
            out.append(case("closenessCentrality", name, entry, {"normalized": norm}, {"Closeness Centrality": node_values(cc)}))
            out.append(case("loadCentrality", name, entry, {"normalized": norm},
                            {"Load Centrality": node_values(nx.load_centrality(G, normalized=norm))}))
        out.append(case("harmonicCentrality", name, entry, {}, {"Harmonic Centrality": node_values(nx.harmonic_centrality(G))}))
        U = to_nx(entry, directed=False, self_loops=False)
        out.append(case("currentFlowClosenessCentrality", name, entry, {},
                        {"Current Flow Closeness Centrality": node_values(current_flow(U, None))}))
        out.append(case("diameter", name, entry, {}, lcc_diameter(G)))
        out.append(case("avgShortestPathLength", name, entry, {}, avg_spl(G)))
    return out
