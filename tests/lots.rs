//! Auditable lots: commitment, draws, verification.

use legate::lots::{Draw, DrawProblem, LotError, LotSecret, draw, verify};
use sha2::{Digest, Sha256};

fn secret(byte: u8) -> LotSecret {
    LotSecret([byte; 32])
}

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[test]
fn commitment_is_sha256_of_the_secret() {
    let s = secret(7);
    assert_eq!(s.commitment(), hex::encode(Sha256::digest([7u8; 32])));
    assert_eq!(LotSecret::from_hex(&s.to_hex()), Some(s));
    assert_eq!(LotSecret::from_hex("abcd"), None);
}

#[test]
fn draw_does_not_depend_on_candidate_order() {
    let s = secret(1);
    let a = draw(&s, "tie", &names(&["France", "Austria", "Italy"])).unwrap();
    let b = draw(&s, "tie", &names(&["Italy", "France", "Austria"])).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.candidates, names(&["Austria", "France", "Italy"]));
}

#[test]
fn draw_matches_an_independent_hmac() {
    use hmac::{Hmac, Mac};
    let s = secret(3);
    let d = draw(&s, "purpose", &names(&["b", "a"])).unwrap();
    let mut m = <Hmac<Sha256> as Mac>::new_from_slice(&s.0).unwrap();
    m.update(b"legate-lot-v1\npurpose\na\nb");
    let out = m.finalize().into_bytes();
    let word = u64::from_be_bytes(out[..8].try_into().unwrap());
    // n = 2 divides 2^64, so the first word is always accepted.
    assert_eq!(d.chosen, (word % 2) as usize);
}

#[test]
fn draws_spread_over_candidates() {
    let candidates = names(&["a", "b", "c"]);
    let mut counts = [0usize; 3];
    for i in 0..300u32 {
        let d = draw(&secret(9), &format!("draw {i}"), &candidates).unwrap();
        counts[d.chosen] += 1;
    }
    // Each of three outcomes expected 100 times; far outside 50..150 means a bug.
    assert!(counts.iter().all(|&c| (50..150).contains(&c)), "{counts:?}");
}

#[test]
fn bad_draws_are_refused() {
    let s = secret(0);
    assert_eq!(draw(&s, "x", &[]), Err(LotError::NoCandidates));
    assert!(matches!(
        draw(&s, "x", &names(&["a", "a"])),
        Err(LotError::Duplicate(_))
    ));
    assert!(matches!(
        draw(&s, "x\ny", &names(&["a"])),
        Err(LotError::LineBreak(_))
    ));
}

#[test]
fn verifier_accepts_honest_draws_and_finds_forgeries() {
    let s = secret(42);
    let draws: Vec<Draw> = (0..10)
        .map(|i| {
            draw(
                &s,
                &format!("lot {i}"),
                &names(&["England", "Germany", "Russia", "Turkey"]),
            )
            .unwrap()
        })
        .collect();
    assert!(verify(&s, &s.commitment(), &draws).is_empty());

    let mut forged = draws.clone();
    forged[4].chosen = (forged[4].chosen + 1) % 4;
    let problems = verify(&s, &s.commitment(), &forged);
    assert!(
        matches!(
            problems.as_slice(),
            [DrawProblem::Mismatch { index: 4, .. }]
        ),
        "{problems:?}"
    );

    let wrong = secret(43);
    let problems = verify(&wrong, &s.commitment(), &draws);
    assert!(matches!(
        problems.first(),
        Some(DrawProblem::Commitment { .. })
    ));

    let mut unsorted = draws;
    unsorted[0].candidates.reverse();
    assert!(matches!(
        verify(&s, &s.commitment(), &unsorted).as_slice(),
        [DrawProblem::Malformed { index: 0, .. }]
    ));
}

#[test]
fn a_finished_games_lots_verify_from_the_store() {
    use legate::game::audit::{AuditError, audit_lots};
    use legate::game::{Engine, EngineConfig};
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("legate.db");
    let mut engine = Engine::open(&db, EngineConfig::default()).unwrap();
    engine.set_secret_source(|| [9; 32]);
    let now = chrono::DateTime::parse_from_rfc3339("2026-02-02T10:00:00Z")
        .unwrap()
        .to_utc();
    engine
        .apply_text("gm@x.test", "CREATE ?lots gm-pw\n", None, now)
        .unwrap();
    // Nobody states a preference: every power is drawn by lot.
    for i in 0..7 {
        let a = engine
            .apply_text(
                &format!("p{i}@x.test"),
                &format!("SIGNON ?lots pw{i}\n"),
                None,
                now,
            )
            .unwrap();
        assert_eq!(a.errors, 0, "{}", a.reply_body);
    }
    assert!(matches!(
        audit_lots(engine.store(), "lots", None),
        Err(AuditError::NotRevealed(_))
    ));
    let early = audit_lots(engine.store(), "lots", Some(&hex::encode([9u8; 32]))).unwrap();
    assert_eq!(early.draws.len(), 6);
    assert!(early.problems.is_empty());
    engine
        .apply_text("gm@x.test", "SIGNON Mlots gm-pw\nTERMINATE\n", None, now)
        .unwrap();
    let audit = audit_lots(engine.store(), "lots", None).unwrap();
    assert_eq!(audit.commitment, secret(9).commitment());
    assert!(audit.problems.is_empty(), "{:?}", audit.problems);
    let wrong = audit_lots(engine.store(), "lots", Some(&hex::encode([8u8; 32]))).unwrap();
    assert!(!wrong.problems.is_empty());
}
