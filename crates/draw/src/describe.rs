//! Saying in words what the positions of one probability class have in common. Nothing is
//! written per method: a list of candidate properties of a back rank (bishops in one of the
//! pairs a-b … g-h, the king's place among the squares the bishops leave free, the king's
//! file, knights adjacent, …) is tested against the class, and the first property whose
//! positions are exactly the class (or exactly the other positions, said negatively) names it;
//! failing that, the first conjunction of two properties that does. So the description states
//! a property that provably separates the class from the rest.

use crate::row::ordinal;
use chess960_core::{Role, StartId};

/// A set of start IDs, one bit each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IdSet([u64; 15]);

impl IdSet {
    /// The empty set.
    pub fn empty() -> IdSet {
        IdSet([0; 15])
    }

    /// Adds an ID.
    pub fn insert(&mut self, id: u16) {
        self.0[id as usize / 64] |= 1 << (id % 64);
    }

    /// Whether the set holds `id`.
    pub fn contains(&self, id: u16) -> bool {
        self.0[id as usize / 64] & (1 << (id % 64)) != 0
    }

    /// How many IDs the set holds.
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The IDs not in the set (of 0..960).
    pub fn complement(&self) -> IdSet {
        let mut out = [0; 15];
        for (o, w) in out.iter_mut().zip(self.0) {
            *o = !w;
        }
        IdSet(out)
    }

    fn and(&self, other: &IdSet) -> IdSet {
        let mut out = [0; 15];
        for ((o, a), b) in out.iter_mut().zip(self.0).zip(other.0) {
            *o = a & b;
        }
        IdSet(out)
    }
}

/// A property of a back rank, with words for when it holds and when it does not.
pub struct Property {
    /// Words for the positions that have it: "king on the b- or g-file".
    pub holds: String,
    /// Words for the positions that do not.
    pub fails: String,
    /// The positions that have it.
    pub set: IdSet,
}

/// Files of `role`, from the left.
fn files(rank: &[Role; 8], role: Role) -> Vec<usize> {
    (0..8).filter(|&i| rank[i] == role).collect()
}

/// `the 2nd or 5th`, `the 2nd, 3rd or 5th`.
fn ordinals(list: &[usize]) -> String {
    let words: Vec<String> = list.iter().map(|&n| ordinal(n)).collect();
    or_list(&words)
}

/// `a, b or c`.
fn or_list(words: &[String]) -> String {
    match words.len() {
        0 => String::new(),
        1 => words[0].clone(),
        n => format!("{} or {}", words[..n - 1].join(", "), words[n - 1]),
    }
}

/// `the b-file`, `the b- or g-file`, `the b-, c- or g-file`.
fn file_list(files: &[usize]) -> String {
    let letters: Vec<String> = files
        .iter()
        .map(|&f| format!("{}-", (b'a' + f as u8) as char))
        .collect();
    format!("the {}file", or_list(&letters))
}

/// Subsets of `items` with `min..=max` elements, each in order.
fn subsets(items: &[usize], min: usize, max: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    for mask in 1u32..(1 << items.len()) {
        let s: Vec<usize> = (0..items.len())
            .filter(|&i| mask & (1 << i) != 0)
            .map(|i| items[i])
            .collect();
        if (min..=max).contains(&s.len()) {
            out.push(s);
        }
    }
    out.sort_by_key(|s| (s.len(), s.clone()));
    out
}

/// The candidate properties, simplest first.
pub fn properties() -> Vec<Property> {
    let ranks: Vec<[Role; 8]> = StartId::all().map(|id| id.back_rank().roles()).collect();
    let mut out = Vec::new();
    let mut add = |holds: String, fails: String, test: &dyn Fn(&[Role; 8]) -> bool| {
        let mut set = IdSet::empty();
        for (id, rank) in ranks.iter().enumerate() {
            if test(rank) {
                set.insert(id as u16);
            }
        }
        out.push(Property { holds, fails, set });
    };

    add(
        "bishops side by side in one of the file pairs a-b, c-d, e-f, g-h".into(),
        "bishops not together in one of the file pairs a-b, c-d, e-f, g-h".into(),
        &|r| {
            let b = files(r, Role::Bishop);
            b[0] / 2 == b[1] / 2
        },
    );
    add(
        "bishops on adjacent files".into(),
        "bishops not on adjacent files".into(),
        &|r| {
            let b = files(r, Role::Bishop);
            b[1] - b[0] == 1
        },
    );
    // The king's place among the six squares the bishops leave free: 2nd..5th.
    for s in subsets(&[2, 3, 4, 5], 1, 3) {
        let words = ordinals(&s);
        let s2 = s.clone();
        add(
            format!("king on the {words} of the six squares the bishops leave free"),
            format!("king not on the {words} of the six squares the bishops leave free"),
            &move |r| {
                let others: Vec<Role> = r.iter().copied().filter(|&x| x != Role::Bishop).collect();
                let k = others
                    .iter()
                    .position(|&x| x == Role::King)
                    .expect("a king")
                    + 1;
                s2.contains(&k)
            },
        );
    }
    add(
        "knights on adjacent files".into(),
        "knights not on adjacent files".into(),
        &|r| {
            let n = files(r, Role::Knight);
            n[1] - n[0] == 1
        },
    );
    add(
        "queen next to the king".into(),
        "queen not next to the king".into(),
        &|r| files(r, Role::Queen)[0].abs_diff(files(r, Role::King)[0]) == 1,
    );
    add(
        "rooks in both corners".into(),
        "rooks not in both corners".into(),
        &|r| files(r, Role::Rook) == [0, 7],
    );
    add(
        "a bishop in a corner".into(),
        "no bishop in a corner".into(),
        &|r| r[0] == Role::Bishop || r[7] == Role::Bishop,
    );
    for (role, name, max) in [(Role::King, "king", 3), (Role::Queen, "queen", 2)] {
        let all: Vec<usize> = if role == Role::King {
            (1..7).collect()
        } else {
            (0..8).collect()
        };
        for s in subsets(&all, 1, max) {
            let words = file_list(&s);
            add(
                format!("{name} on {words}"),
                format!("{name} not on {words}"),
                &move |r| s.contains(&files(r, role)[0]),
            );
        }
    }
    out
}

/// Words for what the positions of `class` have in common, from the first property (or pair
/// of properties) that holds for exactly those positions.
pub fn describe(class: &IdSet, properties: &[Property]) -> String {
    let n = class.len();
    if n == 960 {
        return "every start position".to_string();
    }
    for p in properties {
        if p.set == *class {
            return p.holds.clone();
        }
    }
    for p in properties {
        if p.set.complement() == *class {
            return p.fails.clone();
        }
    }
    // Conjunctions of two properties, either way round.
    let sides = |p: &Property| {
        [
            (p.set, p.holds.clone()),
            (p.set.complement(), p.fails.clone()),
        ]
    };
    for (i, p) in properties.iter().enumerate() {
        for (ps, pw) in sides(p) {
            for q in &properties[i + 1..] {
                for (qs, qw) in sides(q) {
                    if ps.and(&qs) == *class {
                        return format!("{pw}, and {qw}");
                    }
                }
            }
        }
    }
    format!(
        "{n} positions with no common property among the {} tested",
        properties.len()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_separating_property() {
        let props = properties();
        // The bishops-in-a-pair class: 4 pairs × 60 arrangements of the other six.
        let mut pair = IdSet::empty();
        for id in StartId::all() {
            let r = id.back_rank().roles();
            let b = files(&r, Role::Bishop);
            if b[0] / 2 == b[1] / 2 {
                pair.insert(id.get());
            }
        }
        assert_eq!(pair.len(), 240);
        assert_eq!(
            describe(&pair, &props),
            "bishops side by side in one of the file pairs a-b, c-d, e-f, g-h"
        );
        assert_eq!(
            describe(&pair.complement(), &props),
            "bishops not together in one of the file pairs a-b, c-d, e-f, g-h"
        );
        let mut all = IdSet::empty();
        for id in 0..960 {
            all.insert(id);
        }
        assert_eq!(describe(&all, &props), "every start position");
        // King on the b-file and knights adjacent: a conjunction.
        let mut both = IdSet::empty();
        for id in StartId::all() {
            let r = id.back_rank().roles();
            let n = files(&r, Role::Knight);
            if r[1] == Role::King && n[1] - n[0] == 1 {
                both.insert(id.get());
            }
        }
        assert_eq!(
            describe(&both, &props),
            "knights on adjacent files, and king on the b-file"
        );
    }
}
