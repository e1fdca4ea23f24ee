//! Scene files: JSON documents listing named, placed shapes (2D or 3D).
//!
//! Loading runs in two steps. `serde_json` turns the text into a `Value` (syntax
//! errors carry its line and column); typed definitions and peng's validating
//! constructors then build the shapes. Errors of the second step know the path of
//! the bad element, and [`locate`] finds that element in the text, so every error
//! names file, line, column and field.

pub mod build2;
pub mod build3;
pub mod defs;
pub mod error;
pub mod locate;
pub mod motion;
mod typed;

use defs::{Entry2, Entry3, SceneDef};
use error::{Located, SceneError};
use locate::Seg;
use motion::{Key2, Key3, Motion};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::collections::HashMap;
use typed::{index, key};

/// A shape with its name and pose.
#[derive(Debug, Clone)]
pub struct Named<S, P> {
    /// Unique name within the scene.
    pub name: String,
    /// The shape in its local frame.
    pub shape: S,
    /// Where the shape is.
    pub pose: P,
}

/// The shapes of a scene, of one dimension.
#[derive(Debug, Clone)]
pub enum Shapes {
    /// A 2D scene.
    D2(Vec<Named<peng::d2::Shape, peng::d2::Pose2>>),
    /// A 3D scene.
    D3(Vec<Named<peng::d3::Shape, peng::d3::Pose3>>),
}

/// A loaded scene.
#[derive(Debug, Clone)]
pub struct Scene {
    /// Where it came from (file name as given, or `<bundled ...>`).
    pub source: String,
    /// The scene's own distance threshold, if it sets one.
    pub distance: Option<f32>,
    /// The shapes.
    pub shapes: Shapes,
}

impl Scene {
    /// 2 or 3.
    pub fn dimension(&self) -> u8 {
        match self.shapes {
            Shapes::D2(_) => 2,
            Shapes::D3(_) => 3,
        }
    }

    /// Number of shapes.
    pub fn len(&self) -> usize {
        match &self.shapes {
            Shapes::D2(v) => v.len(),
            Shapes::D3(v) => v.len(),
        }
    }
}

/// The motions of a scene's shapes, by shape index (`None`: the shape stays
/// still), of one dimension.
#[derive(Debug, Clone)]
pub enum Motions {
    /// A 2D scene's motions.
    D2(Vec<Option<Motion<Key2>>>),
    /// A 3D scene's motions.
    D3(Vec<Option<Motion<Key3>>>),
}

/// What a scene says about time: its shapes' motions and its frame rate.
#[derive(Debug, Clone)]
pub struct Timeline {
    /// The scene's own `fps`, if it sets one.
    pub fps: Option<f32>,
    /// The motions, one entry per shape.
    pub motions: Motions,
}

/// Parses the scene `text`, read from `file` (used in error messages). Motions
/// are checked but not kept: shapes stand at their `position`.
pub fn parse(file: &str, text: &str) -> Result<Scene, SceneError> {
    parse_timeline(file, text).map(|(scene, _)| scene)
}

/// Parses the scene `text` with its [`Timeline`].
pub fn parse_timeline(file: &str, text: &str) -> Result<(Scene, Timeline), SceneError> {
    let root: Value = serde_json::from_str(text).map_err(|e| syntax_error(file, &e))?;
    let name_of = |i: usize| {
        root.get("shapes")?
            .get(i)?
            .get("name")?
            .as_str()
            .map(str::to_string)
    };
    build(file, &root).map_err(|e| SceneError::place(file, text, e, name_of))
}

/// A `serde_json` syntax error, with its own line and column.
fn syntax_error(file: &str, e: &serde_json::Error) -> SceneError {
    let full = e.to_string();
    // serde_json appends " at line L column C"; we print them in front instead.
    let message = match full.rfind(" at line ") {
        Some(i) => full[..i].to_string(),
        None => full,
    };
    SceneError {
        file: file.to_string(),
        line: e.line().max(1),
        column: e.column().max(1),
        path: String::new(),
        shape_name: None,
        message: format!("invalid JSON: {message}"),
    }
}

fn build(file: &str, root: &Value) -> Result<(Scene, Timeline), Located> {
    let obj = root.as_object().ok_or_else(|| {
        Located::new(
            vec![],
            format!(
                "a scene is a JSON object {{\"dimension\": 2, \"shapes\": [...]}}, got {}",
                typed::kind_of(root)
            ),
        )
    })?;
    let dim = obj
        .get("dimension")
        .ok_or_else(|| Located::new(vec![], "missing field `dimension` (2 or 3)"))?;
    let dim_path = vec![Seg::Key("dimension".into())];
    let (shapes, motions, top) = match dim.as_u64() {
        Some(2) => {
            let (v, m, top) = entries::<Entry2>(root)?;
            (Shapes::D2(v), Motions::D2(m), top)
        }
        Some(3) => {
            let (v, m, top) = entries::<Entry3>(root)?;
            (Shapes::D3(v), Motions::D3(m), top)
        }
        _ => {
            return Err(Located::new(
                dim_path,
                format!("dimension must be 2 or 3, got {dim}"),
            ))
        }
    };
    let scene = Scene {
        source: file.to_string(),
        distance: top.distance,
        shapes,
    };
    let timeline = Timeline {
        fps: top.fps,
        motions,
    };
    Ok((scene, timeline))
}

/// A scene entry of one dimension, which builds its named shape.
trait Entry: DeserializeOwned {
    /// The dimension's shape.
    type Shape;
    /// The dimension's pose.
    type Pose;
    /// The dimension's keyframe pose.
    type Key;
    /// The named shape of this entry, found at `path`.
    fn build(&self, path: &[Seg]) -> Result<Named<Self::Shape, Self::Pose>, Located>;
    /// The entry's motion, if it has one.
    fn motion(&self, path: &[Seg]) -> Result<Option<Motion<Self::Key>>, Located>;
}

impl Entry for Entry2 {
    type Shape = peng::d2::Shape;
    type Pose = peng::d2::Pose2;
    type Key = Key2;
    fn build(&self, path: &[Seg]) -> Result<Named<Self::Shape, Self::Pose>, Located> {
        Ok(Named {
            name: self.name.clone(),
            shape: build2::shape(&self.shape, &key(path, "shape"))?,
            pose: build2::pose(self.position, self.angle_deg, path)?,
        })
    }
    fn motion(&self, path: &[Seg]) -> Result<Option<Motion<Key2>>, Located> {
        self.motion
            .as_ref()
            .map(|m| motion::motion2(m, self.position, self.angle_deg, &key(path, "motion")))
            .transpose()
    }
}

impl Entry for Entry3 {
    type Shape = peng::d3::Shape;
    type Pose = peng::d3::Pose3;
    type Key = Key3;
    fn build(&self, path: &[Seg]) -> Result<Named<Self::Shape, Self::Pose>, Located> {
        Ok(Named {
            name: self.name.clone(),
            shape: build3::shape(&self.shape, &key(path, "shape"))?,
            pose: build3::pose(self.position, self.rotation.as_ref(), path)?,
        })
    }
    fn motion(&self, path: &[Seg]) -> Result<Option<Motion<Key3>>, Located> {
        self.motion
            .as_ref()
            .map(|m| {
                motion::motion3(
                    m,
                    self.position,
                    self.rotation.as_ref(),
                    &key(path, "motion"),
                )
            })
            .transpose()
    }
}

/// The named shapes built from entries `E`.
type NamedShapes<E> = Vec<Named<<E as Entry>::Shape, <E as Entry>::Pose>>;

/// The motions of the entries `E`, by shape index.
type EntryMotions<E> = Vec<Option<Motion<<E as Entry>::Key>>>;

/// A scene's top-level settings.
struct TopLevel {
    distance: Option<f32>,
    fps: Option<f32>,
}

/// The named shapes, motions and top-level settings of a scene whose entries
/// are `E`.
fn entries<E: Entry>(root: &Value) -> Result<(NamedShapes<E>, EntryMotions<E>, TopLevel), Located> {
    let def: SceneDef<E> =
        serde_path_to_error::deserialize(root).map_err(|e| Located::from_serde(&[], e))?;
    check_distance(def.distance)?;
    check_fps(def.fps)?;
    let mut out = Vec::with_capacity(def.shapes.len());
    let mut motions = Vec::with_capacity(def.shapes.len());
    for (i, e) in def.shapes.iter().enumerate() {
        let path = index(&[Seg::Key("shapes".into())], i);
        out.push(e.build(&path)?);
        motions.push(e.motion(&path)?);
    }
    check_names(out.iter().map(|n| n.name.as_str()))?;
    let top = TopLevel {
        distance: def.distance,
        fps: def.fps,
    };
    Ok((out, motions, top))
}

fn check_distance(d: Option<f32>) -> Result<(), Located> {
    match d {
        Some(d) if !(d.is_finite() && d >= 0.0) => Err(Located::new(
            vec![Seg::Key("distance".into())],
            format!("distance must be a finite number >= 0, got {d}"),
        )),
        _ => Ok(()),
    }
}

fn check_fps(f: Option<f32>) -> Result<(), Located> {
    match f {
        Some(f) if !(f.is_finite() && f > 0.0) => Err(Located::new(
            vec![Seg::Key("fps".into())],
            format!("fps must be a finite number > 0, got {f}"),
        )),
        _ => Ok(()),
    }
}

/// Names must be non-empty and unique: pairs are reported by name.
fn check_names<'a>(names: impl Iterator<Item = &'a str>) -> Result<(), Located> {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (i, n) in names.enumerate() {
        let path = key(&index(&[Seg::Key("shapes".into())], i), "name");
        if n.is_empty() {
            return Err(Located::new(path, "shape name must not be empty"));
        }
        if let Some(j) = seen.insert(n, i) {
            return Err(Located::new(
                path,
                format!("duplicate shape name {n:?} (also used by shapes[{j}])"),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCENES: [&str; 3] = [
        include_str!("../../../../examples/scene2d.json"),
        include_str!("../../../../examples/scene3d.json"),
        include_str!("../../../../examples/moving2d.json"),
    ];

    /// Checks an error's position lies inside the text.
    fn in_bounds(text: &str, e: &SceneError) {
        let lines: Vec<&str> = text.split('\n').collect();
        assert!(e.line >= 1 && e.line <= lines.len(), "{e}");
        assert!(
            e.column >= 1 && e.column <= lines[e.line - 1].chars().count() + 1,
            "{e}"
        );
    }

    #[test]
    fn bundled_scenes_load() {
        let s = parse("a", SCENES[0]).unwrap();
        assert_eq!((s.dimension(), s.len(), s.distance), (2, 9, Some(0.5)));
        let s = parse("b", SCENES[1]).unwrap();
        assert_eq!((s.dimension(), s.len(), s.distance), (3, 10, Some(0.5)));
        let (s, t) = parse_timeline("c", SCENES[2]).unwrap();
        assert_eq!((s.dimension(), s.len(), t.fps), (2, 3, Some(30.0)));
        match t.motions {
            Motions::D2(m) => assert_eq!(
                m.iter().map(Option::is_some).collect::<Vec<_>>(),
                [false, true, true]
            ),
            Motions::D3(_) => panic!("2D scene"),
        }
    }

    /// Every truncation of a valid scene fails cleanly with a position in range.
    #[test]
    fn truncated_scenes_fail_cleanly() {
        for text in SCENES {
            let full = text.trim_end().len();
            for (i, _) in text.char_indices().step_by(7).filter(|(i, _)| *i < full) {
                let t = &text[..i];
                let e = parse("t", t).unwrap_err();
                in_bounds(t, &e);
            }
        }
    }

    /// Replacing any number by a wrong value either still loads (e.g. a size
    /// that may be anything) or gives an error that points at that value.
    #[test]
    fn corrupted_numbers_are_located() {
        for text in SCENES {
            let bytes = text.as_bytes();
            let mut i = 0;
            while i < bytes.len() {
                let starts_number = (bytes[i].is_ascii_digit() || bytes[i] == b'-')
                    && i > 0
                    && !bytes[i - 1].is_ascii_alphanumeric()
                    && bytes[i - 1] != b'.'
                    && bytes[i - 1] != b'-';
                if !starts_number {
                    i += 1;
                    continue;
                }
                let end = (i + 1..bytes.len())
                    .find(|&j| !(bytes[j].is_ascii_digit() || bytes[j] == b'.' || bytes[j] == b'e'))
                    .unwrap_or(bytes.len());
                for bad in ["\"x\"", "-7", "1e39", "[]", "null"] {
                    let t = format!("{}{}{}", &text[..i], bad, &text[end..]);
                    if let Err(e) = parse("t", &t) {
                        in_bounds(&t, &e);
                        assert!(!e.path.is_empty(), "{e}");
                        // The error points at the bad value or an enclosing element
                        // on the same or an earlier line.
                        let (line, _) = locate::line_col(&t, i);
                        assert!(e.line <= line, "{e} (bad value on line {line})");
                    }
                }
                i = end;
            }
        }
    }

    /// Values beyond peng's magnitude limit are named as such, at their
    /// field; a quaternion of any finite non-zero length is a rotation.
    #[test]
    fn large_values_name_the_real_problem() {
        let ball = r#"{"type": "ball", "radius": 1}"#;
        let far = format!(
            r#"{{"dimension": 3, "shapes": [{{"name": "a", "shape": {ball}, "position": [3e38, 0, 0]}}]}}"#
        );
        let e = parse("t", &far).unwrap_err();
        assert!(e.path.ends_with("position"), "{e}");
        assert!(e.message.contains("too large"), "{e}");
        let big = r#"{"dimension": 2, "shapes": [{"name": "a", "shape": {"type": "circle", "radius": 1e20}}]}"#;
        let e = parse("t", big).unwrap_err();
        assert!(
            e.path.ends_with("radius") && e.message.contains("too large"),
            "{e}"
        );
        // A quarter turn about z, its squared length beyond f32 (2e40).
        let long = format!(
            r#"{{"dimension": 3, "shapes": [{{"name": "a", "shape": {ball}, "rotation": {{"quaternion": [0, 0, 1e20, 1e20]}}}}]}}"#
        );
        let s = parse("t", &long).unwrap();
        let Shapes::D3(v) = s.shapes else {
            panic!("3D scene")
        };
        let p = v[0].pose.transform_point(peng::d3::Vec3::X);
        assert!((p - peng::d3::Vec3::Y).length() < 1e-6, "{p:?}");
    }
}
