//! The bindings' world on its own: triggers, margins, removal, sweeps and
//! errors, with the event numbers as JavaScript reads them.

use super::*;

/// The events of the last update as (kind, a, b, watch) rows.
fn rows(c: &Core) -> Vec<(u8, u32, u32, i64)> {
    c.events()
        .chunks_exact(EVENT_STRIDE)
        .map(|e| (e[0] as u8, e[1] as u32, e[2] as u32, e[3] as i64))
        .collect()
}

#[test]
fn once_and_continuous_triggers() {
    let mut c = Core::default();
    let ball = c.add_circle(0.0, 100.0, 10.0).unwrap();
    let block = c.add_box(0.0, 0.0, 50.0, 10.0, 0.0).unwrap();
    let once = c.watch(&[ball as f64], &[block as f64], "once").unwrap();
    let cont = c
        .watch(&[ball as f64], &[block as f64], "continuous")
        .unwrap();
    assert_eq!(c.update(), 0);
    // Touching: 5 deep.
    c.set_pose(ball as f64, 0.0, 15.0, 0.0).unwrap();
    c.update();
    let r = rows(&c);
    assert!(r.contains(&(0, ball, block, once as i64)), "{r:?}");
    assert!(r.contains(&(0, ball, block, cont as i64)), "{r:?}");
    // The contact: between the ball's lowest point (y 5) and the block's top
    // (y 10), normal from the ball down to the block.
    let e = &c.events()[..EVENT_STRIDE];
    assert!((e[8] - 7.5).abs() < 1e-4 && e[7].abs() < 1e-4, "{e:?}");
    assert!((e[10] + 1.0).abs() < 1e-6, "{e:?}");
    // Three more frames of contact: the continuous set reports each.
    for _ in 0..3 {
        c.set_pose(ball as f64, 1.0, 15.0, 0.0).unwrap();
        c.update();
        let r = rows(&c);
        assert!(r.contains(&(1, ball, block, cont as i64)), "{r:?}");
        assert!(!r.iter().any(|e| e.3 == once as i64), "{r:?}");
    }
    c.set_pose(ball as f64, 0.0, 100.0, 0.0).unwrap();
    c.update();
    let r = rows(&c);
    assert!(r.contains(&(2, ball, block, once as i64)), "{r:?}");
    assert!(r.contains(&(2, ball, block, cont as i64)), "{r:?}");
}

#[test]
fn boundary_margin_counts_a_gap_up_to_it() {
    let mut c = Core::default();
    let a = c.add_box(0.0, 0.0, 20.0, 20.0, 0.0).unwrap();
    let b = c.add_box(0.0, 0.0, 20.0, 20.0, 0.0).unwrap();
    c.set_margin_for_test(a, "boundary", 10.0);
    let mut touching = false;
    for (gap, now) in [
        (11.0, false),
        (10.0, true),
        (10.5, false),
        (9.0, true),
        (11.0, false),
    ] {
        c.set_pose(b as f64, 40.0 + gap, 0.0, 0.0).unwrap();
        c.update();
        let r = rows(&c);
        let expect = match (touching, now) {
            (false, true) => vec![(0, a, b, -1)],
            (true, false) => vec![(2, a, b, -1)],
            _ => vec![],
        };
        assert_eq!(r, expect, "gap {gap}");
        touching = now;
    }
}

#[test]
fn centre_margin_counts_centres_within_it() {
    let mut c = Core::default();
    let a = c.add_circle(0.0, 0.0, 5.0).unwrap();
    let b = c.add_circle(100.0, 0.0, 5.0).unwrap();
    c.set_margin_for_test(a, "centre", 30.0);
    c.update();
    c.set_pose(b as f64, 31.0, 0.0, 0.0).unwrap();
    assert_eq!(c.update(), 0);
    c.set_pose(b as f64, 30.0, 0.0, 0.0).unwrap();
    c.update();
    assert_eq!(rows(&c), [(0, a, b, -1)]);
}

#[test]
fn removed_on_contact_fires_once_and_leaves() {
    let mut c = Core::default();
    let a = c.add_circle(0.0, 0.0, 5.0).unwrap();
    let b = c.add_circle(100.0, 0.0, 5.0).unwrap();
    c.modify(a as f64, |k| k.remove_on_contact = true).unwrap();
    c.update();
    c.set_pose(b as f64, 8.0, 0.0, 0.0).unwrap();
    assert_eq!(c.update(), 1);
    let e = c.events();
    assert_eq!((e[0], e[5]), (0.0, 1.0), "began, removed: {e:?}");
    assert!(
        e[7].is_finite(),
        "contact point of a removed collider: {e:?}"
    );
    assert_eq!(c.len(), 1);
    assert!(c
        .set_pose(a as f64, 0.0, 0.0, 0.0)
        .unwrap_err()
        .contains(&format!("collider {a} is not in the world")));
    c.set_pose(b as f64, 9.0, 0.0, 0.0).unwrap();
    assert_eq!(c.update(), 0);
}

#[test]
fn swept_collider_does_not_jump_past_a_target() {
    let mut c = Core::default();
    let block = c.add_box(-100.0, 0.0, 10.0, 10.0, 0.0).unwrap();
    let target = c.add_circle(0.0, 0.0, 3.0).unwrap();
    c.modify(block as f64, |k| k.ccd = true).unwrap();
    c.update();
    // Three block widths past the target in one frame.
    c.set_pose(block as f64, 60.0, 0.0, 0.0).unwrap();
    c.update();
    let e = c.events();
    assert_eq!(rows(&c), [(0, block, target, -1)]);
    let toi = e[6];
    assert!(toi > 0.0 && toi < 1.0, "{e:?}");
    // At the time of impact the block's right side (x = -100 + 160 t + 10)
    // meets the circle's left (x = -3).
    assert!((toi - 87.0 / 160.0).abs() < 1e-3, "{toi}");
}

#[test]
fn bad_input_names_the_argument_and_leaves_the_world_usable() {
    let mut c = Core::default();
    assert_eq!(
        c.add_circle(f64::NAN, 0.0, 1.0).unwrap_err(),
        "x must be a finite number, got NaN"
    );
    assert_eq!(
        c.add_box(0.0, 0.0, 0.0, 1.0, 0.0).unwrap_err(),
        "half width must be above zero, got 0"
    );
    assert!(c
        .add_polygon(0.0, 0.0, 0.0, &[0.0, 0.0, 1.0])
        .unwrap_err()
        .contains("x, y pairs"));
    assert!(c
        .add_polygon(0.0, 0.0, 0.0, &[0.0, 0.0, 1.0, 0.0, 2.0, 0.0])
        .unwrap_err()
        .starts_with("polygon: "));
    let a = c.add_circle(0.0, 0.0, 1.0).unwrap();
    assert!(c
        .set_pose(a as f64, 0.0, 0.0, f64::INFINITY)
        .unwrap_err()
        .starts_with("angle "));
    assert!(c
        .set_pose(7.0, 0.0, 0.0, 0.0)
        .unwrap_err()
        .contains("collider 7 is not"));
    assert!(c.set_pose(-1.0, 0.0, 0.0, 0.0).is_err());
    assert!(c.set_pose(0.5, 0.0, 0.0, 0.0).is_err());
    assert!(c
        .watch(&[a as f64], &[9.0], "once")
        .unwrap_err()
        .contains("collider 9"));
    assert!(c
        .watch(&[a as f64], &[a as f64], "always")
        .unwrap_err()
        .contains("\"always\""));
    let b = c.add_circle(1.5, 0.0, 1.0).unwrap();
    c.update();
    assert_eq!(rows(&c), [(0, a, b, -1)]);
}

#[test]
fn an_unwatched_set_reports_nothing() {
    let mut c = Core::default();
    let a = c.add_circle(0.0, 0.0, 5.0).unwrap();
    let b = c.add_circle(100.0, 0.0, 5.0).unwrap();
    let set = c.watch(&[a as f64], &[b as f64], "once").unwrap();
    assert!(c.unwatch(set as f64));
    assert!(!c.unwatch(set as f64));
    assert!(!c.unwatch(-1.0));
    c.update();
    c.set_pose(b as f64, 8.0, 0.0, 0.0).unwrap();
    c.update();
    assert_eq!(rows(&c), [(0, a, b, -1)]);
}

#[test]
fn set_poses_moves_many_or_none() {
    let mut c = Core::default();
    let a = c.add_circle(0.0, 100.0, 10.0).unwrap();
    let b = c.add_circle(100.0, 100.0, 10.0).unwrap();
    let block = c.add_box(0.0, 0.0, 200.0, 10.0, 0.0).unwrap();
    c.watch(&[a as f64, b as f64], &[block as f64], "once")
        .unwrap();
    assert_eq!(c.update(), 0);
    // A bad second entry: an error naming it, and the first did not move.
    let e = c
        .set_poses(&[a as f64, 0.0, 15.0, 0.0, b as f64, f64::NAN, 15.0, 0.0])
        .unwrap_err();
    assert!(e.contains("entry 1") && e.contains("x"), "{e}");
    let e = c.set_poses(&[a as f64, 0.0, 15.0]).unwrap_err();
    assert!(e.contains("3 numbers"), "{e}");
    let e = c.set_poses(&[99.0, 0.0, 15.0, 0.0]).unwrap_err();
    assert!(e.contains("entry 0") && e.contains("collider 99"), "{e}");
    c.update();
    assert!(rows(&c).is_empty(), "{:?}", rows(&c));
    // Both onto the block in one call: each pair begins.
    c.set_poses(&[a as f64, 0.0, 15.0, 0.0, b as f64, 100.0, 15.0, 0.0])
        .unwrap();
    c.update();
    let r = rows(&c);
    assert!(
        r.iter().any(|e| e.0 == 0 && e.1 == a && e.2 == block),
        "{r:?}"
    );
    assert!(
        r.iter().any(|e| e.0 == 0 && e.1 == b && e.2 == block),
        "{r:?}"
    );
}
