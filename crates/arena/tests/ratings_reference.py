"""An independent maximum-likelihood Elo rating list, for crates/arena/tests/ratings.rs.

Pure Python (no NumPy or SciPy), and a different method from the Rust code on purpose:
ratings by Hunter's minorisation-maximisation (MM) iteration for the Bradley-Terry model
(draws counted as half a win each), standard errors from the Moore-Penrose pseudo-inverse of
the Fisher information (average anchor) or from the information with the anchor's row and
column struck out (player anchor), inverted by Gauss-Jordan elimination.

Reads one JSON object per line on standard input:
    {"players": N, "games": [[white, black, white_score], ...], "anchor": null | k}
and writes one per line: {"ratings": [...], "errors": [...], "iterations": I}, in Elo, with
the average at 0 (anchor null) or player k at 0.
"""

import json
import math
import sys

SCALE = math.log(10) / 400  # natural-log units per Elo point


def mm_ratings(n, games):
    """Bradley-Terry strengths by MM: gamma_i <- W_i / sum_j n_ij / (gamma_i + gamma_j)."""
    wins = [0.0] * n
    pairs = {}
    for w, b, s in games:
        wins[w] += s
        wins[b] += 1 - s
        key = (min(w, b), max(w, b))
        pairs[key] = pairs.get(key, 0) + 1
    gamma = [1.0] * n
    for iteration in range(1, 1_000_001):
        denom = [0.0] * n
        for (i, j), count in pairs.items():
            t = count / (gamma[i] + gamma[j])
            denom[i] += t
            denom[j] += t
        new = [wins[i] / denom[i] for i in range(n)]
        # Scale so that the geometric mean is 1 (the model sees only ratios).
        g = math.exp(sum(math.log(x) for x in new) / n)
        new = [x / g for x in new]
        change = max(abs(math.log(a / b)) for a, b in zip(new, gamma)) / SCALE
        gamma = new
        if change < 1e-9:
            return [math.log(x) / SCALE for x in gamma], iteration
    raise RuntimeError("MM did not converge")


def information(n, games, r):
    """Minus the Hessian of the log-likelihood, in Elo units."""
    m = [[0.0] * n for _ in range(n)]
    for w, b, _ in games:
        p = 1 / (1 + 10 ** (-(r[w] - r[b]) / 400))
        h = SCALE * SCALE * p * (1 - p)
        m[w][w] += h
        m[b][b] += h
        m[w][b] -= h
        m[b][w] -= h
    return m


def invert(a):
    """Gauss-Jordan with partial pivoting."""
    n = len(a)
    m = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda i: abs(m[i][c]))
        m[c], m[p] = m[p], m[c]
        piv = m[c][c]
        m[c] = [x / piv for x in m[c]]
        for i in range(n):
            if i != c and m[i][c] != 0.0:
                f = m[i][c]
                m[i] = [x - f * y for x, y in zip(m[i], m[c])]
    return [row[n:] for row in m]


def main():
    for line in sys.stdin:
        case = json.loads(line)
        n, games, anchor = case["players"], case["games"], case["anchor"]
        r, iterations = mm_ratings(n, games)
        info = information(n, games, r)
        if anchor is None:
            mean = sum(r) / n
            r = [x - mean for x in r]
            # The covariance of the centred estimate is the pseudo-inverse of the information,
            # whose null space is the constant vector: (I + J/n)^-1 - J/n.
            shifted = [[info[i][j] + 1 / n for j in range(n)] for i in range(n)]
            inv = invert(shifted)
            cov_diag = [inv[i][i] - 1 / n for i in range(n)]
        else:
            r = [x - r[anchor] for x in r]
            keep = [i for i in range(n) if i != anchor]
            inv = invert([[info[i][j] for j in keep] for i in keep])
            cov_diag = [0.0] * n
            for a, i in enumerate(keep):
                cov_diag[i] = inv[a][a]
        errors = [math.sqrt(max(v, 0.0)) for v in cov_diag]
        print(json.dumps({"ratings": r, "errors": errors, "iterations": iterations}))


if __name__ == "__main__":
    main()
