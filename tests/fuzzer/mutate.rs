//! Mutations of a seed input: byte flips, interesting bytes, insertions, deletions, splices with
//! another input, truncation, numbers swapped for extremes, duplicated lines (duplicated keys,
//! repeated action lines) and huge repetitions. One to four are stacked on each input.

use super::grammar::number;
use super::random::Random;

/// Bytes that mean something to TOML, JSON, base64 or postcard.
const INTERESTING_BYTES: &[u8] = b"\0\x7f\xff\x80\"'[]{}=,.:#\n\r\t\\-_+0129AZaz/";

pub fn mutate(random: &mut Random, input: &str, other: &str) -> String {
    let mut bytes = input.as_bytes().to_vec();
    for _ in 0..random.between(1, 4) {
        mutate_once(random, &mut bytes, other.as_bytes());
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Byte-level mutations only (for a link's decoded body, where text structure means nothing).
pub fn mutate_bytes(random: &mut Random, bytes: &mut Vec<u8>, other: &[u8]) {
    for _ in 0..random.between(1, 3) {
        match random.below(6) {
            0 => flip_bits(random, bytes),
            1 => set_interesting(random, bytes),
            2 => insert_random(random, bytes),
            3 => delete_range(random, bytes),
            4 => splice(random, bytes, other),
            _ => insert_varint(random, bytes),
        }
    }
}

fn mutate_once(random: &mut Random, bytes: &mut Vec<u8>, other: &[u8]) {
    match random.weighted(&[10, 8, 6, 8, 6, 6, 8, 16, 12, 6, 4]) {
        0 => flip_bits(random, bytes),
        1 => set_interesting(random, bytes),
        2 => insert_random(random, bytes),
        3 => delete_range(random, bytes),
        4 => duplicate_range(random, bytes),
        5 => splice(random, bytes, other),
        6 => truncate(random, bytes),
        7 => extreme_number(random, bytes),
        8 => duplicate_line(random, bytes),
        9 => repeat_line(random, bytes),
        _ => long_value(random, bytes),
    }
}

fn flip_bits(random: &mut Random, bytes: &mut [u8]) {
    if bytes.is_empty() {
        return;
    }
    for _ in 0..random.between(1, 8) {
        let at = random.below(bytes.len());
        bytes[at] ^= 1 << random.below(8);
    }
}

fn set_interesting(random: &mut Random, bytes: &mut [u8]) {
    if bytes.is_empty() {
        return;
    }
    let at = random.below(bytes.len());
    bytes[at] = *random.pick(INTERESTING_BYTES);
}

fn insert_random(random: &mut Random, bytes: &mut Vec<u8>) {
    let at = random.below(bytes.len() + 1);
    let count = random.between(1, 16) as usize;
    let chunk = random.bytes(count);
    bytes.splice(at..at, chunk);
}

fn range(random: &mut Random, length: usize) -> (usize, usize) {
    let start = random.below(length + 1);
    let most = (length - start).min(random.pick(&[4, 64, 4_096]).to_owned());
    (start, start + random.below(most + 1))
}

fn delete_range(random: &mut Random, bytes: &mut Vec<u8>) {
    let (start, end) = range(random, bytes.len());
    bytes.drain(start..end);
}

fn duplicate_range(random: &mut Random, bytes: &mut Vec<u8>) {
    let (start, end) = range(random, bytes.len());
    let copy = bytes[start..end].to_vec();
    let at = random.below(bytes.len() + 1);
    bytes.splice(at..at, copy);
}

/// The head of this input joined to the tail of another.
fn splice(random: &mut Random, bytes: &mut Vec<u8>, other: &[u8]) {
    let cut = random.below(bytes.len() + 1);
    let from = random.below(other.len() + 1);
    bytes.truncate(cut);
    bytes.extend_from_slice(&other[from..]);
}

fn truncate(random: &mut Random, bytes: &mut Vec<u8>) {
    let keep = random.below(bytes.len() + 1);
    bytes.truncate(keep);
}

/// A run of digits replaced by an edge or absurd value.
fn extreme_number(random: &mut Random, bytes: &mut Vec<u8>) {
    let starts: Vec<usize> = (0..bytes.len())
        .filter(|&at| bytes[at].is_ascii_digit() && (at == 0 || !bytes[at - 1].is_ascii_digit()))
        .collect();
    if starts.is_empty() {
        return;
    }
    let start = *random.pick(&starts);
    let end = (start..bytes.len())
        .find(|&at| !bytes[at].is_ascii_digit())
        .unwrap_or(bytes.len());
    let replacement = number(random, 20_000).into_bytes();
    bytes.splice(start..end, replacement);
}

fn line_bounds(random: &mut Random, bytes: &[u8]) -> (usize, usize) {
    let at = random.below(bytes.len() + 1);
    let start = bytes[..at]
        .iter()
        .rposition(|byte| *byte == b'\n')
        .map_or(0, |position| position + 1);
    let end = bytes[at..]
        .iter()
        .position(|byte| *byte == b'\n')
        .map_or(bytes.len(), |position| at + position + 1);
    (start, end)
}

/// A line written twice: a duplicated key in TOML, a repeated action or header line in a trace file.
fn duplicate_line(random: &mut Random, bytes: &mut Vec<u8>) {
    let (start, end) = line_bounds(random, bytes);
    let line = bytes[start..end].to_vec();
    let at = if random.percent(50) { end } else { start };
    bytes.splice(at..at, line);
}

/// A line repeated hundreds or thousands of times: huge step, action or event counts.
fn repeat_line(random: &mut Random, bytes: &mut Vec<u8>) {
    let (start, end) = line_bounds(random, bytes);
    let mut line = bytes[start..end].to_vec();
    if !line.ends_with(b"\n") {
        line.push(b'\n');
    }
    let times = *random.pick(&[100, 1_000, 5_001, 10_001]);
    if line.len() * times > 4_000_000 {
        return;
    }
    let block: Vec<u8> = line.repeat(times);
    bytes.splice(end..end, block);
}

/// A very long value somewhere: an error must not echo all of it.
fn long_value(random: &mut Random, bytes: &mut Vec<u8>) {
    let at = random.below(bytes.len() + 1);
    let filler = *random.pick(b"x9\x07 ");
    let count = random.between(1_000, 120_000) as usize;
    bytes.splice(at..at, std::iter::repeat_n(filler, count));
}

/// A LEB128 varint of an edge value, as postcard writes numbers, written over or into the body.
fn insert_varint(random: &mut Random, bytes: &mut Vec<u8>) {
    let value: u64 = *random.pick(&[
        0,
        1,
        127,
        128,
        10_000,
        10_001,
        3_600_000_000,
        3_600_000_001,
        u32::MAX as u64,
        u64::MAX / 2,
        u64::MAX,
    ]);
    let mut encoded = Vec::new();
    let mut rest = value;
    loop {
        let low = (rest & 0x7f) as u8;
        rest >>= 7;
        if rest == 0 {
            encoded.push(low);
            break;
        }
        encoded.push(low | 0x80);
    }
    let at = random.below(bytes.len() + 1);
    if random.percent(50) {
        let end = (at + encoded.len()).min(bytes.len());
        bytes.splice(at..end, encoded);
    } else {
        bytes.splice(at..at, encoded);
    }
}
