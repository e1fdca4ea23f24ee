//! BCF 2.1 (buildingSMART's BIM Collaboration Format): a zip of topics that
//! BIM tools open as issues, each with a viewpoint looking at the clash with
//! both elements selected, and a snapshot.
//!
//! Layout (BCF 2.1 specification): `bcf.version`, and per topic a folder named
//! by its GUID holding `markup.bcf`, `viewpoint.bcfv` and `snapshot.png`.
//!
//! The archive is written with the `zip` crate, every entry dated 1980-01-01
//! 00:00, so the same report gives the same bytes. The XML entries are
//! deflated; the PNG snapshots, compressed already, are stored: deflating
//! them again took as long as drawing them (the pictures are made for speed,
//! see `Canvas::to_png`).

use super::html::esc;
use super::pictures::{Picture, Pictures};
use super::{ClashEntry, Identity, Report, Status};
use crate::clash::fnv1a64;
use crate::picture::View;
use glam::DVec3;
use std::fmt::Write as _;
use std::io::{Cursor, Write as _};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, ZipWriter};

/// One topic per clash, or one per group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Topics {
    /// A topic for each clash.
    PerClash,
    /// A topic for each group (its first clash's picture as the snapshot).
    PerGroup,
}

/// The BCF archive could not be made.
#[derive(Debug, thiserror::Error)]
#[error("BCF archive, entry {entry}: {source}")]
pub struct BcfError {
    /// The entry being written (`<topic GUID>/markup.bcf`, ...), or
    /// `central directory` at the end.
    pub entry: String,
    source: zip::result::ZipError,
}

/// The archive under construction.
struct Archive(ZipWriter<Cursor<Vec<u8>>>);

impl Archive {
    /// Adds the entry `name`: deflated, but a PNG (compressed already) stored.
    fn add(&mut self, name: &str, data: &[u8]) -> Result<(), BcfError> {
        let method = if name.ends_with(".png") {
            CompressionMethod::Stored
        } else {
            CompressionMethod::Deflated
        };
        let options = SimpleFileOptions::default()
            .compression_method(method)
            .last_modified_time(DateTime::DEFAULT);
        let err = |source| BcfError {
            entry: name.to_string(),
            source,
        };
        self.0.start_file(name, options).map_err(err)?;
        self.0.write_all(data).map_err(|e| err(e.into()))
    }
}

/// The report as a BCF 2.1 zip. `created` is the topics' creation time
/// (ISO 8601, e.g. `2026-11-28T23:58:00Z`).
///
/// Fails only if the zip writer does, e.g. on two topics with the same GUID
/// (two tests of the same name with the same clashes).
pub fn to_bcf(
    report: &Report,
    pictures: &Pictures,
    topics: Topics,
    created: &str,
) -> Result<Vec<u8>, BcfError> {
    let mut zip = Archive(ZipWriter::new(Cursor::new(Vec::new())));
    zip.add(
        "bcf.version",
        concat!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
            "<Version VersionId=\"2.1\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" ",
            "xsi:noNamespaceSchemaLocation=\"version.xsd\"><DetailedVersion>2.1</DetailedVersion></Version>\n"
        )
        .as_bytes(),
    )?;
    for (t, test) in report.tests.iter().enumerate() {
        let units: Vec<(String, Vec<&ClashEntry>)> = match topics {
            Topics::PerClash => test
                .clashes
                .iter()
                .map(|c| (title(&test.name, c), vec![c]))
                .collect(),
            Topics::PerGroup if !test.groups.is_empty() => test
                .groups
                .iter()
                .map(|g| {
                    let cs = test
                        .clashes
                        .iter()
                        .filter(|c| g.clashes.contains(&c.id))
                        .collect();
                    (format!("{}: {}", test.name, g.name), cs)
                })
                .collect(),
            Topics::PerGroup => test
                .clashes
                .iter()
                .map(|c| (title(&test.name, c), vec![c]))
                .collect(),
        };
        for (title, clashes) in units {
            let Some(first) = clashes.first() else {
                continue;
            };
            let key: String = clashes
                .iter()
                .map(|c| c.id.as_str())
                .collect::<Vec<_>>()
                .join("+");
            let guid = uuid(&format!("{}\u{0}topic\u{0}{key}", test.name));
            let view_guid = uuid(&format!("{}\u{0}view\u{0}{key}", test.name));
            let picture = pictures.get(&(t, first.id.clone()));
            zip.add(
                &format!("{guid}/markup.bcf"),
                markup(
                    &guid,
                    &view_guid,
                    &title,
                    &clashes,
                    picture.is_some(),
                    created,
                )
                .as_bytes(),
            )?;
            zip.add(
                &format!("{guid}/viewpoint.bcfv"),
                viewpoint(&view_guid, &clashes, picture).as_bytes(),
            )?;
            if let Some(p) = picture {
                zip.add(&format!("{guid}/snapshot.png"), &p.png)?;
            }
        }
    }
    let bytes = zip.0.finish().map_err(|source| BcfError {
        entry: "central directory".to_string(),
        source,
    })?;
    Ok(bytes.into_inner())
}

fn title(test: &str, c: &ClashEntry) -> String {
    let who = |e: &Identity| {
        if e.name.is_empty() {
            e.class.clone()
        } else {
            format!("{} \"{}\"", e.class, e.name)
        }
    };
    format!("{test}: {} {} × {}", c.kind.as_str(), who(&c.a), who(&c.b))
}

fn markup(
    guid: &str,
    view_guid: &str,
    title: &str,
    clashes: &[&ClashEntry],
    snapshot: bool,
    created: &str,
) -> String {
    let status = if clashes.iter().any(|c| c.status == Status::New) {
        "Open"
    } else {
        "Active"
    };
    let mut d = String::new();
    for c in clashes {
        let _ = writeln!(
            d,
            "{} {} ({:.1} mm) between {} {} [{}] and {} {} [{}] at ({:.3}, {:.3}, {:.3}); clash id {}.",
            c.kind.as_str(),
            c.status.as_str(),
            c.distance * 1000.0,
            c.a.class,
            c.a.name,
            c.a.id,
            c.b.class,
            c.b.name,
            c.b.id,
            c.point_a[0],
            c.point_a[1],
            c.point_a[2],
            c.id
        );
    }
    let snap = if snapshot {
        "<Snapshot>snapshot.png</Snapshot>"
    } else {
        ""
    };
    format!(
        concat!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Markup>",
            "<Topic Guid=\"{guid}\" TopicType=\"Clash\" TopicStatus=\"{status}\">",
            "<Title>{title}</Title><CreationDate>{created}</CreationDate><CreationAuthor>peng</CreationAuthor>",
            "<Description>{desc}</Description></Topic>",
            "<Viewpoints Guid=\"{view}\"><Viewpoint>viewpoint.bcfv</Viewpoint>{snap}</Viewpoints></Markup>\n"
        ),
        guid = guid,
        status = status,
        title = esc(title),
        created = esc(created),
        desc = esc(d.trim_end()),
        view = view_guid,
        snap = snap
    )
}

fn viewpoint(guid: &str, clashes: &[&ClashEntry], picture: Option<&Picture>) -> String {
    let mut selection = String::new();
    let mut seen = std::collections::HashSet::new();
    for c in clashes {
        for e in [&c.a, &c.b] {
            if seen.insert((&e.file, &e.id)) {
                // IFC elements by GlobalId; mesh parts by their own id.
                if e.class.starts_with("Ifc") {
                    let _ = write!(
                        selection,
                        "<Component IfcGuid=\"{}\" OriginatingSystem=\"peng\"/>",
                        esc(&e.id)
                    );
                } else {
                    let _ = write!(
                        selection,
                        "<Component OriginatingSystem=\"peng\" AuthoringToolId=\"{}\"/>",
                        esc(&e.id)
                    );
                }
            }
        }
    }
    // Frame the clash points (and the snapshot's cube) from the snapshot's direction.
    let pts: Vec<DVec3> = clashes.iter().map(|c| DVec3::from(c.center())).collect();
    let center = pts.iter().copied().sum::<DVec3>() / pts.len() as f64;
    let spread = pts
        .iter()
        .map(|p| (*p - center).length())
        .fold(0.0, f64::max);
    let half = picture.map_or(1.0, |p| p.half) + spread;
    let view = View::looking_at(center, half, 1, 1);
    let (eye, dir, up) = view.camera(half);
    let xyz =
        |tag: &str, v: DVec3| format!("<{tag}><X>{}</X><Y>{}</Y><Z>{}</Z></{tag}>", v.x, v.y, v.z);
    format!(
        concat!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<VisualizationInfo Guid=\"{guid}\">",
            "<Components><Selection>{sel}</Selection><Visibility DefaultVisibility=\"true\"/></Components>",
            "<PerspectiveCamera>{eye}{dir}{up}<FieldOfView>60</FieldOfView></PerspectiveCamera>",
            "</VisualizationInfo>\n"
        ),
        guid = guid,
        sel = selection,
        eye = xyz("CameraViewPoint", eye),
        dir = xyz("CameraDirection", dir),
        up = xyz("CameraUpVector", up)
    )
}

/// A stable UUID-shaped GUID from a key (two FNV-1a hashes; version 5 and
/// RFC 4122 variant bits set so tools accept it).
fn uuid(key: &str) -> String {
    let hi = fnv1a64(key.bytes());
    let lo = fnv1a64(key.bytes().chain(*b"#peng"));
    let hi = (hi & !0xF000) | 0x5000;
    let lo = (lo & !(0xC000 << 48)) | (0x8000 << 48);
    format!(
        "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
        hi >> 32,
        (hi >> 16) & 0xFFFF,
        hi & 0xFFFF,
        lo >> 48,
        lo & 0xFFFF_FFFF_FFFF
    )
}
