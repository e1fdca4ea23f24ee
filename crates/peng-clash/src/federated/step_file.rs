//! Writing one IFC4 file of the generated model: the spatial structure
//! (project, site, building, storeys) and elements whose bodies are
//! extrusions of rectangles and circles, with openings and their fillers.

use std::fmt::Write;

/// Where an extrusion runs, in its element's placement.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Run {
    /// Straight up (+z).
    Up,
    /// Along +x.
    AlongX,
    /// Along +y.
    AlongY,
}

/// A body: a profile swept `length` metres along `run` from `start`
/// (storey-relative metres). A rectangle profile is centred on the run's
/// axis (its sides along the two other world axes, in x, y, z order); a
/// circle profile is centred too.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Sweep {
    pub start: [f64; 3],
    pub run: Run,
    pub length: f64,
    pub profile: Profile,
}

/// A cross-section.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Profile {
    /// Width and height across the run (for `Up`: x and y; `AlongX`: y and
    /// z; `AlongY`: x and z).
    Rectangle(f64, f64),
    /// Radius.
    Circle(f64),
}

impl Sweep {
    /// The axis-aligned box `min`..`max` as an upward extrusion.
    pub(crate) fn cuboid(min: [f64; 3], max: [f64; 3]) -> Sweep {
        Sweep {
            start: [(min[0] + max[0]) / 2.0, (min[1] + max[1]) / 2.0, min[2]],
            run: Run::Up,
            length: max[2] - min[2],
            profile: Profile::Rectangle(max[0] - min[0], max[1] - min[1]),
        }
    }
}

/// One IFC file being written: records are numbered as they are added.
pub(crate) struct StepFile {
    text: String,
    next: usize,
    /// The project's body context.
    body: usize,
    /// Shared directions and placements.
    up: usize,
    origin_2d: usize,
    origin_3d: usize,
    x_axis: usize,
    y_axis: usize,
    /// Each storey's record and placement.
    storeys: Vec<(usize, usize)>,
    /// Each storey's elements, for its containment relation.
    contained: Vec<Vec<usize>>,
    /// GlobalIds are made from this file's letter and a serial number.
    letter: u8,
    serial: u64,
}

/// The IFC GlobalId alphabet (base 64, IFC order).
const ID_ALPHABET: &[u8; 64] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_$";

impl StepFile {
    /// A file with its spatial structure: `storeys` storeys `storey_height`
    /// apart; `letter` (0..64) makes its GlobalIds distinct from other
    /// files'.
    pub(crate) fn new(name: &str, storeys: usize, storey_height: f64, letter: u8) -> StepFile {
        let mut f = StepFile {
            text: String::new(),
            next: 1,
            body: 0,
            up: 0,
            origin_2d: 0,
            origin_3d: 0,
            x_axis: 0,
            y_axis: 0,
            storeys: Vec::new(),
            contained: vec![Vec::new(); storeys],
            letter,
            serial: 0,
        };
        let _ = write!(
            f.text,
            "ISO-10303-21;\nHEADER;\nFILE_DESCRIPTION(('ViewDefinition [ReferenceView]'),'2;1');\n\
             FILE_NAME('{name}','2026-01-01T00:00:00',('peng'),('peng'),'peng','peng generated model','');\n\
             FILE_SCHEMA(('IFC4'));\nENDSEC;\nDATA;\n"
        );
        let o3 = f.add("IFCCARTESIANPOINT((0.,0.,0.))");
        f.up = f.add("IFCDIRECTION((0.,0.,1.))");
        f.x_axis = f.add("IFCDIRECTION((1.,0.,0.))");
        f.y_axis = f.add("IFCDIRECTION((0.,1.,0.))");
        f.origin_3d = f.add(&format!("IFCAXIS2PLACEMENT3D(#{o3},$,$)"));
        let o2 = f.add("IFCCARTESIANPOINT((0.,0.))");
        f.origin_2d = f.add(&format!("IFCAXIS2PLACEMENT2D(#{o2},$)"));
        let origin = f.origin_3d;
        let context = f.add(&format!(
            "IFCGEOMETRICREPRESENTATIONCONTEXT($,'Model',3,1.E-05,#{origin},$)"
        ));
        f.body = f.add(&format!(
            "IFCGEOMETRICREPRESENTATIONSUBCONTEXT('Body','Model',*,*,*,*,#{context},$,.MODEL_VIEW.,$)"
        ));
        let metre = f.add("IFCSIUNIT(*,.LENGTHUNIT.,$,.METRE.)");
        let radian = f.add("IFCSIUNIT(*,.PLANEANGLEUNIT.,$,.RADIAN.)");
        let units = f.add(&format!("IFCUNITASSIGNMENT((#{metre},#{radian}))"));
        let id = f.global_id();
        let project = f.add(&format!(
            "IFCPROJECT('{id}',$,'Generated federated model',$,$,$,$,(#{context}),#{units})"
        ));
        let site_place = f.add(&format!("IFCLOCALPLACEMENT($,#{origin})"));
        let id = f.global_id();
        let site = f.add(&format!(
            "IFCSITE('{id}',$,'Site',$,$,#{site_place},$,$,.ELEMENT.,$,$,$,$,$)"
        ));
        let building_place = f.add(&format!("IFCLOCALPLACEMENT(#{site_place},#{origin})"));
        let id = f.global_id();
        let building = f.add(&format!(
            "IFCBUILDING('{id}',$,'Building',$,$,#{building_place},$,$,.ELEMENT.,$,$,$)"
        ));
        let mut storey_ids = Vec::new();
        for k in 0..storeys {
            let z = k as f64 * storey_height;
            let p = f.point([0.0, 0.0, z]);
            let axes = f.add(&format!("IFCAXIS2PLACEMENT3D(#{p},$,$)"));
            let place = f.add(&format!("IFCLOCALPLACEMENT(#{building_place},#{axes})"));
            let id = f.global_id();
            let storey = f.add(&format!(
                "IFCBUILDINGSTOREY('{id}',$,'{}',$,$,#{place},$,$,.ELEMENT.,{})",
                storey_name(k),
                real(z)
            ));
            f.storeys.push((storey, place));
            storey_ids.push(storey);
        }
        let rel = |f: &mut StepFile, whole: usize, parts: &[usize]| {
            let id = f.global_id();
            f.add(&format!(
                "IFCRELAGGREGATES('{id}',$,$,$,#{whole},({}))",
                refs(parts)
            ));
        };
        rel(&mut f, project, &[site]);
        rel(&mut f, site, &[building]);
        rel(&mut f, building, &storey_ids);
        f
    }

    /// Adds `record` (without number or semicolon) and returns its number.
    fn add(&mut self, record: &str) -> usize {
        let n = self.next;
        self.next += 1;
        let _ = writeln!(self.text, "#{n}={record};");
        n
    }

    /// A fresh GlobalId: 22 characters of the IFC alphabet, the first 0-3.
    pub(crate) fn global_id(&mut self) -> String {
        self.serial += 1;
        let mut id = vec![b'0'; 22];
        id[0] = b'2';
        id[1] = ID_ALPHABET[usize::from(self.letter % 64)];
        let mut s = self.serial;
        for c in id[12..].iter_mut().rev() {
            *c = ID_ALPHABET[(s % 64) as usize];
            s /= 64;
        }
        String::from_utf8(id).expect("the alphabet is ASCII")
    }

    fn point(&mut self, p: [f64; 3]) -> usize {
        self.add(&format!(
            "IFCCARTESIANPOINT(({},{},{}))",
            real(p[0]),
            real(p[1]),
            real(p[2])
        ))
    }

    /// A placement of `sweep` relative to `parent` (its local z along the
    /// run) and the body extruded in it.
    fn placement_and_shape(&mut self, parent: usize, sweep: &Sweep) -> (usize, usize) {
        let p = self.point(sweep.start);
        // Local axes: z along the run; for a horizontal run, local x is the
        // other horizontal axis and local y is vertical (y = z × x), so a
        // rectangle's first size is across, its second the height, as
        // `Profile` says.
        let axes = match sweep.run {
            Run::Up => format!("IFCAXIS2PLACEMENT3D(#{p},$,$)"),
            Run::AlongX => format!(
                "IFCAXIS2PLACEMENT3D(#{p},#{},#{})",
                self.x_axis, self.y_axis
            ),
            Run::AlongY => format!(
                "IFCAXIS2PLACEMENT3D(#{p},#{},#{})",
                self.y_axis, self.x_axis
            ),
        };
        let axes = self.add(&axes);
        let place = self.add(&format!("IFCLOCALPLACEMENT(#{parent},#{axes})"));
        let profile = match sweep.profile {
            Profile::Rectangle(a, b) => {
                format!(
                    "IFCRECTANGLEPROFILEDEF(.AREA.,$,#{},{},{})",
                    self.origin_2d,
                    real(a),
                    real(b)
                )
            }
            Profile::Circle(r) => {
                format!(
                    "IFCCIRCLEPROFILEDEF(.AREA.,$,#{},{})",
                    self.origin_2d,
                    real(r)
                )
            }
        };
        let profile = self.add(&profile);
        let solid = self.add(&format!(
            "IFCEXTRUDEDAREASOLID(#{profile},#{},#{},{})",
            self.origin_3d,
            self.up,
            real(sweep.length)
        ));
        let rep = self.add(&format!(
            "IFCSHAPEREPRESENTATION(#{},'Body','SweptSolid',(#{solid}))",
            self.body
        ));
        let shape = self.add(&format!("IFCPRODUCTDEFINITIONSHAPE($,$,(#{rep}))"));
        (place, shape)
    }

    /// Adds an element of IFC class `class` (upper case, e.g. `IFCWALL`) on
    /// storey `storey`; `tail` is the record's attributes after Tag
    /// (`.NOTDEFINED.` for most classes). Returns its GlobalId and record.
    pub(crate) fn element(
        &mut self,
        class: &str,
        name: &str,
        storey: usize,
        sweep: &Sweep,
        tail: &str,
    ) -> (String, usize) {
        let parent = self.storeys[storey].1;
        let (place, shape) = self.placement_and_shape(parent, sweep);
        let id = self.global_id();
        let n = self.add(&format!(
            "{class}('{id}',$,'{name}',$,$,#{place},#{shape},$,{tail})"
        ));
        self.contained[storey].push(n);
        (id, n)
    }

    /// Cuts `sweep` (storey-relative) out of element record `host`, and
    /// fills the opening with `filler` (an element record) when given.
    pub(crate) fn opening(
        &mut self,
        host: usize,
        storey: usize,
        sweep: &Sweep,
        filler: Option<usize>,
    ) {
        let parent = self.storeys[storey].1;
        let (place, shape) = self.placement_and_shape(parent, sweep);
        let id = self.global_id();
        let opening = self.add(&format!(
            "IFCOPENINGELEMENT('{id}',$,'Opening',$,$,#{place},#{shape},$,.OPENING.)"
        ));
        let id = self.global_id();
        self.add(&format!(
            "IFCRELVOIDSELEMENT('{id}',$,$,$,#{host},#{opening})"
        ));
        if let Some(filler) = filler {
            let id = self.global_id();
            self.add(&format!(
                "IFCRELFILLSELEMENT('{id}',$,$,$,#{opening},#{filler})"
            ));
        }
    }

    /// The finished file's text, and how many elements it holds (each is
    /// contained in one storey).
    pub(crate) fn finish(mut self) -> (String, usize) {
        let count = self.contained.iter().map(Vec::len).sum();
        for k in 0..self.storeys.len() {
            let elements = std::mem::take(&mut self.contained[k]);
            if elements.is_empty() {
                continue;
            }
            let id = self.global_id();
            let storey = self.storeys[k].0;
            self.add(&format!(
                "IFCRELCONTAINEDINSPATIALSTRUCTURE('{id}',$,$,$,({}),#{storey})",
                refs(&elements)
            ));
        }
        self.text.push_str("ENDSEC;\nEND-ISO-10303-21;\n");
        (self.text, count)
    }
}

/// A storey's name: `Level 1` for the lowest.
pub(crate) fn storey_name(k: usize) -> String {
    format!("Level {}", k + 1)
}

/// `#1,#2,#3`.
fn refs(records: &[usize]) -> String {
    let mut s = String::with_capacity(records.len() * 8);
    for (i, r) in records.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(s, "#{r}");
    }
    s
}

/// A STEP real: always with a decimal point, no exponent (the generator's
/// lengths are multiples of 0.1 mm within kilometres).
fn real(x: f64) -> String {
    let s = format!("{:.4}", x);
    let s = s.trim_end_matches('0');
    if s == "-0." {
        "0.".to_string()
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reals_are_step_reals() {
        assert_eq!(real(3.0), "3.");
        assert_eq!(real(-0.05), "-0.05");
        assert_eq!(real(2.925), "2.925");
        assert_eq!(real(-0.0), "0.");
        assert_eq!(real(120.0), "120.");
    }

    #[test]
    fn global_ids_are_22_distinct_ifc_characters() {
        let mut f = StepFile::new("t.ifc", 1, 4.0, 7);
        let a = f.global_id();
        let b = f.global_id();
        assert_eq!(a.len(), 22);
        assert_ne!(a, b);
        assert!(a.bytes().all(|c| ID_ALPHABET.contains(&c)));
        assert!(matches!(a.as_bytes()[0], b'0'..=b'3'));
    }
}
