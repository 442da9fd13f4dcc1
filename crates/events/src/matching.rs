//! Maximum-weight matching in a general graph (Edmonds' blossom algorithm with the
//! primal-dual method of Galil, "Efficient algorithms for finding maximum matching in graphs",
//! ACM Computing Surveys 1986), O(n³) from scratch, and kept up to date as weights change
//! ([`Matcher`]): O(n²) for each vertex whose weights changed.
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
    /// One.
    fn one() -> Self;
    /// Whether the value is odd.
    fn is_odd(self) -> bool;
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
    fn one() -> Self {
        Wide::from_u64(1)
    }
    fn is_odd(self) -> bool {
        Wide::is_odd(&self)
    }
}

impl Weight for i64 {
    fn zero() -> Self {
        0
    }
    fn half(self) -> Self {
        self >> 1
    }
    fn one() -> Self {
        1
    }
    fn is_odd(self) -> bool {
        self & 1 == 1
    }
}

const NONE: usize = usize::MAX;

/// The mate of each vertex in a matching of maximum total weight (`None`: unmatched).
/// `edges` are `(u, v, weight)` with `u != v`, `u, v < n` and weight > 0.
pub fn max_weight_matching<W: Weight>(n: usize, edges: &[(usize, usize, W)]) -> Vec<Option<usize>> {
    let mut m = Matcher::new(n);
    for &(u, v, w) in edges {
        m.set_weight(u, v, w);
    }
    m.solve();
    m.mates()
}

/// The index of the edge `{a, b}` (`a != b`) in a lower triangle stored by rows: a weight
/// of a thousand players' round is a few hundred bits, so the half that a full matrix
/// repeats is worth leaving out.
fn tri(a: usize, b: usize) -> usize {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    hi * (hi - 1) / 2 + lo
}

/// A maximum-weight matching kept up to date as weights change.
///
/// The Dutch system fixes a round's pairing one decision at a time, each decision a change of
/// the weights at one or a few players followed by a new best matching. Solving from scratch
/// costs O(n³) each time; here the matching and the dual solution of the last solve are kept,
/// and a change at vertex `v` only frees `v` (and its mate): `v` leaves every blossom and
/// takes a dual high enough for any weight, and the next [`Matcher::solve`] repairs the
/// optimum in one search per freed vertex, O(n²) each. bbpPairings updates its matching the
/// same way (after Galil, Micali and Gabow 1986, its `matching::Computer`); the code here is
/// our own.
///
/// The search is Galil's primal-dual method generalised to start from any feasible dual
/// solution: an unmatched vertex with a positive dual is the root of a search ("outer"), one
/// with a zero dual already satisfies complementary slackness and may simply stay unmatched
/// or be reached by an augmenting path. A search ends when it augments between two roots or
/// from a root to a zero-dual unmatched vertex, or when a vertex in a root's tree reaches
/// dual zero (the path to it is flipped and that vertex is left unmatched instead of the
/// root). The solve is optimal when no root is left.
pub struct Matcher<W> {
    n: usize,
    /// Twice each weight, by [`tri`]; zero is no edge.
    w: Vec<W>,
    /// The largest doubled weight set so far (freed vertices take twice this as their dual).
    max_e: W,
    /// Vertices freed since the last solve: unmatched, in no blossom.
    freed: Vec<bool>,
    freed_list: Vec<usize>,
    /// Endpoints: `a·n + b` is the end at `b` of the edge `{a, b}`. `mate[v]` is the remote
    /// endpoint of `v`'s matched edge.
    mate: Vec<usize>,
    /// 0 free, 1 S (outer), 2 T (inner), for vertices and top-level blossoms.
    label: Vec<u8>,
    /// Marks set while two paths are traced back towards their roots.
    mark: Vec<bool>,
    labelend: Vec<usize>,
    /// Vertices are `0..n`, blossoms `n..2n`.
    inblossom: Vec<usize>,
    blossomparent: Vec<usize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<usize>,
    blossomendps: Vec<Vec<usize>>,
    /// Edges as undirected keys `min·n + max`.
    bestedge: Vec<usize>,
    blossombestedges: Vec<Option<Vec<usize>>>,
    unusedblossoms: Vec<usize>,
    /// Vertex duals, then blossom duals (half of z, so that a blossom's share of an edge
    /// inside it is twice its value).
    dualvar: Vec<W>,
    /// An edge may be used in this search when its stamp is the search's.
    allowed: Vec<u32>,
    stamp: u32,
    queue: Vec<usize>,
}

impl<W: Weight> Matcher<W> {
    /// `n` vertices and no edges.
    pub fn new(n: usize) -> Matcher<W> {
        Matcher {
            n,
            w: vec![W::zero(); n * n.saturating_sub(1) / 2],
            max_e: W::zero(),
            freed: vec![true; n],
            freed_list: (0..n).collect(),
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
            dualvar: vec![W::zero(); 2 * n],
            allowed: vec![0; n * n],
            stamp: 0,
            queue: Vec::new(),
        }
    }

    /// The weight of `{a, b}` as set.
    pub fn weight(&self, a: usize, b: usize) -> W {
        self.w[tri(a, b)].half()
    }

    /// Sets the weight of `{a, b}` (`a != b`; zero removes the edge). Takes effect at the
    /// next [`Matcher::solve`]; a change that keeps the last solution optimal costs nothing,
    /// any other frees `a`.
    pub fn set_weight(&mut self, a: usize, b: usize, weight: W) {
        debug_assert!(a != b && a < self.n && b < self.n);
        debug_assert!(weight >= W::zero());
        let e = weight.double();
        let n = self.n;
        if self.w[tri(a, b)] == e {
            return;
        }
        if e > self.max_e {
            self.max_e = e;
        }
        if !self.freed[a] && !self.freed[b] {
            // Unchanged optimality: an unmatched edge between two top-level blossoms (no
            // blossom dual covers it, no blossom needs it tight) that stays feasible.
            let still = self.inblossom[a] != self.inblossom[b]
                && self.mate[a] != a * n + b
                && self.dualvar[a] + self.dualvar[b] >= e.double();
            if !still {
                self.free(a);
            }
        }
        self.w[tri(a, b)] = e;
    }

    /// The mate of each vertex after the last [`Matcher::solve`].
    pub fn mates(&self) -> Vec<Option<usize>> {
        (0..self.n).map(|v| self.mate_of(v)).collect()
    }

    /// The mate of `v` after the last [`Matcher::solve`].
    pub fn mate_of(&self, v: usize) -> Option<usize> {
        (self.mate[v] != NONE).then(|| self.to(self.mate[v]))
    }

    /// The vertex at endpoint `p`.
    fn to(&self, p: usize) -> usize {
        p % self.n
    }

    /// The other end of the edge of endpoint `p`.
    fn rev(&self, p: usize) -> usize {
        (p % self.n) * self.n + p / self.n
    }

    fn key(&self, a: usize, b: usize) -> usize {
        a.min(b) * self.n + a.max(b)
    }

    fn slack(&self, k: usize) -> W {
        let (i, j) = (k / self.n, k % self.n);
        self.dualvar[i] + self.dualvar[j] - self.w[tri(i, j)].double()
    }

    fn allowedge(&self, k: usize) -> bool {
        self.allowed[k] == self.stamp
    }

    fn allow(&mut self, k: usize) {
        self.allowed[k] = self.stamp;
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

    /// Frees `v` before its edges change: its blossom's matched edge to the outside is
    /// dropped, the blossom is turned so that `v` is its base, and the blossoms around `v`
    /// are dissolved (their duals handed down to the vertices inside, which keeps every edge
    /// inside them exactly as tight as it was).
    fn free(&mut self, v: usize) {
        if self.freed[v] {
            return;
        }
        let b = self.inblossom[v];
        let base = self.blossombase[b];
        if self.mate[base] != NONE {
            let q = self.to(self.mate[base]);
            self.mate[q] = NONE;
            self.mate[base] = NONE;
        }
        if b >= self.n && base != v {
            self.augment_blossom(b, v);
        }
        self.mate[v] = NONE;
        self.dissolve_around(v);
        self.freed[v] = true;
        self.freed_list.push(v);
    }

    /// Dissolves every blossom containing `v`, which must be their base.
    fn dissolve_around(&mut self, v: usize) {
        let mut b = self.inblossom[v];
        let mut add = W::zero();
        while b != v {
            add = add + self.dualvar[b];
            let childs = std::mem::take(&mut self.blossomchilds[b]);
            for (i, &c) in childs.iter().enumerate() {
                self.blossomparent[c] = NONE;
                if i == 0 {
                    continue;
                }
                for leaf in self.leaves(c) {
                    self.inblossom[leaf] = c;
                    self.dualvar[leaf] = self.dualvar[leaf] + add;
                }
            }
            debug_assert!(childs[0] == v || self.blossombase[childs[0]] == v);
            self.release(b);
            b = childs[0];
        }
        self.inblossom[v] = v;
        self.dualvar[v] = self.dualvar[v] + add;
    }

    /// Returns blossom slot `b` to the pool.
    fn release(&mut self, b: usize) {
        self.label[b] = 0;
        self.labelend[b] = NONE;
        self.blossomchilds[b] = Vec::new();
        self.blossomendps[b] = Vec::new();
        self.blossombase[b] = NONE;
        self.blossombestedges[b] = None;
        self.bestedge[b] = NONE;
        self.dualvar[b] = W::zero();
        self.unusedblossoms.push(b);
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
            let (to, back) = (self.to(m), self.rev(m));
            self.assign_label(to, 1, back);
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
                v = self.to(self.labelend[b]);
                let bt = self.inblossom[v];
                v = self.to(self.labelend[bt]);
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

    /// Makes a new blossom with `base`, through the S-S edge from `v` to `w`.
    fn add_blossom(&mut self, base: usize, mut v: usize, mut w: usize) {
        let n = self.n;
        // The end at `v` of the edge that closes the cycle.
        let closing = w * n + v;
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
            v = self.to(self.labelend[bv]);
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(closing);
        while bw != bb {
            self.blossomparent[bw] = b;
            path.push(bw);
            endps.push(self.rev(self.labelend[bw]));
            w = self.to(self.labelend[bw]);
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
        let mut bestedgeto = vec![NONE; 2 * n];
        for &sub in &path {
            let list: Vec<usize> = match self.blossombestedges[sub].take() {
                Some(list) => list,
                None => {
                    let mut all = Vec::new();
                    for leaf in self.leaves(sub) {
                        for j in 0..n {
                            if leaf != j && self.w[tri(leaf, j)] != W::zero() {
                                all.push(self.key(leaf, j));
                            }
                        }
                    }
                    all
                }
            };
            for k in list {
                let (mut i, mut j) = (k / n, k % n);
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

    /// `p`, or its other end when `flip`.
    fn flip_if(&self, p: usize, flip: bool) -> usize {
        if flip {
            self.rev(p)
        } else {
            p
        }
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
            let entrychild = self.inblossom[self.to(self.rev(self.labelend[b]))];
            let len = childs.len() as isize;
            let mut j = childs
                .iter()
                .position(|&c| c == entrychild)
                .expect("entry child") as isize;
            let (jstep, endptrick): (isize, bool) = if j & 1 == 1 {
                j -= len;
                (1, false)
            } else {
                (-1, true)
            };
            let trick = endptrick as isize;
            let mut p = self.labelend[b];
            while j != 0 {
                let q = self.to(self.rev(p));
                self.label[q] = 0;
                let e = Self::at(&endps, j - trick);
                let other = self.to(self.flip_if(e, !endptrick));
                self.label[other] = 0;
                self.assign_label(q, 2, p);
                let ke = self.key(e / self.n, e % self.n);
                self.allow(ke);
                j += jstep;
                p = self.flip_if(Self::at(&endps, j - trick), endptrick);
                let kp = self.key(p / self.n, p % self.n);
                self.allow(kp);
                j += jstep;
            }
            let bv = Self::at(&childs, j);
            let q = self.to(self.rev(p));
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
                    let mv = self.to(m);
                    self.label[mv] = 0;
                    let le = self.labelend[v];
                    self.assign_label(v, 2, le);
                }
                j += jstep;
            }
        }
        // Its dual is zero here (the reason it is expanded).
        self.release(b);
    }

    /// Swaps matched and unmatched edges on the path through blossom `b` from vertex `v` to
    /// its base; `v` becomes the base (its own mate is left to the caller).
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
        let (jstep, endptrick): (isize, bool) = if i & 1 == 1 {
            j -= len;
            (1, false)
        } else {
            (-1, true)
        };
        let trick = endptrick as isize;
        while j != 0 {
            j += jstep;
            let t = Self::at(&childs, j);
            let p = self.flip_if(Self::at(&endps, j - trick), endptrick);
            if t >= self.n {
                let at = self.to(p);
                self.augment_blossom(t, at);
            }
            j += jstep;
            let t = Self::at(&childs, j);
            let back = self.rev(p);
            if t >= self.n {
                let at = self.to(back);
                self.augment_blossom(t, at);
            }
            let (a, c) = (self.to(p), self.to(back));
            self.mate[a] = back;
            self.mate[c] = p;
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

    /// Flips the alternating path from `s` to the root of its tree; `s`'s mate becomes the
    /// endpoint `p` (`NONE`: `s` is left unmatched).
    fn augment_path(&mut self, mut s: usize, mut p: usize) {
        loop {
            let bs = self.inblossom[s];
            if bs >= self.n {
                self.augment_blossom(bs, s);
            }
            self.mate[s] = p;
            if self.labelend[bs] == NONE {
                break;
            }
            let t = self.to(self.labelend[bs]);
            let bt = self.inblossom[t];
            s = self.to(self.labelend[bt]);
            let j = self.to(self.rev(self.labelend[bt]));
            if bt >= self.n {
                self.augment_blossom(bt, j);
            }
            self.mate[j] = self.labelend[bt];
            p = self.rev(self.labelend[bt]);
        }
    }

    /// Augments the matching along the path through the tight edge from `v` (S) to `w` (S,
    /// or an unmatched vertex with dual zero).
    fn augment_matching(&mut self, v: usize, w: usize) {
        let n = self.n;
        self.augment_path(v, v * n + w);
        self.augment_path(w, w * n + v);
    }

    /// Makes the matching optimal for the weights set.
    pub fn solve(&mut self) {
        let n = self.n;
        if n == 0 {
            return;
        }
        // Freed vertices: a dual that covers any edge.
        let big = self.max_e.double();
        for v in std::mem::take(&mut self.freed_list) {
            self.dualvar[v] = big;
            self.freed[v] = false;
        }
        // A search halves the slack between two trees: every root starts with an even dual
        // (every vertex of a tree has its root's parity, through tight edges of even weight).
        for v in 0..n {
            if self.mate[v] == NONE && self.dualvar[v].is_odd() {
                self.dissolve_around(v);
                self.dualvar[v] = self.dualvar[v] + W::one();
            }
        }
        loop {
            self.stamp = self.stamp.wrapping_add(1);
            if self.stamp == 0 {
                self.allowed.iter_mut().for_each(|a| *a = 0);
                self.stamp = 1;
            }
            self.label.iter_mut().for_each(|l| *l = 0);
            self.labelend.iter_mut().for_each(|l| *l = NONE);
            self.bestedge.iter_mut().for_each(|e| *e = NONE);
            for b in n..2 * n {
                self.blossombestedges[b] = None;
            }
            self.queue.clear();
            let mut roots = false;
            for v in 0..n {
                if self.mate[v] == NONE
                    && self.label[self.inblossom[v]] == 0
                    && self.dualvar[v] > W::zero()
                {
                    self.assign_label(v, 1, NONE);
                    roots = true;
                }
            }
            if !roots {
                break;
            }
            self.stage();
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

    /// One search from the roots labelled S; it ends with an augmentation.
    fn stage(&mut self) {
        let n = self.n;
        loop {
            while let Some(v) = self.queue.pop() {
                for w in 0..n {
                    if v == w
                        || self.inblossom[v] == self.inblossom[w]
                        || self.w[tri(v, w)] == W::zero()
                    {
                        continue;
                    }
                    let k = self.key(v, w);
                    let mut kslack = W::zero();
                    if !self.allowedge(k) {
                        kslack = self.slack(k);
                        if kslack <= W::zero() {
                            self.allow(k);
                        }
                    }
                    let bw = self.inblossom[w];
                    if self.allowedge(k) {
                        if self.label[bw] == 0 {
                            if self.mate[self.blossombase[bw]] == NONE {
                                // An unmatched vertex with dual zero.
                                self.augment_matching(v, w);
                                return;
                            }
                            self.assign_label(w, 2, w * n + v);
                        } else if self.label[bw] == 1 {
                            let base = self.scan_blossom(v, w);
                            if base != NONE {
                                self.add_blossom(base, v, w);
                            } else {
                                self.augment_matching(v, w);
                                return;
                            }
                        } else if self.label[w] == 0 {
                            self.label[w] = 2;
                            self.labelend[w] = w * n + v;
                        }
                    } else if self.label[bw] == 1 {
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
            // No tight edge left to grow on: change the duals by the largest delta that
            // keeps them feasible.
            let mut deltatype = 1;
            let mut delta = W::zero();
            let mut deltavertex = NONE;
            for v in 0..n {
                if self.label[self.inblossom[v]] == 1
                    && (deltavertex == NONE || self.dualvar[v] < delta)
                {
                    delta = self.dualvar[v];
                    deltavertex = v;
                }
            }
            debug_assert!(deltavertex != NONE, "a search has a root");
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
                if self.blossomparent[b] == NONE && self.label[b] == 1 && self.bestedge[b] != NONE {
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
                1 => {
                    // A vertex of a tree reached dual zero: it is left unmatched instead
                    // of the root.
                    self.augment_path(deltavertex, NONE);
                    return;
                }
                2 => {
                    self.allow(deltaedge);
                    let (mut i, j) = (deltaedge / n, deltaedge % n);
                    if self.label[self.inblossom[i]] == 0 {
                        i = j;
                    }
                    self.queue.push(i);
                }
                3 => {
                    self.allow(deltaedge);
                    self.queue.push(deltaedge / n);
                }
                _ => self.expand_blossom(deltablossom, false),
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
            let total = total_of(&w, &max_weight_matching(n, &edges), case);
            assert_eq!(total, brute(n, &w), "case {case}: n {n} edges {edges:?}");
        }
    }

    /// The total weight of `mate`, checked to be a matching of real edges.
    fn total_of(w: &[Vec<i64>], mate: &[Option<usize>], case: usize) -> i64 {
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
        total
    }

    #[test]
    #[allow(clippy::needless_range_loop)] // an adjacency matrix reads best by index
    fn updates_keep_the_matching_optimal() {
        let mut r = Lcg(23);
        for case in 0..1500 {
            let n = 1 + r.next(11) as usize;
            let range = [3, 10, 1000][case % 3];
            let mut w = vec![vec![0i64; n]; n];
            let mut m = Matcher::<i64>::new(n);
            for round in 0..10 {
                // Every edge at first; then the edges of one to three vertices, or single
                // edges (some removed), as the Dutch pairing changes them.
                let vertices = if round == 0 {
                    n
                } else {
                    1 + r.next(3) as usize
                };
                for _ in 0..vertices {
                    let v = r.next(n as u64) as usize;
                    for u in 0..n {
                        let single = round > 0 && case % 2 == 1;
                        if u == v || r.next(3) == 0 || (single && r.next(n as u64) > 0) {
                            continue;
                        }
                        let x = if r.next(4) == 0 {
                            0
                        } else {
                            1 + r.next(range) as i64
                        };
                        w[v][u] = x;
                        w[u][v] = x;
                        m.set_weight(v, u, x);
                    }
                }
                m.solve();
                let total = total_of(&w, &m.mates(), case);
                assert_eq!(
                    total,
                    brute(n, &w),
                    "case {case} round {round}: n {n} {w:?}"
                );
            }
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
