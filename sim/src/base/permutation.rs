//! A renaming of the first `n` nodes, for the explorer's node-symmetry reduction.
//!
//! A permutation maps each node id `n_i` to a new id `π(n_i)` among the first `n`; ids from `n` on
//! keep their names. Renaming a world's state under `π` means three things, and the digests that
//! take a permutation (`World::digest_under`) do all three:
//! - every `NodeId` value kept anywhere (a vote, a leader hint, a message's ends) becomes `π(id)`;
//! - every [`NodeSet`] becomes the set of renamed members (bit `i` moves to bit `π(i)`);
//! - every piece of data kept *by position* (a vector indexed by node, the world's node slots, the
//!   network's cut matrix) is read in the renamed order: the entry at new position `j` is the old
//!   entry at `π⁻¹(j)` ([`Permutation::source`]).
//!
//! Missing any one of them would make a digest that is neither the state's nor its mirror image's,
//! and two states that are not mirror images could then share a least digest.

use super::ids::{NodeId, NodeSet};
use std::hash::{Hash, Hasher};

/// A permutation of the nodes `0..len`, kept both ways so either lookup is one index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Permutation {
    /// `image[i]`: the new index of old node `i`.
    image: Vec<u16>,
    /// `source[j]`: the old node that gets new index `j`.
    source: Vec<u16>,
}

impl Permutation {
    /// The permutation that renames nothing.
    pub fn identity(len: usize) -> Permutation {
        let image: Vec<u16> = (0..len as u16).collect();
        Permutation {
            source: image.clone(),
            image,
        }
    }

    /// The permutation with these images (`image[i]` is old node `i`'s new index); `None` unless
    /// every index `0..image.len()` appears once.
    pub fn from_images(image: Vec<u16>) -> Option<Permutation> {
        let mut source = vec![u16::MAX; image.len()];
        for (old, &new) in image.iter().enumerate() {
            let slot = source.get_mut(new as usize)?;
            if *slot != u16::MAX {
                return None;
            }
            *slot = old as u16;
        }
        Some(Permutation { image, source })
    }

    /// Every permutation of `0..len`, the identity first, in lexicographic order of the images:
    /// `len!` of them.
    pub fn all(len: usize) -> Vec<Permutation> {
        let mut image: Vec<u16> = (0..len as u16).collect();
        let mut every = vec![Permutation::from_images(image.clone()).expect("identity")];
        while next_lexicographic(&mut image) {
            every.push(Permutation::from_images(image.clone()).expect("a permutation"));
        }
        every
    }

    pub fn len(&self) -> usize {
        self.image.len()
    }

    pub fn is_empty(&self) -> bool {
        self.image.is_empty()
    }

    /// The new name of `node` (a node outside the permuted range keeps its own).
    pub fn node(&self, node: NodeId) -> NodeId {
        match self.image.get(node.index()) {
            Some(&new) => NodeId(new),
            None => node,
        }
    }

    /// The old index whose data sits at new position `position` (itself outside the range).
    pub fn source(&self, position: usize) -> usize {
        self.source
            .get(position)
            .map_or(position, |&old| old as usize)
    }

    /// The set of the members' new names.
    pub fn set(&self, set: NodeSet) -> NodeSet {
        set.iter().map(|member| self.node(member)).collect()
    }

    /// `items` (indexed by node) in the renamed order: the item of `source(0)`, then of
    /// `source(1)`, and so on; items past the permuted range keep their places.
    pub fn positional<'a, T>(&'a self, items: &'a [T]) -> impl Iterator<Item = &'a T> + 'a {
        (0..items.len()).map(move |position| &items[self.source(position)])
    }

    /// Feeds `out` a vector kept by node in the renamed order, its length first as a derived
    /// `Hash` writes it.
    pub fn hash_positional<T: Hash>(&self, items: &[T], mut out: &mut dyn Hasher) {
        items.len().hash(&mut out);
        for item in self.positional(items) {
            item.hash(&mut out);
        }
    }

    /// A set kept as [`NodeSet::bits`], renamed.
    pub fn bits(&self, bits: u64) -> u64 {
        let members = (0..64u16).filter(|bit| bits & (1 << bit) != 0).map(NodeId);
        self.set(members.collect()).bits()
    }
}

/// Steps `items` to the next permutation in lexicographic order; `false` after the last.
fn next_lexicographic(items: &mut [u16]) -> bool {
    let Some(pivot) = (1..items.len()).rev().find(|&i| items[i - 1] < items[i]) else {
        return false;
    };
    let pivot = pivot - 1;
    let successor = (pivot + 1..items.len())
        .rev()
        .find(|&i| items[i] > items[pivot])
        .expect("a larger item after the pivot");
    items.swap(pivot, successor);
    items[pivot + 1..].reverse();
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_lists_every_permutation_once_identity_first() {
        let every = Permutation::all(4);
        assert_eq!(every.len(), 24);
        assert_eq!(every[0], Permutation::identity(4));
        for (index, one) in every.iter().enumerate() {
            assert!(!every[index + 1..].contains(one));
        }
        assert_eq!(Permutation::all(1).len(), 1);
    }

    #[test]
    fn renaming_moves_ids_sets_and_positions_together() {
        // n1 -> n3, n2 -> n1, n3 -> n2.
        let rotate = Permutation::from_images(vec![2, 0, 1]).unwrap();
        assert_eq!(rotate.node(NodeId(0)), NodeId(2));
        assert_eq!(rotate.node(NodeId(7)), NodeId(7));
        let set: NodeSet = [NodeId(0), NodeId(1)].into_iter().collect();
        let renamed: NodeSet = [NodeId(2), NodeId(0)].into_iter().collect();
        assert_eq!(rotate.set(set), renamed);
        let by_node = ["of n1", "of n2", "of n3", "of n4"];
        let moved: Vec<&&str> = rotate.positional(&by_node).collect();
        assert_eq!(moved, [&"of n2", &"of n3", &"of n1", &"of n4"]);
        assert!(Permutation::from_images(vec![0, 0]).is_none());
        assert!(Permutation::from_images(vec![0, 2]).is_none());
    }
}
