//! Maximum-weight matching in a general graph (Edmonds' blossom algorithm with the
//! primal-dual method of Galil, "Efficient algorithms for finding maximum matching in graphs",
//! ACM Computing Surveys 1986), O(n³).
//!
//! The Dutch system asks, bracket after bracket, for the pairing that is best by a long list
//! of criteria in strict priority. Written as one weight per possible game, with each
//! criterion in its own bit field, "best" is the matching of maximum total weight (Ólafsson,
//! "Weighted matching in chess tournaments", J. Oper. Res. Soc. 1990). Weights are exact
//! integers of any width ([`Weight`]); an edge of weight zero is no edge.

use crate::wide::Wide;
use std::ops::{Add, Sub};

/// What the solver needs of a weight: exact integer arithmetic with a total order.
pub trait Weight: Copy + Ord + Add<Output = Self> + Sub<Output = Self> + std::fmt::Debug {
    /// Zero.
    fn zero() -> Self;
    /// Half (the value is even where it is used).
    fn half(self) -> Self;
    /// Twice the value.
    fn double(self) -> Self {
        self + self
    }
}

impl<const N: usize> Weight for Wide<N> {
    fn zero() -> Self {
        Wide::ZERO
    }
    fn half(self) -> Self {
        Wide::half(self)
    }
}

impl Weight for i64 {
    fn zero() -> Self {
        0
    }
    fn half(self) -> Self {
        self >> 1
    }
}

const NONE: usize = usize::MAX;

/// The mate of each vertex in a matching of maximum total weight (`None`: unmatched).
/// `edges` are `(u, v, weight)` with `u != v`, `u, v < n` and weight > 0.
pub fn max_weight_matching<W: Weight>(n: usize, edges: &[(usize, usize, W)]) -> Vec<Option<usize>> {
    if n == 0 || edges.is_empty() {
        return vec![None; n];
    }
    let mut s = Solver::new(n, edges);
    s.solve();
    (0..n)
        .map(|v| (s.mate[v] != NONE).then(|| s.endpoint[s.mate[v]]))
        .collect()
}

/// The state of one solve. Vertices are `0..n`; blossoms `n..2n`. Edge `k` has the endpoints
/// `2k` (its first vertex) and `2k + 1` (its second); `mate[v]` is the remote endpoint of
/// `v`'s matched edge.
struct Solver<W> {
    n: usize,
    /// `(u, v, 2·weight)`: doubled so that every dual stays an integer.
    edges: Vec<(usize, usize, W)>,
    endpoint: Vec<usize>,
    /// For each vertex, the remote endpoints of its edges.
    neighbend: Vec<Vec<usize>>,
    mate: Vec<usize>,
    /// 0 free, 1 S (outer), 2 T (inner), for vertices and top-level blossoms.
    label: Vec<u8>,
    /// Marks set while two paths are traced back towards their roots.
    mark: Vec<bool>,
    labelend: Vec<usize>,
    inblossom: Vec<usize>,
    blossomparent: Vec<usize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<usize>,
    blossomendps: Vec<Vec<usize>>,
    bestedge: Vec<usize>,
    blossombestedges: Vec<Option<Vec<usize>>>,
    unusedblossoms: Vec<usize>,
    dualvar: Vec<W>,
    allowedge: Vec<bool>,
    queue: Vec<usize>,
}

impl<W: Weight> Solver<W> {
    fn new(n: usize, edges: &[(usize, usize, W)]) -> Solver<W> {
        let edges: Vec<(usize, usize, W)> =
            edges.iter().map(|&(u, v, w)| (u, v, w.double())).collect();
        let mut endpoint = Vec::with_capacity(2 * edges.len());
        let mut neighbend = vec![Vec::new(); n];
        let mut maxweight = W::zero();
        for (k, &(u, v, w)) in edges.iter().enumerate() {
            debug_assert!(u != v && u < n && v < n);
            endpoint.push(u);
            endpoint.push(v);
            neighbend[u].push(2 * k + 1);
            neighbend[v].push(2 * k);
            maxweight = maxweight.max(w);
        }
        let mut dualvar = vec![maxweight; n];
        dualvar.extend(std::iter::repeat_n(W::zero(), n));
        Solver {
            n,
            allowedge: vec![false; edges.len()],
            edges,
            endpoint,
            neighbend,
            mate: vec![NONE; n],
            label: vec![0; 2 * n],
            mark: vec![false; 2 * n],
            labelend: vec![NONE; 2 * n],
            inblossom: (0..n).collect(),
            blossomparent: vec![NONE; 2 * n],
            blossomchilds: vec![Vec::new(); 2 * n],
            blossombase: (0..n).chain(std::iter::repeat_n(NONE, n)).collect(),
            blossomendps: vec![Vec::new(); 2 * n],
            bestedge: vec![NONE; 2 * n],
            blossombestedges: vec![None; 2 * n],
            unusedblossoms: (n..2 * n).collect(),
            dualvar,
            queue: Vec::new(),
        }
    }

    fn slack(&self, k: usize) -> W {
        let (i, j, w) = self.edges[k];
        self.dualvar[i] + self.dualvar[j] - w.double()
    }

    /// The vertices inside blossom `b` (itself when it is a vertex).
    fn leaves(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack = vec![b];
        while let Some(t) = stack.pop() {
            if t < self.n {
                out.push(t);
            } else {
                stack.extend(self.blossomchilds[t].iter().rev());
            }
        }
        out
    }

    /// Labels the top-level blossom of `w` with `t` (1 = S, 2 = T), reached through endpoint
    /// `p`; a T-blossom's matched partner becomes S.
    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let b = self.inblossom[w];
        self.label[w] = t;
        self.label[b] = t;
        self.labelend[w] = p;
        self.labelend[b] = p;
        self.bestedge[w] = NONE;
        self.bestedge[b] = NONE;
        if t == 1 {
            let leaves = self.leaves(b);
            self.queue.extend(leaves);
        } else {
            let base = self.blossombase[b];
            let m = self.mate[base];
            self.assign_label(self.endpoint[m], 1, m ^ 1);
        }
    }

    /// Traces back from `v` and `w` (both S); the base of a new blossom, or `NONE` when the
    /// two paths reach different roots (an augmenting path).
    fn scan_blossom(&mut self, mut v: usize, mut w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        while v != NONE || w != NONE {
            let b = self.inblossom[v];
            if self.mark[b] {
                base = self.blossombase[b];
                break;
            }
            path.push(b);
            self.mark[b] = true;
            if self.labelend[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint[self.labelend[b]];
                let bt = self.inblossom[v];
                v = self.endpoint[self.labelend[bt]];
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.mark[b] = false;
        }
        base
    }

    /// Makes a new blossom with `base`, through the S-S edge `k`.
    fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w, _) = self.edges[k];
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let b = self.unusedblossoms.pop().expect("a free blossom slot");
        self.blossombase[b] = base;
        self.blossomparent[b] = NONE;
        self.blossomparent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.blossomparent[bv] = b;
            path.push(bv);
            endps.push(self.labelend[bv]);
            v = self.endpoint[self.labelend[bv]];
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.blossomparent[bw] = b;
            path.push(bw);
            endps.push(self.labelend[bw] ^ 1);
            w = self.endpoint[self.labelend[bw]];
            bw = self.inblossom[w];
        }
        self.blossomchilds[b] = path.clone();
        self.blossomendps[b] = endps;
        self.label[b] = 1;
        self.labelend[b] = self.labelend[bb];
        self.dualvar[b] = W::zero();
        for leaf in self.leaves(b) {
            if self.label[self.inblossom[leaf]] == 2 {
                self.queue.push(leaf);
            }
            self.inblossom[leaf] = b;
        }
        let mut bestedgeto = vec![NONE; 2 * self.n];
        for &sub in &path {
            let lists: Vec<Vec<usize>> = match self.blossombestedges[sub].take() {
                Some(list) => vec![list],
                None => self
                    .leaves(sub)
                    .into_iter()
                    .map(|leaf| self.neighbend[leaf].iter().map(|&p| p / 2).collect())
                    .collect(),
            };
            for list in lists {
                for k in list {
                    let (mut i, mut j, _) = self.edges[k];
                    if self.inblossom[j] == b {
                        std::mem::swap(&mut i, &mut j);
                    }
                    let _ = i;
                    let bj = self.inblossom[j];
                    if bj != b
                        && self.label[bj] == 1
                        && (bestedgeto[bj] == NONE || self.slack(k) < self.slack(bestedgeto[bj]))
                    {
                        bestedgeto[bj] = k;
                    }
                }
            }
            self.bestedge[sub] = NONE;
        }
        let best: Vec<usize> = bestedgeto.into_iter().filter(|&k| k != NONE).collect();
        let mut be = NONE;
        for &k in &best {
            if be == NONE || self.slack(k) < self.slack(be) {
                be = k;
            }
        }
        self.bestedge[b] = be;
        self.blossombestedges[b] = Some(best);
    }

    /// Index `j` (possibly negative) into a blossom's cyclic child list.
    fn at(list: &[usize], j: isize) -> usize {
        list[j.rem_euclid(list.len() as isize) as usize]
    }

    /// Dissolves blossom `b`; at the end of a stage its zero-dual sub-blossoms go too.
    fn expand_blossom(&mut self, b: usize, endstage: bool) {
        let childs = self.blossomchilds[b].clone();
        for &s in &childs {
            self.blossomparent[s] = NONE;
            if s < self.n {
                self.inblossom[s] = s;
            } else if endstage && self.dualvar[s] == W::zero() {
                self.expand_blossom(s, endstage);
            } else {
                for leaf in self.leaves(s) {
                    self.inblossom[leaf] = s;
                }
            }
        }
        if !endstage && self.label[b] == 2 {
            let endps = self.blossomendps[b].clone();
            let entrychild = self.inblossom[self.endpoint[self.labelend[b] ^ 1]];
            let len = childs.len() as isize;
            let mut j = childs
                .iter()
                .position(|&c| c == entrychild)
                .expect("entry child") as isize;
            let (jstep, endptrick): (isize, usize) = if j & 1 == 1 {
                j -= len;
                (1, 0)
            } else {
                (-1, 1)
            };
            let mut p = self.labelend[b];
            while j != 0 {
                let q = self.endpoint[p ^ 1];
                self.label[q] = 0;
                let e = Self::at(&endps, j - endptrick as isize);
                self.label[self.endpoint[e ^ endptrick ^ 1]] = 0;
                self.assign_label(q, 2, p);
                self.allowedge[e / 2] = true;
                j += jstep;
                p = Self::at(&endps, j - endptrick as isize) ^ endptrick;
                self.allowedge[p / 2] = true;
                j += jstep;
            }
            let bv = Self::at(&childs, j);
            let q = self.endpoint[p ^ 1];
            self.label[q] = 2;
            self.label[bv] = 2;
            self.labelend[q] = p;
            self.labelend[bv] = p;
            self.bestedge[bv] = NONE;
            j += jstep;
            while Self::at(&childs, j) != entrychild {
                let bv = Self::at(&childs, j);
                if self.label[bv] == 1 {
                    j += jstep;
                    continue;
                }
                let reached = self.leaves(bv).into_iter().find(|&v| self.label[v] != 0);
                if let Some(v) = reached {
                    debug_assert!(self.label[v] == 2 && self.inblossom[v] == bv);
                    self.label[v] = 0;
                    let m = self.mate[self.blossombase[bv]];
                    self.label[self.endpoint[m]] = 0;
                    let le = self.labelend[v];
                    self.assign_label(v, 2, le);
                }
                j += jstep;
            }
        }
        self.label[b] = 0;
        self.labelend[b] = NONE;
        self.blossomchilds[b] = Vec::new();
        self.blossomendps[b] = Vec::new();
        self.blossombase[b] = NONE;
        self.blossombestedges[b] = None;
        self.bestedge[b] = NONE;
        self.unusedblossoms.push(b);
    }

    /// Swaps matched and unmatched edges on the path through blossom `b` from vertex `v` to
    /// its base; `v` becomes the base.
    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.blossomparent[t] != b {
            t = self.blossomparent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let childs = self.blossomchilds[b].clone();
        let endps = self.blossomendps[b].clone();
        let len = childs.len() as isize;
        let i = childs.iter().position(|&c| c == t).expect("child") as isize;
        let mut j = i;
        let (jstep, endptrick): (isize, usize) = if i & 1 == 1 {
            j -= len;
            (1, 0)
        } else {
            (-1, 1)
        };
        while j != 0 {
            j += jstep;
            let t = Self::at(&childs, j);
            let p = Self::at(&endps, j - endptrick as isize) ^ endptrick;
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p]);
            }
            j += jstep;
            let t = Self::at(&childs, j);
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p ^ 1]);
            }
            self.mate[self.endpoint[p]] = p ^ 1;
            self.mate[self.endpoint[p ^ 1]] = p;
        }
        let i = i as usize;
        let mut rc = childs[i..].to_vec();
        rc.extend_from_slice(&childs[..i]);
        let mut re = endps[i..].to_vec();
        re.extend_from_slice(&endps[..i]);
        self.blossombase[b] = self.blossombase[rc[0]];
        self.blossomchilds[b] = rc;
        self.blossomendps[b] = re;
    }

    /// Augments the matching along the path through the S-S edge `k`.
    fn augment_matching(&mut self, k: usize) {
        let (v, w, _) = self.edges[k];
        for (mut s, mut p) in [(v, 2 * k + 1), (w, 2 * k)] {
            loop {
                let bs = self.inblossom[s];
                if bs >= self.n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.labelend[bs] == NONE {
                    break;
                }
                let t = self.endpoint[self.labelend[bs]];
                let bt = self.inblossom[t];
                s = self.endpoint[self.labelend[bt]];
                let j = self.endpoint[self.labelend[bt] ^ 1];
                if bt >= self.n {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.labelend[bt];
                p = self.labelend[bt] ^ 1;
            }
        }
    }

    fn solve(&mut self) {
        let n = self.n;
        for _stage in 0..n {
            self.label.iter_mut().for_each(|l| *l = 0);
            self.bestedge.iter_mut().for_each(|e| *e = NONE);
            for b in n..2 * n {
                self.blossombestedges[b] = None;
            }
            self.allowedge.iter_mut().for_each(|a| *a = false);
            self.queue.clear();
            for v in 0..n {
                if self.mate[v] == NONE && self.label[self.inblossom[v]] == 0 {
                    self.assign_label(v, 1, NONE);
                }
            }
            let mut augmented = false;
            loop {
                while !augmented {
                    let Some(v) = self.queue.pop() else { break };
                    for idx in 0..self.neighbend[v].len() {
                        let p = self.neighbend[v][idx];
                        let k = p / 2;
                        let w = self.endpoint[p];
                        if self.inblossom[v] == self.inblossom[w] {
                            continue;
                        }
                        let mut kslack = W::zero();
                        if !self.allowedge[k] {
                            kslack = self.slack(k);
                            if kslack <= W::zero() {
                                self.allowedge[k] = true;
                            }
                        }
                        if self.allowedge[k] {
                            if self.label[self.inblossom[w]] == 0 {
                                self.assign_label(w, 2, p ^ 1);
                            } else if self.label[self.inblossom[w]] == 1 {
                                let base = self.scan_blossom(v, w);
                                if base != NONE {
                                    self.add_blossom(base, k);
                                } else {
                                    self.augment_matching(k);
                                    augmented = true;
                                    break;
                                }
                            } else if self.label[w] == 0 {
                                self.label[w] = 2;
                                self.labelend[w] = p ^ 1;
                            }
                        } else if self.label[self.inblossom[w]] == 1 {
                            let b = self.inblossom[v];
                            if self.bestedge[b] == NONE || kslack < self.slack(self.bestedge[b]) {
                                self.bestedge[b] = k;
                            }
                        } else if self.label[w] == 0
                            && (self.bestedge[w] == NONE || kslack < self.slack(self.bestedge[w]))
                        {
                            self.bestedge[w] = k;
                        }
                    }
                }
                if augmented {
                    break;
                }
                // No tight edge left to grow on: change the duals by the largest delta that
                // keeps them feasible.
                let mut deltatype = 1;
                let mut delta = *self.dualvar[..n].iter().min().expect("vertices");
                let mut deltaedge = NONE;
                let mut deltablossom = NONE;
                for v in 0..n {
                    if self.label[self.inblossom[v]] == 0 && self.bestedge[v] != NONE {
                        let d = self.slack(self.bestedge[v]);
                        if d < delta {
                            delta = d;
                            deltatype = 2;
                            deltaedge = self.bestedge[v];
                        }
                    }
                }
                for b in 0..2 * n {
                    if self.blossomparent[b] == NONE
                        && self.label[b] == 1
                        && self.bestedge[b] != NONE
                    {
                        let d = self.slack(self.bestedge[b]).half();
                        if d < delta {
                            delta = d;
                            deltatype = 3;
                            deltaedge = self.bestedge[b];
                        }
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] != NONE
                        && self.blossomparent[b] == NONE
                        && self.label[b] == 2
                        && self.dualvar[b] < delta
                    {
                        delta = self.dualvar[b];
                        deltatype = 4;
                        deltablossom = b;
                    }
                }
                for v in 0..n {
                    match self.label[self.inblossom[v]] {
                        1 => self.dualvar[v] = self.dualvar[v] - delta,
                        2 => self.dualvar[v] = self.dualvar[v] + delta,
                        _ => {}
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] != NONE && self.blossomparent[b] == NONE {
                        match self.label[b] {
                            1 => self.dualvar[b] = self.dualvar[b] + delta,
                            2 => self.dualvar[b] = self.dualvar[b] - delta,
                            _ => {}
                        }
                    }
                }
                match deltatype {
                    1 => break,
                    2 => {
                        self.allowedge[deltaedge] = true;
                        let (mut i, j, _) = self.edges[deltaedge];
                        if self.label[self.inblossom[i]] == 0 {
                            i = j;
                        }
                        self.queue.push(i);
                    }
                    3 => {
                        self.allowedge[deltaedge] = true;
                        let (i, _, _) = self.edges[deltaedge];
                        self.queue.push(i);
                    }
                    _ => self.expand_blossom(deltablossom, false),
                }
            }
            if !augmented {
                break;
            }
            for b in n..2 * n {
                if self.blossomparent[b] == NONE
                    && self.blossombase[b] != NONE
                    && self.label[b] == 1
                    && self.dualvar[b] == W::zero()
                {
                    self.expand_blossom(b, true);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The best total by trying every matching (small graphs only).
    fn brute(n: usize, w: &[Vec<i64>]) -> i64 {
        fn go(v: usize, n: usize, used: &mut Vec<bool>, w: &[Vec<i64>]) -> i64 {
            if v == n {
                return 0;
            }
            if used[v] {
                return go(v + 1, n, used, w);
            }
            used[v] = true;
            let mut best = go(v + 1, n, used, w);
            for u in v + 1..n {
                if !used[u] && w[v][u] > 0 {
                    used[u] = true;
                    best = best.max(w[v][u] + go(v + 1, n, used, w));
                    used[u] = false;
                }
            }
            used[v] = false;
            best
        }
        go(0, n, &mut vec![false; n], w)
    }

    /// A small deterministic generator (the tests need no crate for it).
    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self, m: u64) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 33) % m
        }
    }

    #[test]
    #[allow(clippy::needless_range_loop)] // an adjacency matrix reads best by index
    fn optimal_on_random_graphs() {
        let mut r = Lcg(7);
        for case in 0..3000 {
            let n = 1 + r.next(11) as usize;
            let dense = r.next(100);
            let range = [3, 10, 1000][case % 3];
            let mut w = vec![vec![0i64; n]; n];
            let mut edges = Vec::new();
            for u in 0..n {
                for v in u + 1..n {
                    if r.next(100) < dense {
                        let x = 1 + r.next(range) as i64;
                        w[u][v] = x;
                        w[v][u] = x;
                        edges.push((u, v, x));
                    }
                }
            }
            let mate = max_weight_matching(n, &edges);
            let mut total = 0;
            for (v, m) in mate.iter().enumerate() {
                if let Some(u) = *m {
                    assert_eq!(mate[u], Some(v), "case {case}: symmetric");
                    assert!(w[v][u] > 0, "case {case}: a real edge");
                    if v < u {
                        total += w[v][u];
                    }
                }
            }
            assert_eq!(total, brute(n, &w), "case {case}: n {n} edges {edges:?}");
        }
    }

    #[test]
    fn wide_weights_agree_with_small_ones() {
        let mut r = Lcg(11);
        for _ in 0..200 {
            let n = 2 + r.next(14) as usize;
            let mut small = Vec::new();
            let mut wide = Vec::new();
            for u in 0..n {
                for v in u + 1..n {
                    if r.next(3) > 0 {
                        let x = 1 + r.next(50);
                        small.push((u, v, x as i64));
                        // The same weights scaled by 2^130: the same matching.
                        wide.push((u, v, Wide::<4>::from_u64(x).lsh(130)));
                    }
                }
            }
            let a = max_weight_matching(n, &small);
            let b = max_weight_matching(n, &wide);
            let total = |m: &[Option<usize>]| -> i64 {
                small
                    .iter()
                    .filter(|&&(u, v, _)| m[u] == Some(v))
                    .map(|&(_, _, x)| x)
                    .sum()
            };
            assert_eq!(total(&a), total(&b));
        }
    }
}
