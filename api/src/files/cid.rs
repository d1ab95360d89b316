//! IPFS content identifiers computed exactly as `ipfs add --cid-version=1` does (Kubo's
//! defaults): 256 KiB fixed-size chunks stored as raw leaves, and for larger files a balanced
//! tree of dag-pb UnixFS nodes with at most 174 links each. The same bytes get the same CID here
//! and on any IPFS node, so a file pinned elsewhere later keeps its address.

use sha2::{Digest, Sha256};

const CHUNK: usize = 262_144;
const MAX_LINKS: usize = 174;
const RAW: u64 = 0x55;
const DAG_PB: u64 = 0x70;
const SHA2_256: u64 = 0x12;

/// A node of the tree: its CID bytes, the file bytes below it, and its cumulative block size.
struct Node {
    cid: Vec<u8>,
    file_size: u64,
    tree_size: u64,
}

/// The CIDv1 (base32, `b...`) of `data` as `ipfs add --cid-version=1` would print it.
pub fn cid_v1(data: &[u8]) -> String {
    let leaves: Vec<Node> = if data.is_empty() { vec![leaf(&[])] } else { data.chunks(CHUNK).map(leaf).collect() };
    let mut level = leaves;
    while level.len() > 1 {
        level = level.chunks(MAX_LINKS).map(parent).collect();
    }
    let root = level.pop().expect("at least one leaf");
    format!("b{}", base32(&root.cid))
}

fn leaf(chunk: &[u8]) -> Node {
    Node { cid: cid_bytes(RAW, chunk), file_size: chunk.len() as u64, tree_size: chunk.len() as u64 }
}

fn parent(children: &[Node]) -> Node {
    // UnixFS Data: Type = File (2), filesize, one blocksize per child (proto2, not packed).
    let mut unixfs = Vec::new();
    field_varint(&mut unixfs, 1, 2);
    let file_size: u64 = children.iter().map(|c| c.file_size).sum();
    field_varint(&mut unixfs, 3, file_size);
    for child in children {
        field_varint(&mut unixfs, 4, child.file_size);
    }
    // dag-pb PBNode: Links (field 2) first, then Data (field 1), as the canonical form requires.
    let mut block = Vec::new();
    for child in children {
        let mut link = Vec::new();
        field_bytes(&mut link, 1, &child.cid);
        field_bytes(&mut link, 2, b"");
        field_varint(&mut link, 3, child.tree_size);
        field_bytes(&mut block, 2, &link);
    }
    field_bytes(&mut block, 1, &unixfs);
    let tree_size = block.len() as u64 + children.iter().map(|c| c.tree_size).sum::<u64>();
    Node { cid: cid_bytes(DAG_PB, &block), file_size, tree_size }
}

fn cid_bytes(codec: u64, block: &[u8]) -> Vec<u8> {
    let mut cid = Vec::with_capacity(36);
    varint(&mut cid, 1);
    varint(&mut cid, codec);
    varint(&mut cid, SHA2_256);
    varint(&mut cid, 32);
    cid.extend_from_slice(&Sha256::digest(block));
    cid
}

fn varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

fn field_varint(out: &mut Vec<u8>, field: u64, value: u64) {
    varint(out, field << 3);
    varint(out, value);
}

fn field_bytes(out: &mut Vec<u8>, field: u64, bytes: &[u8]) {
    varint(out, (field << 3) | 2);
    varint(out, bytes.len() as u64);
    out.extend_from_slice(bytes);
}

/// RFC 4648 base32, lower case, no padding (multibase `b`).
fn base32(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 32] = b"abcdefghijklmnopqrstuvwxyz234567";
    let mut out = String::with_capacity(bytes.len() * 8 / 5 + 1);
    let (mut buffer, mut bits) = (0u32, 0u32);
    for &byte in bytes {
        buffer = (buffer << 8) | byte as u32;
        bits += 8;
        while bits >= 5 {
            bits -= 5;
            out.push(ALPHABET[((buffer >> bits) & 31) as usize] as char);
        }
    }
    if bits > 0 {
        out.push(ALPHABET[((buffer << (5 - bits)) & 31) as usize] as char);
    }
    out
}

/// Whether `text` looks like a CIDv1 this store could have produced (for routing and paths).
pub fn is_cid_v1(text: &str) -> bool {
    text.len() > 50
        && text.len() < 70
        && text.starts_with("baf")
        && text.bytes().all(|b| b.is_ascii_lowercase() || (b'2'..=b'7').contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn content(n: usize) -> Vec<u8> {
        (0..n).map(|i| ((i * 31 + 7) % 251) as u8).collect()
    }

    /// Expected values printed by the reference importer (`ipfs-unixfs-importer`, Kubo's
    /// defaults: CIDv1, raw leaves, 256 KiB chunks, balanced, 174 links) for the same bytes.
    #[test]
    fn cids_match_the_reference_importer() {
        let cases = [
            (0, "bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku"),
            (11, "bafkreic5ts76k7n66jmmum5zpih6ttjqssggqk4eenqwyh5jw7zcowlenu"),
            (262_144, "bafkreieiuj5mzeuqor24l4lmo2yumm6665yv4gq7ozzp2nrfmqrjyboosy"),
            (262_145, "bafybeich6cqd6yabw3cku6edwmz4rvwe275nx2l6ootvc2bpbt5bdvarua"),
            (1_000_000, "bafybeiclwhwdl4p5zj7tkk4w4xwcnphz76aibkikjcfmx7cecdfjdtlstq"),
            (262_144 * 174, "bafybeiafkae3md3zfgdgpk2ztpkul5dzotu4bgbnvuinadceqrqa2rz7bi"),
            (262_144 * 174 + 1, "bafybeibo5yjphmmdq6aigqtgrijost25l5lmv5l37von7hrjv7sagnx4sy"),
        ];
        for (size, expected) in cases {
            assert_eq!(cid_v1(&content(size)), expected, "{size} bytes");
            assert!(is_cid_v1(expected));
        }
        assert_eq!(cid_v1(b"hello world"), "bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e");
    }

    #[test]
    fn path_tricks_are_not_cids() {
        assert!(!is_cid_v1("../../etc/passwd"));
        assert!(!is_cid_v1("bafkrei/../x"));
        assert!(!is_cid_v1("QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG"));
    }
}
