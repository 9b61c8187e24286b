//! Hand-made v1–v3 bodies for the tests of the legacy reader: LEB128 varints sealed with FNV-1a, as
//! the old writer sealed them. Only tests write these bytes; no build writes v1–v3 links any more.

use super::super::legacy::fnv1a32;
use super::super::{payload, LINK_PREFIX};

#[derive(Default)]
pub struct Writer {
    bytes: Vec<u8>,
}

impl Writer {
    pub fn unsigned(&mut self, mut value: u64) {
        while value >= 0x80 {
            self.bytes.push((value as u8 & 0x7f) | 0x80);
            value >>= 7;
        }
        self.bytes.push(value as u8);
    }

    pub fn text(&mut self, text: &str) {
        self.unsigned(text.len() as u64);
        self.bytes.extend_from_slice(text.as_bytes());
    }

    pub fn raw(&mut self, bytes: &[u8]) {
        self.bytes.extend_from_slice(bytes);
    }

    /// A valid v2 settings block for a Raft cluster of `nodes`, up to and including the
    /// coordination code when `coordination` is set, and "no steps" when `steps` is.
    pub fn settings(&mut self, nodes: u64, coordination: bool, steps: bool) {
        self.text("t");
        for value in [0, nodes, 1, 600_000, 150, 300, 50, 5, 15, 0, 0, 1_000, 0] {
            self.unsigned(value);
        }
        if coordination {
            self.unsigned(0);
        }
        if steps {
            self.unsigned(0);
        }
    }

    /// The sealed bytes as a `version` fragment.
    pub fn fragment(self, version: &str) -> String {
        let mut bytes = self.bytes;
        let checksum = fnv1a32(&bytes);
        bytes.extend_from_slice(&checksum.to_le_bytes());
        format!("{LINK_PREFIX}{version}/{}", payload::encode(&bytes))
    }
}
