//! Binary relations over a test's events, as one bit set per event: row `a`
//! holds bit `b` when `a → b`. A test has at most [`MAX`] events, so a row is
//! one `u32` and every operation is a few word operations per event.

/// The most events a relation relates.
pub const MAX: usize = 32;

/// A set of events, one bit each.
pub type Set = u32;

/// A binary relation over at most [`MAX`] events.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rel {
    rows: [Set; MAX],
}

impl Default for Rel {
    fn default() -> Self {
        Rel::EMPTY
    }
}

/// The events of a set, in increasing order.
pub fn members(set: Set) -> impl Iterator<Item = usize> {
    let mut rest = set;
    core::iter::from_fn(move || {
        (rest != 0).then(|| {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            i
        })
    })
}

impl Rel {
    /// The empty relation.
    pub const EMPTY: Rel = Rel { rows: [0; MAX] };

    /// The identity on `set`.
    pub fn identity(set: Set) -> Rel {
        let mut r = Rel::EMPTY;
        for i in members(set) {
            r.rows[i] = 1 << i;
        }
        r
    }

    /// Whether `a → b`.
    pub fn has(&self, a: usize, b: usize) -> bool {
        self.rows[a] >> b & 1 == 1
    }

    /// Adds `a → b`.
    pub fn add(&mut self, a: usize, b: usize) {
        self.rows[a] |= 1 << b;
    }

    /// Everything `a` relates to.
    pub fn row(&self, a: usize) -> Set {
        self.rows[a]
    }

    /// The union.
    pub fn or(&self, other: &Rel) -> Rel {
        let mut r = *self;
        for (x, y) in r.rows.iter_mut().zip(other.rows) {
            *x |= y;
        }
        r
    }

    /// The intersection.
    pub fn and(&self, other: &Rel) -> Rel {
        let mut r = *self;
        for (x, y) in r.rows.iter_mut().zip(other.rows) {
            *x &= y;
        }
        r
    }

    /// The pairs whose source is in `from` and whose target is in `to`.
    pub fn restrict(&self, from: Set, to: Set) -> Rel {
        let mut r = Rel::EMPTY;
        for i in members(from) {
            r.rows[i] = self.rows[i] & to;
        }
        r
    }

    /// The composition `self ; other`: `a → c` when `a → b` here and `b → c`
    /// there for some `b`.
    pub fn then(&self, other: &Rel) -> Rel {
        let mut r = Rel::EMPTY;
        for (out, &row) in r.rows.iter_mut().zip(&self.rows) {
            for b in members(row) {
                *out |= other.rows[b];
            }
        }
        r
    }

    /// The transitive closure (Warshall's algorithm, a row at a time).
    pub fn closure(&self) -> Rel {
        let mut r = *self;
        for k in 0..MAX {
            let via = r.rows[k];
            if via == 0 {
                continue;
            }
            for i in 0..MAX {
                if r.rows[i] >> k & 1 == 1 {
                    r.rows[i] |= via;
                }
            }
        }
        r
    }

    /// Whether no event relates to itself.
    pub fn irreflexive(&self) -> bool {
        self.rows.iter().enumerate().all(|(i, row)| row >> i & 1 == 0)
    }

    /// Whether the relation has no cycle: its closure is irreflexive.
    pub fn acyclic(&self) -> bool {
        self.closure().irreflexive()
    }

    /// Whether every pair of `self` is a pair of `other`.
    pub fn within(&self, other: &Rel) -> bool {
        self.rows.iter().zip(other.rows).all(|(&x, y)| x & !y == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closure_composition_and_cycles() {
        let mut r = Rel::EMPTY;
        r.add(0, 1);
        r.add(1, 2);
        assert!(r.closure().has(0, 2) && r.acyclic());
        assert!(r.then(&r).has(0, 2) && !r.then(&r).has(0, 1));
        r.add(2, 0);
        assert!(!r.acyclic() && r.irreflexive());
        assert_eq!(members(0b1010).collect::<Vec<_>>(), [1, 3]);
        assert!(Rel::identity(0b101).has(2, 2) && !Rel::identity(0b101).has(1, 1));
        assert!(r.restrict(0b1, 0b10).within(&r) && !r.within(&r.restrict(0b1, 0b10)));
    }
}
