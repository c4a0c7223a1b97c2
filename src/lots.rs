//! Lots anyone can audit.
//!
//! Each game has a 32-byte secret chosen when it starts; its announcement carries
//! the commitment `SHA-256(secret)` in hex. Every decision taken by lot is a
//! `Draw`: a purpose (`assign powers: tie between ...`), the candidates sorted
//! by their text, and the chosen index computed from
//! `HMAC-SHA256(secret, message)` where `message` is
//! `"legate-lot-v1\n" + purpose + "\n" + candidate_1 + "\n" + ... + candidate_n`.
//! When the game ends the secret is revealed, and anyone can recompute every draw.
//!
//! The choice is unbiased: the 32-byte MAC is read as four big-endian `u64`
//! words; the first word below the largest multiple of `n` that fits in a `u64`
//! gives `word % n`. If all four are rejected (probability below 2^-200 for
//! small `n`), further blocks `HMAC-SHA256(secret, message + "\n#" + k)` for
//! k = 1, 2, ... are read the same way.

use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

type HmacSha256 = Hmac<Sha256>;

const DOMAIN: &str = "legate-lot-v1";

/// A game's lot secret.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LotSecret(#[serde(with = "hex_bytes")] pub [u8; 32]);

impl std::fmt::Debug for LotSecret {
    // The secret must not leak through logs before the game ends.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LotSecret(..)")
    }
}

impl LotSecret {
    pub fn from_hex(text: &str) -> Option<LotSecret> {
        let bytes = hex::decode(text.trim()).ok()?;
        Some(LotSecret(bytes.try_into().ok()?))
    }

    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    /// `SHA-256(secret)` in lower-case hex: what the game announcement publishes.
    pub fn commitment(&self) -> String {
        hex::encode(Sha256::digest(self.0))
    }
}

/// One decision taken by lot, as recorded in the game's history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Draw {
    pub purpose: String,
    /// Sorted by their text; the message is built from this order.
    pub candidates: Vec<String>,
    /// Index into `candidates`.
    pub chosen: usize,
}

impl Draw {
    pub fn winner(&self) -> &str {
        self.candidates
            .get(self.chosen)
            .map(String::as_str)
            .unwrap_or("")
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LotError {
    #[error("a lot needs at least one candidate")]
    NoCandidates,
    #[error("a lot's purpose and candidates may not contain line breaks: {0:?}")]
    LineBreak(String),
    #[error("candidate {0:?} appears twice")]
    Duplicate(String),
}

fn message(purpose: &str, sorted: &[String]) -> String {
    let mut m = String::from(DOMAIN);
    m.push('\n');
    m.push_str(purpose);
    for c in sorted {
        m.push('\n');
        m.push_str(c);
    }
    m
}

fn mac(secret: &LotSecret, data: &[u8]) -> [u8; 32] {
    // HMAC accepts keys of any length, so this cannot fail for 32 bytes.
    let mut m = <HmacSha256 as Mac>::new_from_slice(&secret.0).expect("HMAC takes any key length");
    m.update(data);
    m.finalize().into_bytes().into()
}

fn choose(secret: &LotSecret, msg: &str, n: usize) -> usize {
    let n64 = n as u64;
    // Words are accepted below the largest multiple of n not above 2^64; the
    // remainder r = 2^64 mod n would bias the result. `limit` is the last accepted word.
    let limit = u64::MAX - (u64::MAX % n64 + 1) % n64;
    let mut block = 0u64;
    loop {
        let data = if block == 0 {
            msg.to_string()
        } else {
            format!("{msg}\n#{block}")
        };
        let out = mac(secret, data.as_bytes());
        for chunk in out.chunks_exact(8) {
            let mut w = [0u8; 8];
            w.copy_from_slice(chunk);
            let word = u64::from_be_bytes(w);
            if word <= limit {
                return (word % n64) as usize;
            }
        }
        block += 1;
    }
}

/// Draws one of `candidates` for `purpose`. The candidates are sorted first, so
/// the order in which the caller lists them does not matter.
pub fn draw(secret: &LotSecret, purpose: &str, candidates: &[String]) -> Result<Draw, LotError> {
    if candidates.is_empty() {
        return Err(LotError::NoCandidates);
    }
    for text in std::iter::once(purpose).chain(candidates.iter().map(String::as_str)) {
        if text.contains('\n') || text.contains('\r') {
            return Err(LotError::LineBreak(text.to_string()));
        }
    }
    let mut sorted = candidates.to_vec();
    sorted.sort();
    if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
        return Err(LotError::Duplicate(w[0].clone()));
    }
    let chosen = choose(secret, &message(purpose, &sorted), sorted.len());
    Ok(Draw {
        purpose: purpose.to_string(),
        candidates: sorted,
        chosen,
    })
}

/// Why a recorded draw does not check out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DrawProblem {
    /// The secret does not hash to the published commitment.
    Commitment { expected: String, actual: String },
    /// Draw `index` chose `recorded`, but the secret gives `computed`.
    Mismatch {
        index: usize,
        purpose: String,
        recorded: String,
        computed: String,
    },
    /// Draw `index` is malformed (unsorted, empty, ...).
    Malformed {
        index: usize,
        purpose: String,
        why: String,
    },
}

impl std::fmt::Display for DrawProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DrawProblem::Commitment { expected, actual } => {
                write!(
                    f,
                    "secret hashes to {actual}, but the published commitment is {expected}"
                )
            }
            DrawProblem::Mismatch {
                index,
                purpose,
                recorded,
                computed,
            } => write!(
                f,
                "draw {} ({purpose}): recorded {recorded:?}, the secret gives {computed:?}",
                index + 1
            ),
            DrawProblem::Malformed {
                index,
                purpose,
                why,
            } => {
                write!(f, "draw {} ({purpose}): {why}", index + 1)
            }
        }
    }
}

/// Re-checks a game's lots: the secret against the commitment, and every draw.
/// An empty result means everything checks out.
pub fn verify(secret: &LotSecret, commitment: &str, draws: &[Draw]) -> Vec<DrawProblem> {
    let mut problems = Vec::new();
    let actual = secret.commitment();
    if !actual.eq_ignore_ascii_case(commitment.trim()) {
        problems.push(DrawProblem::Commitment {
            expected: commitment.trim().to_string(),
            actual,
        });
    }
    for (index, d) in draws.iter().enumerate() {
        let malformed = |why: &str| DrawProblem::Malformed {
            index,
            purpose: d.purpose.clone(),
            why: why.to_string(),
        };
        if d.candidates.windows(2).any(|w| w[0] >= w[1]) {
            problems.push(malformed("candidates are not sorted and distinct"));
            continue;
        }
        if d.chosen >= d.candidates.len() {
            problems.push(malformed("chosen index is out of range"));
            continue;
        }
        match draw(secret, &d.purpose, &d.candidates) {
            Ok(again) if again.chosen == d.chosen => {}
            Ok(again) => problems.push(DrawProblem::Mismatch {
                index,
                purpose: d.purpose.clone(),
                recorded: d.winner().to_string(),
                computed: again.winner().to_string(),
            }),
            Err(e) => problems.push(malformed(&e.to_string())),
        }
    }
    problems
}

mod hex_bytes {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(bytes: &[u8; 32], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&hex::encode(bytes))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[u8; 32], D::Error> {
        let text = String::deserialize(d)?;
        let bytes = hex::decode(text).map_err(serde::de::Error::custom)?;
        bytes
            .try_into()
            .map_err(|_| serde::de::Error::custom("a lot secret is 32 bytes"))
    }
}
