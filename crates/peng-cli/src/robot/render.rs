//! `peng robot`'s pictures: the PNG of the first contact (or of where the
//! motion comes closest) and the GIF of the whole motion.

use super::analysis::{lerp, Analysis, SegmentCheck};
use super::load::Inputs;
use super::picture::{Colors, Marks, Painter, CONTACT, TEXT};
use super::report::pair_names;
use crate::gif::GifWriter;
use crate::raster::{Canvas, Rgb};
use anyhow::{Context, Result};
use glam::Vec2;
use peng_clash::picture::{COLOR_A, COLOR_B};
use peng_robot::{Checker, Other, PairReport, Stop};
use std::path::Path;

/// Pictures per segment in the GIF, at most.
const PER_SEGMENT: usize = 16;
/// About how many pictures the GIF holds at most (plus the first contacts).
const MAX_FRAMES: usize = 300;
/// Samples per segment searched for the closest approach of a free motion.
const CLOSEST_SAMPLES: usize = 16;

/// Caption colour of a free configuration.
const FREE: Rgb = [30, 120, 50];

/// Where a picture of the motion is taken.
#[derive(Debug, Clone)]
struct Moment {
    /// The segment (`None`: the only waypoint of a trajectory without
    /// segments).
    segment: Option<usize>,
    /// The fraction of the segment.
    s: f64,
    /// The configuration.
    q: Vec<f64>,
    /// Whether this is a segment's certified first contact.
    first_contact: bool,
}

impl Moment {
    /// The position along the whole trajectory (waypoint `i` at `i`).
    fn time(&self) -> f64 {
        self.segment.map_or(0.0, |i| i as f64 + self.s)
    }

    /// "WAYPOINT i" at a waypoint, else "SEGMENT i (i-j)  S=s".
    fn label(&self) -> String {
        match self.segment {
            None => "WAYPOINT 0".to_string(),
            Some(i) if self.s == 0.0 && !self.first_contact => format!("WAYPOINT {i}"),
            Some(i) if self.s == 1.0 => format!("WAYPOINT {}", i + 1),
            Some(i) => format!("SEGMENT {i} ({i}-{})  S={:.3}", i + 1, self.s),
        }
    }
}

/// The moments of the animation: evenly spaced along the trajectory,
/// [`PER_SEGMENT`] per segment while that stays within [`MAX_FRAMES`]
/// (fewer, then, and past that many segments some segments have none),
/// each segment's first contact, and the last waypoint.
fn moments(waypoints: &[Vec<f64>], a: &Analysis) -> Vec<Moment> {
    let n = a.segments.len();
    if n == 0 {
        return waypoints
            .first()
            .map(|q| Moment {
                segment: None,
                s: 0.0,
                q: q.clone(),
                first_contact: false,
            })
            .into_iter()
            .collect();
    }
    let total = (n * PER_SEGMENT).min(MAX_FRAMES);
    // (time along the trajectory, whether it is a first contact, segment,
    // s); a contact comes after the regular picture at the same time.
    let mut at: Vec<(f64, bool, usize, f64)> = (0..total)
        .map(|k| {
            let t = (k * n) as f64 / total as f64;
            let i = (t.floor() as usize).min(n - 1);
            (t, false, i, t - i as f64)
        })
        .collect();
    for (i, seg) in a.segments.iter().enumerate() {
        if let SegmentCheck::Contact(c) = seg {
            at.push((i as f64 + c.s, true, i, c.s));
        }
    }
    at.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
    let mut out: Vec<Moment> = at
        .into_iter()
        .map(|(_, first_contact, i, s)| Moment {
            segment: Some(i),
            s,
            q: lerp(&waypoints[i], &waypoints[i + 1], s),
            first_contact,
        })
        .collect();
    out.push(Moment {
        segment: Some(n - 1),
        s: 1.0,
        q: waypoints[n].clone(),
        first_contact: false,
    });
    out
}

/// The pair's names as `link - other`.
fn pair_label(inputs: &Inputs, p: &PairReport) -> String {
    let (a, b) = pair_names(&inputs.checker, &inputs.objects, p);
    format!("{a} - {b}")
}

/// Colours for a pair: the link orange, the other blue.
fn pair_colors(checker: &Checker, objects: usize, p: &PairReport) -> Colors {
    let mut c = Colors {
        links: vec![None; checker.robot.links.len()],
        objects: vec![None; objects],
    };
    c.links[p.link] = Some(COLOR_A);
    match p.other {
        Other::Link(l) => c.links[l] = Some(COLOR_B),
        Other::Object(o) => c.objects[o] = Some(COLOR_B),
    }
    c
}

/// Draws the first contact along the trajectory (a waypoint in contact, or
/// a segment's first contact, whichever comes first), or, when all is
/// free, where the motion comes closest among the waypoints and
/// [`CLOSEST_SAMPLES`] samples per segment, framed on the robot there and
/// the objects near it; writes it to `path`.
pub fn write_png(
    inputs: &Inputs,
    a: &Analysis,
    path: &Path,
    width: u32,
    height: u32,
) -> Result<()> {
    let waypoints = &inputs.trajectory.waypoints;
    let checker = &inputs.checker;
    let n_obj = inputs.objects.len();
    // The first contact in time: waypoint i at i, a segment's at i + s.
    let at_waypoint = a.waypoints.iter().enumerate().find_map(|(i, w)| {
        let deepest = w
            .contacts
            .iter()
            .min_by(|x, y| x.distance.total_cmp(&y.distance))?;
        Some((i as f64, w.q.clone(), *deepest, format!("WAYPOINT {i}")))
    });
    let on_segment = a.first_contact().map(|(i, c)| {
        (
            i as f64 + c.s,
            c.q.clone(),
            c.pair,
            format!("SEGMENT {i} ({i}-{}) AT S={:.3}", i + 1, c.s),
        )
    });
    let first = match (at_waypoint, on_segment) {
        (Some(w), Some(s)) => Some(if s.0 < w.0 { s } else { w }),
        (w, s) => w.or(s),
    };
    let marks_q = match first {
        Some((_, q, pair, place)) => {
            let (l, o) = pair_names(checker, &inputs.objects, &pair);
            let depth = if pair.distance < 0.0 {
                format!("DEPTH {:.4} M", -pair.distance)
            } else {
                "TOUCHING".to_string()
            };
            let marks = Marks {
                colors: pair_colors(checker, n_obj, &pair),
                ring: Some((pair.point_link.as_dvec3(), pair.point_other.as_dvec3())),
                captions: vec![
                    (format!("FIRST CONTACT: {place}"), CONTACT),
                    (format!("{l} (ORANGE) - {o} (BLUE), {depth}"), TEXT),
                ],
            };
            Some((marks, q))
        }
        None => closest(inputs)?.map(|(q, pair, place)| {
            let (l, o) = pair_names(checker, &inputs.objects, &pair);
            let marks = Marks {
                colors: pair_colors(checker, n_obj, &pair),
                ring: Some((pair.point_link.as_dvec3(), pair.point_other.as_dvec3())),
                captions: vec![
                    (format!("ALL FREE. CLOSEST: {place}"), FREE),
                    (
                        format!("{l} (ORANGE) - {o} (BLUE), {:.4} M APART", pair.distance),
                        TEXT,
                    ),
                ],
            };
            (marks, q)
        }),
    };
    let (marks, q) = match marks_q {
        Some(x) => x,
        // Nothing to check at all: the first waypoint as it is.
        None => (
            Marks {
                captions: vec![("NO PAIR TO CHECK".to_string(), TEXT)],
                ..Marks::default()
            },
            waypoints[0].clone(),
        ),
    };
    // Framed on the robot at that moment and the objects near it.
    let painter = Painter::new(checker, std::slice::from_ref(&q), width, height)?;
    let canvas = painter.draw(&q, &marks)?;
    let file = std::fs::File::create(path)
        .with_context(|| format!("cannot create PNG file {}", path.display()))?;
    canvas
        .write_png(std::io::BufWriter::new(file))
        .with_context(|| format!("cannot write PNG file {}", path.display()))
}

/// Where a free motion comes closest, among the waypoints and
/// [`CLOSEST_SAMPLES`] samples per segment: the configuration, the pair
/// and a caption of the place (`None` when no pair is checked).
fn closest(inputs: &Inputs) -> Result<Option<(Vec<f64>, PairReport, String)>> {
    let checker = &inputs.checker;
    let mut best: Option<(Vec<f64>, PairReport, String)> = None;
    let mut consider = |q: Vec<f64>, place: String| -> Result<()> {
        if let (Some(p), _) = checker.distance(&q, 0.0)? {
            if best.as_ref().is_none_or(|b| p.distance < b.1.distance) {
                best = Some((q, p, place));
            }
        }
        Ok(())
    };
    let wps = &inputs.trajectory.waypoints;
    for (i, q) in wps.iter().enumerate() {
        consider(q.clone(), format!("WAYPOINT {i}"))?;
    }
    for (i, w) in wps.windows(2).enumerate() {
        for k in 1..CLOSEST_SAMPLES {
            let s = k as f64 / CLOSEST_SAMPLES as f64;
            consider(
                lerp(&w[0], &w[1], s),
                format!("SEGMENT {i} ({i}-{}) AT S={s:.3} (SAMPLED)", i + 1),
            )?;
        }
    }
    Ok(best)
}

/// Draws the whole motion to an animated GIF at `path`: every moment of
/// [`moments`], links and objects in contact red, each segment's first
/// contact held with its pair orange and blue and ringed, a timeline of
/// the waypoints at the bottom. Returns the number of pictures.
pub fn write_gif(
    inputs: &Inputs,
    a: &Analysis,
    path: &Path,
    width: u32,
    height: u32,
) -> Result<usize> {
    let waypoints = &inputs.trajectory.waypoints;
    let checker = &inputs.checker;
    let all = moments(waypoints, a);
    let qs: Vec<Vec<f64>> = all.iter().map(|m| m.q.clone()).collect();
    let painter = Painter::new(checker, &qs, width, height)?;
    let n_obj = inputs.objects.len();
    let mut gif = GifWriter::new();
    for (k, m) in all.iter().enumerate() {
        let (marks, delay) = if m.first_contact {
            let Some(SegmentCheck::Contact(c)) = m.segment.and_then(|i| a.segments.get(i)) else {
                continue;
            };
            let marks = Marks {
                colors: pair_colors(checker, n_obj, &c.pair),
                ring: Some((c.pair.point_link.as_dvec3(), c.pair.point_other.as_dvec3())),
                captions: vec![
                    (m.label(), TEXT),
                    (
                        format!("FIRST CONTACT: {} (CERTIFIED)", pair_label(inputs, &c.pair)),
                        CONTACT,
                    ),
                ],
            };
            (marks, 150)
        } else {
            let contacts = checker.check(&m.q, Stop::Never)?;
            let mut colors = Colors {
                links: vec![None; checker.robot.links.len()],
                objects: vec![None; n_obj],
            };
            for p in &contacts {
                colors.links[p.link] = Some(CONTACT);
                match p.other {
                    Other::Link(l) => colors.links[l] = Some(CONTACT),
                    Other::Object(o) => colors.objects[o] = Some(CONTACT),
                }
            }
            let status = match contacts
                .iter()
                .min_by(|x, y| x.distance.total_cmp(&y.distance))
            {
                Some(p) if contacts.len() > 1 => (
                    format!(
                        "CONTACT: {} AND {} MORE",
                        pair_label(inputs, p),
                        contacts.len() - 1
                    ),
                    CONTACT,
                ),
                Some(p) => (format!("CONTACT: {}", pair_label(inputs, p)), CONTACT),
                None => ("FREE".to_string(), FREE),
            };
            let at_waypoint = m.s == 0.0 || m.s == 1.0;
            let delay = if k + 1 == all.len() {
                100
            } else if at_waypoint {
                40
            } else {
                8
            };
            let marks = Marks {
                colors,
                ring: None,
                captions: vec![(m.label(), TEXT), status],
            };
            (marks, delay)
        };
        let mut canvas = painter.draw(&m.q, &marks)?;
        timeline(&mut canvas, a, m.time());
        gif.add_canvas(&canvas, delay)
            .with_context(|| format!("cannot write GIF file {}", path.display()))?;
    }
    gif.save(path)
        .with_context(|| format!("cannot write GIF file {}", path.display()))?;
    Ok(gif.len())
}

/// The timeline at the bottom of an animation picture: the waypoints as
/// ticks, each segment's contact (from its first contact to its last
/// sample in contact) in red, and the current position `t` as a dot.
fn timeline(c: &mut Canvas, a: &Analysis, t: f64) {
    let n = a.segments.len();
    if n == 0 {
        return;
    }
    let (w, h) = (c.width() as f32, c.height() as f32);
    let (x0, x1, y) = (16.0, w - 16.0, h - 14.0);
    c.fill_rect(0.0, h - 28.0, w, 28.0, super::picture::BACKGROUND);
    let x = |t: f64| x0 + (x1 - x0) * (t / n as f64) as f32;
    c.line(
        Vec2::new(x0, y),
        Vec2::new(x1, y),
        3.0,
        [190, 190, 190],
        1.0,
    );
    for (i, seg) in a.segments.iter().enumerate() {
        if let SegmentCheck::Contact(fc) = seg {
            let end = fc.after.last_contact_s.unwrap_or(fc.s);
            let (xa, xb) = (x(i as f64 + fc.s), x(i as f64 + end));
            c.line(
                Vec2::new(xa, y),
                Vec2::new(xb.max(xa + 2.0), y),
                5.0,
                CONTACT,
                1.0,
            );
        }
    }
    for i in 0..=n {
        let xi = x(i as f64);
        c.line(
            Vec2::new(xi, y - 6.0),
            Vec2::new(xi, y + 6.0),
            2.0,
            [90, 90, 90],
            1.0,
        );
    }
    c.disk(Vec2::new(x(t), y), 5.0, TEXT, 1.0);
}

#[cfg(test)]
mod tests {
    use super::super::analysis::{After, FirstContact, WaypointCheck};
    use super::*;
    use peng::d3::Vec3;

    /// An analysis of `n` segments, segment `hit` with a contact at `s`.
    fn analysis(n: usize, hit: usize, s: f64) -> (Vec<Vec<f64>>, Analysis) {
        let waypoints: Vec<Vec<f64>> = (0..=n).map(|i| vec![i as f64]).collect();
        let pair = PairReport {
            link: 0,
            other: Other::Object(0),
            distance: 0.0,
            point_link: Vec3::ZERO,
            point_other: Vec3::ZERO,
        };
        let segments = (0..n)
            .map(|i| {
                if i == hit {
                    SegmentCheck::Contact(Box::new(FirstContact {
                        s,
                        q: vec![i as f64 + s],
                        pair,
                        after: After {
                            samples: 0,
                            in_contact: 0,
                            deepest: None,
                            last_contact_s: None,
                        },
                    }))
                } else {
                    SegmentCheck::Free(Some(1.0))
                }
            })
            .collect();
        let wp = waypoints
            .iter()
            .map(|q| WaypointCheck {
                q: q.clone(),
                contacts: Vec::new(),
                closest: None,
            })
            .collect();
        (
            waypoints.clone(),
            Analysis {
                waypoints: wp,
                segments,
            },
        )
    }

    #[test]
    fn sixteen_moments_per_segment_and_the_contact_in_order() {
        let (w, a) = analysis(4, 1, 0.413);
        let m = moments(&w, &a);
        assert_eq!(m.len(), 4 * 16 + 1 + 1);
        let firsts: Vec<&Moment> = m.iter().filter(|m| m.first_contact).collect();
        assert_eq!(firsts.len(), 1);
        assert_eq!((firsts[0].segment, firsts[0].s), (Some(1), 0.413));
        assert!((firsts[0].q[0] - 1.413).abs() < 1e-12);
        // In time order, each picture at its configuration (here q = time).
        for pair in m.windows(2) {
            assert!(pair[0].time() <= pair[1].time());
        }
        for x in &m {
            assert!((x.q[0] - x.time()).abs() < 1e-12, "{x:?}");
        }
        assert_eq!(m[16].label(), "WAYPOINT 1");
        assert_eq!(m.last().unwrap().label(), "WAYPOINT 4");
    }

    #[test]
    fn many_segments_stay_within_the_cap() {
        let (w, a) = analysis(1000, 999, 0.0);
        let m = moments(&w, &a);
        assert_eq!(m.len(), MAX_FRAMES + 1 + 1);
        assert!(m.iter().any(|x| x.first_contact && x.segment == Some(999)));
        let (w, a) = analysis(0, 9, 0.0);
        assert_eq!(moments(&w, &a).len(), 1);
    }
}
