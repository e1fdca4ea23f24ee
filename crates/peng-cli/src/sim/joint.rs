//! Joints: from their definitions to checked [`JointSpec`]s. The bodies are
//! named, the anchors and axis given in world space at the start and stored
//! in the bodies' frames; a field that does not belong to the joint's type
//! is an error.

use super::defs::JointDef;
use super::load::{finite_vec, key, non_negative, number, VecDef};
use super::model::{BodySpec, JointKind, JointSpec, Motor, Spring};
use super::space::Space;
use crate::scene::error::Located;
use crate::scene::locate::Seg;
use peng::math::Vector;
use std::collections::HashMap;

/// The index of the body named by field `field` of the joint at `path`.
pub fn body_index(
    name: &str,
    path: &[Seg],
    field: &str,
    by_name: &HashMap<&str, usize>,
) -> Result<usize, Located> {
    by_name.get(name).copied().ok_or_else(|| {
        let mut known: Vec<(&&str, &usize)> = by_name.iter().collect();
        known.sort_by_key(|(_, &i)| i);
        let list: Vec<&str> = known.iter().take(8).map(|(n, _)| **n).collect();
        let more = if known.len() > 8 { ", ..." } else { "" };
        Located::new(
            key(path, field),
            format!("unknown body {name:?} (bodies: {}{more})", list.join(", ")),
        )
    })
}

/// The joint at `path` (the `i`-th), checked against its type.
pub fn joint<D: Space, W: VecDef<V = D::V>>(
    j: &JointDef<W>,
    path: &[Seg],
    i: usize,
    bodies: &[BodySpec<D>],
    by_name: &HashMap<&str, usize>,
) -> Result<JointSpec<D>, Located> {
    let kind = JointKind::ALL
        .into_iter()
        .find(|k| k.name() == j.kind)
        .ok_or_else(|| {
            let names: Vec<&str> = JointKind::ALL.iter().map(|k| k.name()).collect();
            Located::new(
                key(path, "type"),
                format!(
                    "unknown joint type {:?}, expected one of: {}",
                    j.kind,
                    names.join(", ")
                ),
            )
        })?;
    let name = match &j.name {
        Some(n) if n.is_empty() => {
            return Err(Located::new(
                key(path, "name"),
                "joint name must not be empty",
            ))
        }
        Some(n) => n.clone(),
        None => format!("joints[{i}]"),
    };
    let a = body_index(&j.body_a, path, "body_a", by_name)?;
    let b = body_index(&j.body_b, path, "body_b", by_name)?;
    if a == b {
        return Err(Located::new(
            key(path, "body_b"),
            format!(
                "a joint joins two different bodies; both are {:?}",
                j.body_b
            ),
        ));
    }
    let t = kind.name();
    // Fields that do not belong to this joint type are errors, not ignored.
    let not_for = |field: &str, present: bool| {
        if present {
            Err(Located::new(
                key(path, field),
                format!("a {t} joint has no {field}"),
            ))
        } else {
            Ok(())
        }
    };
    let dim3 = <D::V as Vector>::DIM == 3;
    let has_axis = matches!(kind, JointKind::Prismatic) || (dim3 && kind == JointKind::Revolute);
    not_for("axis", j.axis.is_some() && !has_axis)?;
    not_for("limits", j.limits.is_some() && kind == JointKind::Weld)?;
    not_for("motor", j.motor.is_some() && kind == JointKind::Weld)?;
    for (field, v) in [
        ("rest_length", j.rest_length),
        ("hertz", j.hertz),
        ("damping_ratio", j.damping_ratio),
    ] {
        not_for(field, v.is_some() && kind != JointKind::Distance)?;
    }
    if j.anchor.is_some() {
        for (field, given) in [
            ("anchor_a", j.anchor_a.is_some()),
            ("anchor_b", j.anchor_b.is_some()),
        ] {
            if given {
                return Err(Located::new(
                    key(path, field),
                    format!("give either anchor or {field}, not both"),
                ));
            }
        }
    }
    let (pa, pb) = (&bodies[a].pose, &bodies[b].pose);
    let (oa, ob) = (D::translation(pa), D::translation(pb));
    // Defaults: a distance joint joins the body origins; the others sit at
    // body B's origin.
    let default_a = if kind == JointKind::Distance { oa } else { ob };
    let anchor = j.anchor.map(W::get);
    let wa = finite_vec(
        j.anchor_a.map(W::get).or(anchor),
        default_a,
        path,
        if j.anchor.is_some() {
            "anchor"
        } else {
            "anchor_a"
        },
    )?;
    let wb = finite_vec(
        j.anchor_b.map(W::get).or(anchor),
        ob,
        path,
        if j.anchor.is_some() {
            "anchor"
        } else {
            "anchor_b"
        },
    )?;
    let local_axis_a = if has_axis {
        let mut default = <D::V as Vector>::ZERO;
        default.set(<D::V as Vector>::DIM - 1, 1.0);
        let given = j.axis.map(W::get);
        if given.is_none() && kind == JointKind::Prismatic {
            return Err(Located::new(
                path.to_vec(),
                "a prismatic joint needs an axis (the slide direction)",
            ));
        }
        let axis = given.unwrap_or(default);
        let len = axis.length();
        if !(axis.is_finite() && len > 1e-6) {
            return Err(Located::new(
                key(path, "axis"),
                "axis must be finite and non-zero",
            ));
        }
        Some(D::to_local_vector(pa, axis * (1.0 / len)))
    } else {
        None
    };
    let limits = match j.limits {
        None => None,
        Some([lo, hi]) => {
            if !(lo.is_finite() && hi.is_finite() && lo <= hi) {
                return Err(Located::new(
                    key(path, "limits"),
                    format!("limits must be finite with lower <= upper, got [{lo}, {hi}]"),
                ));
            }
            if kind == JointKind::Distance && lo < 0.0 {
                return Err(Located::new(
                    key(path, "limits"),
                    format!("distance limits must be >= 0, got [{lo}, {hi}]"),
                ));
            }
            Some(if kind == JointKind::Revolute {
                (lo.to_radians(), hi.to_radians())
            } else {
                (lo, hi)
            })
        }
    };
    let motor = match j.motor {
        None => None,
        Some(m) => {
            let at = key(path, "motor");
            let speed = number(Some(m.speed), 0.0, &at, "speed", "a finite number", |_| {
                true
            })?;
            let max_force = non_negative(Some(m.max_force), 0.0, &at, "max_force")?;
            Some(Motor {
                speed: if kind == JointKind::Revolute {
                    speed.to_radians()
                } else {
                    speed
                },
                max_force,
            })
        }
    };
    let rest_length = if kind == JointKind::Distance {
        Some(non_negative(
            j.rest_length,
            (wb - wa).length(),
            path,
            "rest_length",
        )?)
    } else {
        None
    };
    let spring = match (j.hertz, j.damping_ratio) {
        (None, None) => None,
        (None, Some(_)) => {
            return Err(Located::new(
                key(path, "damping_ratio"),
                "damping_ratio needs hertz (a spring); a rod without one is rigid",
            ))
        }
        (Some(f), d) => Some(Spring {
            hertz: non_negative(Some(f), 0.0, path, "hertz")?,
            damping_ratio: non_negative(d, 0.0, path, "damping_ratio")?,
        }),
    };
    Ok(JointSpec {
        name,
        kind,
        body_a: a,
        body_b: b,
        local_anchor_a: D::to_local_point(pa, wa),
        local_anchor_b: D::to_local_point(pb, wb),
        local_axis_a,
        limits,
        motor,
        rest_length,
        spring,
        collide_connected: j.collide_connected,
    })
}
