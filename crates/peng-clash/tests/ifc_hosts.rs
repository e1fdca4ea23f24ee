//! Doors and windows know the element whose opening they fill, on the real
//! models of the test data, and the fillers-in-hosts rule skips exactly
//! those pairs.

use peng_clash::{read_ifc, run, ClashTest, IgnoreRules, Mode};
use std::path::PathBuf;

#[test]
fn fillers_know_their_hosts_and_the_rule_skips_only_those_pairs() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/ifc/duplex.ifc");
    let model = read_ifc(&path).unwrap().elements;
    let fillers: Vec<_> = model
        .iter()
        .filter(|e| e.identity.fills.is_some())
        .collect();
    // duplex.ifc relates 38 doors and windows to their openings; each opening
    // voids a wall of the model.
    assert_eq!(fillers.len(), 38);
    for f in &fillers {
        assert!(
            f.identity.class == "IfcDoor" || f.identity.class == "IfcWindow",
            "{:?}",
            f.identity
        );
        // The host is an element of the model, or (a roof) the whole its
        // parts belong to.
        let host = f.identity.fills.as_deref().unwrap();
        let hosts = model
            .iter()
            .filter(|e| e.identity.id == host || e.identity.parent.as_deref() == Some(host))
            .count();
        assert!(hosts > 0, "{:?} fills a missing element", f.identity);
    }
    let pairs = |ignore: IgnoreRules| {
        let test = ClashTest {
            ignore,
            ..ClashTest::whole_model(&model, Mode::TOUCHING)
        };
        run(&model, &test)
            .iter()
            .map(|c| (model[c.a].identity.clone(), model[c.b].identity.clone()))
            .collect::<Vec<_>>()
    };
    let all = pairs(IgnoreRules::default());
    let kept = pairs(IgnoreRules {
        fillers_in_hosts: true,
        ..IgnoreRules::default()
    });
    let fills = |x: &peng_clash::Identity, y: &peng_clash::Identity| {
        x.fills
            .as_deref()
            .is_some_and(|h| h == y.id || y.parent.as_deref() == Some(h))
    };
    let hosted =
        |(a, b): &&(peng_clash::Identity, peng_clash::Identity)| fills(a, b) || fills(b, a);
    let skipped: Vec<_> = all.iter().filter(hosted).collect();
    // Every filler touches its wall at least (the frame in the opening).
    assert!(skipped.len() >= 30, "{}", skipped.len());
    assert_eq!(kept.len(), all.len() - skipped.len());
    assert!(kept.iter().all(|p| !hosted(&p)));
}
