//! What was redacted where, merged by (path, rule) for the entry's `redacted` list.

use super::rule::Rule;
use super::Hit;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Hits merged by (path, rule), in order of first occurrence. An entry has a few (a path per redacted field, a rule
/// or two per path), which a linear search finds faster than hashing the path; past `LINEAR` of them (a large
/// document with a secret in each of many fields) an index takes over, so merging stays linear in the hits. The
/// index is keyed by a hash of the path, so a lookup allocates nothing; a path that shares its hash and rule with
/// another is found by a linear search.
#[derive(Default)]
pub struct Hits {
    pub(super) list: Vec<(Rule, Hit)>,
    index: HashMap<(u64, Rule), usize, BuildHasherDefault<Mix>>,
}

/// The index's hasher: its keys are hashes already, so mixing them once is enough.
#[derive(Default)]
struct Mix(u64);

impl Hasher for Mix {
    fn write(&mut self, bytes: &[u8]) {
        for &c in bytes {
            self.write_u64(u64::from(c));
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

const LINEAR: usize = 16;

impl Hits {
    pub fn add(&mut self, path: &str, rule: Rule) {
        let linear = |list: &[(Rule, Hit)]| list.iter().position(|(r, h)| *r == rule && h.path == path);
        // The index key, once the index is in use (computed once: the lookup and the insert both need it).
        let mut key = None;
        let found = if self.list.len() <= LINEAR {
            linear(&self.list)
        } else {
            if self.index.is_empty() {
                for (i, (r, h)) in self.list.iter().enumerate().rev() {
                    self.index.insert((fnv1a(&h.path), *r), i);
                }
            }
            let k = *key.insert((fnv1a(path), rule));
            match self.index.get(&k) {
                Some(&i) if self.list[i].1.path == path => Some(i),
                Some(_) => linear(&self.list),
                None => None,
            }
        };
        if let Some(i) = found {
            self.list[i].1.count += 1;
            return;
        }
        if let Some(k) = key {
            self.index.entry(k).or_insert(self.list.len());
        }
        self.list.push((rule, Hit { path: path.to_string(), rule: rule.id().into_owned(), count: 1 }));
    }
    pub fn into_vec(self) -> Vec<Hit> {
        self.list.into_iter().map(|(_, h)| h).collect()
    }
}

/// FNV-1a (64-bit) of a path, for [`Hits`]' index.
fn fnv1a(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, c| (h ^ u64::from(c)).wrapping_mul(0x0100_0000_01b3))
}
