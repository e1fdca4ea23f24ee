//! The sample queries of the CCD benchmark of Wang, Ferguson, Schneider,
//! Jiang, Attene and Panozzo ("A Large Scale Benchmark and an Inclusion-Based
//! Algorithm for Continuous Collision Detection", ACM TOG 2021), as stored in
//! `data/ccd-sample-queries` in the repository: per scene, `edge-edge/*.csv` and
//! `vertex-face/*.csv`, 8 rows per query (see the data set's README), each
//! row `x_num, x_den, y_num, y_den, z_num, z_den, truth` with power-of-two
//! denominators (so every coordinate is exact in `f64`).

use glam::DVec3;
use peng::ccd::mesh::{self, MeshCcdOptions, MeshCcdOutcome};
use std::path::{Path, PathBuf};

/// The kind of a query.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CcdKind {
    /// Points `ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1`.
    EdgeEdge,
    /// Points `v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1`.
    VertexFace,
}

impl CcdKind {
    /// The folder name of the kind in the data set.
    pub fn folder(self) -> &'static str {
        match self {
            CcdKind::EdgeEdge => "edge-edge",
            CcdKind::VertexFace => "vertex-face",
        }
    }
}

/// One query with its exact answer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CcdQuery {
    /// Edge–edge or vertex–face.
    pub kind: CcdKind,
    /// The 8 points, in the order of [`CcdKind`]'s variants.
    pub points: [DVec3; 8],
    /// Whether the primitives touch within the step (exact ground truth).
    pub truth: bool,
}

/// The default location of the data set, relative to this crate.
pub fn default_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/ccd-sample-queries")
}

/// A parse or read failure, naming the file.
#[derive(Debug)]
pub struct LoadError(pub String);

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LoadError {}

fn rational(num: &str, den: &str, file: &Path) -> Result<f64, LoadError> {
    let parse = |s: &str| {
        s.trim()
            .parse::<i128>()
            .map_err(|e| LoadError(format!("{}: {s:?}: {e}", file.display())))
    };
    // Numerators fit in 53 bits and denominators are powers of two: both
    // conversions and the division are exact.
    Ok(parse(num)? as f64 / parse(den)? as f64)
}

/// The queries of one CSV file.
pub fn load_file(file: &Path, kind: CcdKind) -> Result<Vec<CcdQuery>, LoadError> {
    let text =
        std::fs::read_to_string(file).map_err(|e| LoadError(format!("{}: {e}", file.display())))?;
    let mut rows = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let c: Vec<&str> = line.split(',').collect();
        if c.len() != 7 {
            return Err(LoadError(format!("{}: bad row {line:?}", file.display())));
        }
        let p = DVec3::new(
            rational(c[0], c[1], file)?,
            rational(c[2], c[3], file)?,
            rational(c[4], c[5], file)?,
        );
        rows.push((p, c[6].trim() == "1"));
    }
    if rows.len() % 8 != 0 {
        return Err(LoadError(format!(
            "{}: {} rows, not a multiple of 8",
            file.display(),
            rows.len()
        )));
    }
    Ok(rows
        .chunks(8)
        .map(|q| CcdQuery {
            kind,
            points: std::array::from_fn(|i| q[i].0),
            truth: q[0].1,
        })
        .collect())
}

/// Every query of one kind under `dir` (`<dir>/<scene>/<kind>/*.csv`), files
/// in sorted order.
pub fn load_kind(dir: &Path, kind: CcdKind) -> Result<Vec<CcdQuery>, LoadError> {
    let scenes =
        std::fs::read_dir(dir).map_err(|e| LoadError(format!("{}: {e}", dir.display())))?;
    let mut files = Vec::new();
    for scene in scenes.flatten() {
        let sub = scene.path().join(kind.folder());
        if let Ok(entries) = std::fs::read_dir(&sub) {
            files.extend(
                entries
                    .flatten()
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|x| x == "csv")),
            );
        }
    }
    files.sort();
    let mut out = Vec::new();
    for f in &files {
        out.extend(load_file(f, kind)?);
    }
    Ok(out)
}

/// Every query of both kinds under `dir`: edge–edge first, then vertex–face.
pub fn load_all(dir: &Path) -> Result<Vec<CcdQuery>, LoadError> {
    let mut out = load_kind(dir, CcdKind::EdgeEdge)?;
    out.extend(load_kind(dir, CcdKind::VertexFace)?);
    Ok(out)
}

/// Runs peng's primitive of the query's kind.
#[inline]
pub fn run(q: &CcdQuery, options: &MeshCcdOptions) -> Option<f64> {
    let p = &q.points;
    match q.kind {
        CcdKind::EdgeEdge => mesh::edge_edge(
            [p[0], p[1]],
            [p[2], p[3]],
            [p[4], p[5]],
            [p[6], p[7]],
            options,
        ),
        CcdKind::VertexFace => {
            mesh::vertex_face(p[0], [p[1], p[2], p[3]], p[4], [p[5], p[6], p[7]], options)
        }
    }
}

/// [`run`] with the work count (`*_detailed`).
pub fn run_detailed(q: &CcdQuery, options: &MeshCcdOptions) -> MeshCcdOutcome {
    let p = &q.points;
    match q.kind {
        CcdKind::EdgeEdge => mesh::edge_edge_detailed(
            [p[0], p[1]],
            [p[2], p[3]],
            [p[4], p[5]],
            [p[6], p[7]],
            options,
        ),
        CcdKind::VertexFace => {
            mesh::vertex_face_detailed(p[0], [p[1], p[2], p[3]], p[4], [p[5], p[6], p[7]], options)
        }
    }
}
