"""Rates the periods given on stdin with PyPI's `glicko2` package (Ryan Kirkman's, pinned in
tests/oracle/requirements.txt), for crates/players/tests/glicko2_reference.rs.

Input: one JSON object a line, {"rating", "deviation", "volatility", "tau", "games":
[[rating, deviation, score], ...]}. Output: one JSON array a line, [rating, deviation,
volatility] after the period.

The package's step 5 has one slip: its f(x) uses the player's rating (mu squared) where
Glickman's paper has the deviation (phi squared). On the paper's worked example the rating and
deviation still agree with the paper's (1464.05 / 151.52), but the volatility is 0.0599934
where the paper's last iteration gives 0.059996; over random periods the volatility, and
through it the rating, drift apart by up to 0.2 rating points. The referee here is the package
with that one term as the paper has it; everything else is the package's own code.
"""

import json
import math
import sys

import glicko2


class Paper(glicko2.Player):
    def _f(self, x, delta, v, a):
        ex = math.exp(x)
        phi2 = (self.rd / 173.7178) ** 2
        return ex * (delta ** 2 - phi2 - v - ex) / (2 * ((phi2 + v + ex) ** 2)) - (x - a) / (self._tau ** 2)


def main():
    # The paper's worked example, with the term as the paper has it.
    p = Paper(1500, 200, 0.06)
    p.update_player([1400, 1550, 1700], [30, 100, 300], [1, 0, 0])
    assert abs(p.rating - 1464.05) < 0.01 and abs(p.rd - 151.52) < 0.01, (p.rating, p.rd)
    assert abs(p.vol - 0.059996) < 0.000001, p.vol
    for line in sys.stdin:
        case = json.loads(line)
        player = Paper(case["rating"], case["deviation"], case["volatility"])
        player._tau = case["tau"]
        games = case["games"]
        if games:
            player.update_player([g[0] for g in games], [g[1] for g in games], [g[2] for g in games])
        else:
            player.did_not_compete()
        print(json.dumps([player.rating, player.rd, player.vol]))


main()
