//! A generated federated model of any size, with clashes planted on purpose:
//! architecture, structure and services as three IFC4 files, for
//! benchmarks at scale and for tests whose truth is known.
//!
//! The building is a grid of 6 m × 6 m bays, 4 m storeys. Each bay and
//! storey holds eight elements, in storey-relative metres (the bay's corner
//! at x = y = 0, the storey's floor at z = 0):
//!
//! | file | element | where |
//! |---|---|---|
//! | structure | slab (`IfcSlab`) | x, y 0.05..5.95, z −0.3..0 |
//! | structure | column (`IfcColumn`, 0.4 m square) | centred on the corner, z 0.1..3.6 |
//! | structure | beam along x (`IfcBeam`, 0.3 × 0.5 m) | x 0.3..5.7 at y = 0, z 3.1..3.6 |
//! | structure | beam along y | y 0.3..5.7 at x = 0, z 3.1..3.6 |
//! | architecture | wall (`IfcWall`, 0.15 m) with a door opening 1 × 2.1 m | x 0.5..5.5 at y = 3, z 0.1..2.4 |
//! | architecture | door (`IfcDoor`) filling the opening | 0.1 m clear of the opening's sides and head |
//! | services | pipe (`IfcPipeSegment`, radius 0.05 m, along x) | y = 1.5, z 2.9..3.0 |
//! | services | duct (`IfcDuctSegment`, 0.4 × 0.3 m, along y) | x = 3, z 2.5..2.8 |
//!
//! Every element keeps at least 0.1 m from every other, so a check of the
//! three files together finds exactly the planted cases. One bay-storey in
//! [`PLANT_EVERY`] gets one, the kinds in turn:
//!
//! | planted | partner | hard | touching | clearance 5 cm | duplicate 1 mm |
//! |---|---|---|---|---|---|
//! | vertical pipe on the wall's face, half in it | wall | protrusion | protrusion | protrusion | – |
//! | pipe through the wall | wall | pierce | pierce | pierce | – |
//! | anchor (`IfcBuildingElementProxy`) cast in the column | column | containment | containment | containment | – |
//! | distribution board against the wall | wall | – | touch | touch | – |
//! | pipe 20 mm under the beam | beam along x | – | – | clearance | – |
//! | a second copy of the column | column | protrusion | protrusion | protrusion | duplicate |
//!
//! Both IfcOpenShell and peng read the files; see
//! `cargo run --release -p peng-clash --example federated` to write them.

mod step_file;

use crate::check::Mode;
use crate::clash::ClashKind;
use step_file::{Profile, Run, StepFile, Sweep};

/// A bay's side, metres.
pub const BAY: f64 = 6.0;
/// Floor to floor, metres.
pub const STOREY_HEIGHT: f64 = 4.0;
/// Elements in each bay and storey, planted ones aside.
pub const ELEMENTS_PER_BAY: usize = 8;
/// One bay-storey in this many holds a planted case.
pub const PLANT_EVERY: usize = 8;
/// The most storeys a generated model has (larger models grow sideways).
pub const MAX_STOREYS: usize = 20;

/// The size of a generated model: bays in x and y, and storeys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FederatedSize {
    /// Bays along x.
    pub bays_x: usize,
    /// Bays along y.
    pub bays_y: usize,
    /// Storeys.
    pub storeys: usize,
}

impl FederatedSize {
    /// The smallest layout (up to [`MAX_STOREYS`] storeys, square in plan)
    /// with at least `elements` regular elements (at least one bay).
    pub fn for_elements(elements: usize) -> FederatedSize {
        let bay_storeys = elements.div_ceil(ELEMENTS_PER_BAY).max(1);
        let storeys = bay_storeys.clamp(1, MAX_STOREYS);
        let bays = bay_storeys.div_ceil(storeys);
        let bays_x = (bays as f64).sqrt().ceil() as usize;
        let bays_y = bays.div_ceil(bays_x);
        FederatedSize {
            bays_x,
            bays_y,
            storeys,
        }
    }

    /// Bay-storeys: bays × storeys.
    pub fn bay_storeys(&self) -> usize {
        self.bays_x * self.bays_y * self.storeys
    }

    /// How many cases are planted.
    pub fn planted(&self) -> usize {
        (0..self.bay_storeys()).filter(|&n| is_planted(n)).count()
    }

    /// Every element, planted ones included.
    pub fn elements(&self) -> usize {
        ELEMENTS_PER_BAY * self.bay_storeys() + self.planted()
    }
}

/// One file of the model.
#[derive(Debug, Clone)]
pub struct FederatedFile {
    /// The file name (`architecture.ifc`, `structure.ifc`, `services.ifc`).
    pub name: &'static str,
    /// The IFC4 text.
    pub text: String,
    /// How many elements it holds.
    pub elements: usize,
}

/// A clash planted on purpose, between two elements named by GlobalId.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlantedClash {
    /// What was planted: protrusion, pierce, containment, touch, clearance
    /// or duplicate.
    pub kind: ClashKind,
    /// The element that was there (wall, column, beam).
    pub host: String,
    /// The planted element.
    pub planted: String,
    /// Where, in words: `pipe through the wall, bay 3-4, Level 2`.
    pub what: String,
}

impl PlantedClash {
    /// What a clash test in `mode` reports for this pair (`None`: nothing),
    /// for the default tolerances (hard 2 mm, clearance up to 0.1 m,
    /// duplicate from 1 µm).
    pub fn expected(&self, mode: Mode) -> Option<ClashKind> {
        use ClashKind::*;
        match (mode, self.kind) {
            (Mode::Duplicate { .. }, Duplicate) => Some(Duplicate),
            (Mode::Duplicate { .. }, _) => None,
            (_, Duplicate) => Some(Protrusion),
            (_, k @ (Protrusion | Pierce | Containment)) => Some(k),
            (
                Mode::Hard {
                    report_touching, ..
                },
                Touch,
            ) => report_touching.then_some(Touch),
            (Mode::Clearance { .. }, Touch) => Some(Touch),
            (Mode::Clearance { distance }, Clearance) => {
                (distance > PLANTED_GAP).then_some(Clearance)
            }
            (_, _) => None,
        }
    }
}

/// The generated model: its files and what was planted.
#[derive(Debug, Clone)]
pub struct FederatedModel {
    /// Architecture, structure and services, in that order.
    pub files: Vec<FederatedFile>,
    /// Every planted case, in the order of the bays.
    pub planted: Vec<PlantedClash>,
}

/// The gap between the pipe planted for a clearance case and its beam.
const PLANTED_GAP: f64 = 0.02;

/// The planted kinds, in turn.
const KINDS: [ClashKind; 6] = [
    ClashKind::Protrusion,
    ClashKind::Pierce,
    ClashKind::Containment,
    ClashKind::Touch,
    ClashKind::Clearance,
    ClashKind::Duplicate,
];

fn is_planted(bay_storey: usize) -> bool {
    bay_storey % PLANT_EVERY == PLANT_EVERY / 2 - 1
}

/// Generates the model of `size` (the same text every call).
pub fn federated_model(size: FederatedSize) -> FederatedModel {
    let storeys = size.storeys.max(1);
    let mut files = Files {
        architecture: StepFile::new(NAMES[0], storeys, STOREY_HEIGHT, 1),
        structure: StepFile::new(NAMES[1], storeys, STOREY_HEIGHT, 2),
        services: StepFile::new(NAMES[2], storeys, STOREY_HEIGHT, 3),
    };
    let mut planted = Vec::new();
    let mut n = 0;
    for k in 0..storeys {
        for j in 0..size.bays_y {
            for i in 0..size.bays_x {
                let bay = Bay {
                    x0: i as f64 * BAY,
                    y0: j as f64 * BAY,
                    storey: k,
                    label: format!("{}-{}", i + 1, j + 1),
                };
                let hosts = files.regular(&bay);
                if is_planted(n) {
                    let kind = KINDS[(n / PLANT_EVERY) % KINDS.len()];
                    planted.push(files.plant(&bay, &hosts, kind));
                }
                n += 1;
            }
        }
    }
    let finished = [files.architecture, files.structure, files.services].map(StepFile::finish);
    FederatedModel {
        files: NAMES
            .into_iter()
            .zip(finished)
            .map(|(name, (text, elements))| FederatedFile {
                name,
                text,
                elements,
            })
            .collect(),
        planted,
    }
}

/// One bay on one storey.
struct Bay {
    x0: f64,
    y0: f64,
    storey: usize,
    label: String,
}

impl Bay {
    /// A bay-relative point.
    fn at(&self, x: f64, y: f64, z: f64) -> [f64; 3] {
        [self.x0 + x, self.y0 + y, z]
    }

    fn cuboid(&self, min: [f64; 3], max: [f64; 3]) -> Sweep {
        Sweep::cuboid(
            self.at(min[0], min[1], min[2]),
            self.at(max[0], max[1], max[2]),
        )
    }

    fn sweep(&self, start: [f64; 3], run: Run, length: f64, profile: Profile) -> Sweep {
        Sweep {
            start: self.at(start[0], start[1], start[2]),
            run,
            length,
            profile,
        }
    }
}

/// The GlobalIds of a bay's elements that plants are put against.
struct Hosts {
    wall: String,
    column: String,
    beam_x: String,
}

struct Files {
    architecture: StepFile,
    structure: StepFile,
    services: StepFile,
}

/// The files' names, in the model's order.
const NAMES: [&str; 3] = ["architecture.ifc", "structure.ifc", "services.ifc"];

const PIPE: &str = "IFCPIPESEGMENT";
const RIGID: &str = ".RIGIDSEGMENT.";

impl Files {
    /// The bay's eight regular elements.
    fn regular(&mut self, b: &Bay) -> Hosts {
        let k = b.storey;
        let l = &b.label;
        let st = &mut self.structure;
        st.element(
            "IFCSLAB",
            &format!("Slab {l}"),
            k,
            &b.cuboid([0.05, 0.05, -0.3], [5.95, 5.95, 0.0]),
            ".FLOOR.",
        );
        let (column, _) = st.element(
            "IFCCOLUMN",
            &format!("Column {l}"),
            k,
            &column(b),
            ".COLUMN.",
        );
        let beam = Profile::Rectangle(0.3, 0.5);
        let (beam_x, _) = st.element(
            "IFCBEAM",
            &format!("Beam X {l}"),
            k,
            &b.sweep([0.3, 0.0, 3.35], Run::AlongX, 5.4, beam),
            ".BEAM.",
        );
        st.element(
            "IFCBEAM",
            &format!("Beam Y {l}"),
            k,
            &b.sweep([0.0, 0.3, 3.35], Run::AlongY, 5.4, beam),
            ".BEAM.",
        );
        let ar = &mut self.architecture;
        let (wall, wall_record) = ar.element(
            "IFCWALL",
            &format!("Wall {l}"),
            k,
            &b.cuboid([0.5, 2.925, 0.1], [5.5, 3.075, 2.4]),
            ".STANDARD.",
        );
        let (_, door) = ar.element(
            "IFCDOOR",
            &format!("Door {l}"),
            k,
            &b.cuboid([2.6, 2.975, 0.1], [3.4, 3.025, 2.0]),
            "1.9,0.8,.DOOR.,.SINGLE_SWING_LEFT.,$",
        );
        ar.opening(
            wall_record,
            k,
            &b.cuboid([2.5, 2.9, 0.0], [3.5, 3.1, 2.1]),
            Some(door),
        );
        let sv = &mut self.services;
        sv.element(
            PIPE,
            &format!("Pipe {l}"),
            k,
            &b.sweep([0.05, 1.5, 2.95], Run::AlongX, 5.9, Profile::Circle(0.05)),
            RIGID,
        );
        sv.element(
            "IFCDUCTSEGMENT",
            &format!("Duct {l}"),
            k,
            &b.sweep(
                [3.0, 0.05, 2.65],
                Run::AlongY,
                5.9,
                Profile::Rectangle(0.4, 0.3),
            ),
            RIGID,
        );
        Hosts {
            wall,
            column,
            beam_x,
        }
    }

    /// Plants one case of `kind` in the bay.
    fn plant(&mut self, b: &Bay, hosts: &Hosts, kind: ClashKind) -> PlantedClash {
        let k = b.storey;
        let l = &b.label;
        let (host, planted, what) = match kind {
            ClashKind::Protrusion => {
                let sweep = b.sweep([1.5, 3.075, 0.6], Run::Up, 1.0, Profile::Circle(0.05));
                let (id, _) = self
                    .services
                    .element(PIPE, &format!("Riser {l}"), k, &sweep, RIGID);
                (&hosts.wall, id, "pipe half in the wall's face")
            }
            ClashKind::Pierce => {
                let sweep = b.sweep([1.5, 2.5, 1.2], Run::AlongY, 1.0, Profile::Circle(0.05));
                let (id, _) = self
                    .services
                    .element(PIPE, &format!("Branch {l}"), k, &sweep, RIGID);
                (&hosts.wall, id, "pipe through the wall")
            }
            ClashKind::Containment => {
                let sweep = b.cuboid([-0.05, -0.05, 1.0], [0.05, 0.05, 1.1]);
                let (id, _) = self.structure.element(
                    "IFCBUILDINGELEMENTPROXY",
                    &format!("Anchor {l}"),
                    k,
                    &sweep,
                    ".ELEMENT.",
                );
                (&hosts.column, id, "anchor cast in the column")
            }
            ClashKind::Touch => {
                let sweep = b.cuboid([0.8, 3.075, 1.0], [1.4, 3.325, 1.8]);
                let (id, _) = self.services.element(
                    "IFCELECTRICDISTRIBUTIONBOARD",
                    &format!("Board {l}"),
                    k,
                    &sweep,
                    ".DISTRIBUTIONBOARD.",
                );
                (&hosts.wall, id, "distribution board against the wall")
            }
            ClashKind::Clearance => {
                let centre = 3.1 - PLANTED_GAP - 0.05;
                let sweep = b.sweep([1.0, 0.0, centre], Run::AlongX, 4.0, Profile::Circle(0.05));
                let (id, _) = self
                    .services
                    .element(PIPE, &format!("Drain {l}"), k, &sweep, RIGID);
                (&hosts.beam_x, id, "pipe 20 mm under the beam")
            }
            ClashKind::Duplicate => {
                let (id, _) = self.structure.element(
                    "IFCCOLUMN",
                    &format!("Column {l} (copy)"),
                    k,
                    &column(b),
                    ".COLUMN.",
                );
                (&hosts.column, id, "the column modelled twice")
            }
        };
        PlantedClash {
            kind,
            host: host.clone(),
            planted,
            what: format!("{what}, bay {l}, {}", step_file::storey_name(k)),
        }
    }
}

/// The bay's column: 0.4 m square on its corner.
fn column(b: &Bay) -> Sweep {
    b.cuboid([-0.2, -0.2, 0.1], [0.2, 0.2, 3.6])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_size_holds_at_least_the_elements_asked_for() {
        for n in [1, 8, 100, 1_000, 9_999, 100_000, 1_000_000] {
            let s = FederatedSize::for_elements(n);
            assert!(s.elements() >= n, "{n}: {s:?}");
            assert!(s.storeys <= MAX_STOREYS);
            // Not more than one row of bays too many.
            let fewer = FederatedSize {
                bays_y: s.bays_y - 1,
                ..s
            };
            assert!(ELEMENTS_PER_BAY * fewer.bay_storeys() < n, "{n}: {s:?}");
        }
        assert_eq!(
            FederatedSize::for_elements(100_000),
            FederatedSize {
                bays_x: 25,
                bays_y: 25,
                storeys: 20
            }
        );
    }

    #[test]
    fn the_counts_match_the_files() {
        let size = FederatedSize {
            bays_x: 4,
            bays_y: 3,
            storeys: 4,
        };
        let m = federated_model(size);
        let total: usize = m.files.iter().map(|f| f.elements).sum();
        assert_eq!(total, size.elements());
        assert_eq!(m.planted.len(), size.planted());
        assert_eq!(m.planted.len(), 6);
        for f in &m.files {
            assert!(f.text.starts_with("ISO-10303-21;"));
            assert!(f.text.ends_with("END-ISO-10303-21;\n"));
        }
    }
}
