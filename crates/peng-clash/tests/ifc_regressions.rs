//! IFC inputs that once failed a whole file, printed a panic for a problem
//! already reported, or took unbounded time, each as small STEP text:
//! - a wall 1e30 long with an opening: ifc-lite's opening cutting panicked
//!   (overflow); now the size is refused before meshing, and any panic that
//!   is caught is reported without printing;
//! - a plane-angle unit whose conversion factor is a point, not an
//!   `IfcMeasureWithUnit`: a debug assertion in ifc-lite failed the file;
//!   now the unit is named in a warning and the default unit is used (the
//!   same for other wrong-typed unit attributes);
//! - 3,000 nested boolean operations: about 10 ms a level; now the element is
//!   left out past a depth limit (64 by default) in well under a second;
//! - a wall extruded along the slanted direction (5, 2, 1), with an opening:
//!   ifc-lite's exact cut took 0.5 s (2 s under the fuzzer's
//!   instrumentation); its exact work is now bounded per element by a limit
//!   a user can raise, past which the remaining cuts are boxes, with a
//!   warning.

use peng_clash::{parse_ifc, parse_ifc_with, LoadOptions, Loaded};
use std::process::Command;
use std::time::{Duration, Instant};

const HEAD: &str = "ISO-10303-21;
HEADER;
FILE_DESCRIPTION(('ViewDefinition [ReferenceView]'),'2;1');
FILE_NAME('r.ifc','2025-01-01T00:00:00',(''),(''),'peng','peng','');
FILE_SCHEMA(('IFC4'));
ENDSEC;
DATA;
#1=IFCPROJECT('0YvctVUKr0kugbFTf53O9L',$,'Project',$,$,$,$,(#20),#10);
#10=IFCUNITASSIGNMENT((#11,#12));
#11=IFCSIUNIT(*,.LENGTHUNIT.,.MILLI.,.METRE.);
#12=IFCSIUNIT(*,.PLANEANGLEUNIT.,$,.RADIAN.);
#20=IFCGEOMETRICREPRESENTATIONCONTEXT($,'Model',3,1.E-05,#21,$);
#21=IFCAXIS2PLACEMENT3D(#22,$,$);
#22=IFCCARTESIANPOINT((0.,0.,0.));
#23=IFCGEOMETRICREPRESENTATIONSUBCONTEXT('Body','Model',*,*,*,*,#20,$,.MODEL_VIEW.,$);
#24=IFCDIRECTION((0.,0.,1.));
#40=IFCWALL('3vB2YO$MX4xv5uCqZZG051',$,'Wall A',$,$,#41,#42,$,$);
#41=IFCLOCALPLACEMENT($,#21);
#42=IFCPRODUCTDEFINITIONSHAPE($,$,(#43));
#43=IFCSHAPEREPRESENTATION(#23,'Body','SweptSolid',(#44));
#44=IFCEXTRUDEDAREASOLID(#45,#21,#24,3000.);
#45=IFCRECTANGLEPROFILEDEF(.AREA.,$,#46,4000.,200.);
#46=IFCAXIS2PLACEMENT2D(#47,$);
#47=IFCCARTESIANPOINT((2000.,100.));
";
const TAIL: &str = "ENDSEC;\nEND-ISO-10303-21;\n";
const WALL: &str = "3vB2YO$MX4xv5uCqZZG051";

/// A door opening 1000 × 2000 mm in the wall.
const OPENING: &str =
    "#50=IFCOPENINGELEMENT('2Xl1kt8JP0rgdv3q8fNqB1',$,'Door opening',$,$,#51,#52,$,.OPENING.);
#51=IFCLOCALPLACEMENT(#41,#21);
#52=IFCPRODUCTDEFINITIONSHAPE($,$,(#53));
#53=IFCSHAPEREPRESENTATION(#23,'Body','SweptSolid',(#54));
#54=IFCEXTRUDEDAREASOLID(#55,#21,#24,2000.);
#55=IFCRECTANGLEPROFILEDEF(.AREA.,$,#56,1000.,400.);
#56=IFCAXIS2PLACEMENT2D(#57,$);
#57=IFCCARTESIANPOINT((1500.,100.));
#58=IFCRELVOIDSELEMENT('2Xl1kt8JP0rgdv3q8fNqB2',$,$,$,#40,#50);
";

fn model(head: &str, body: &str) -> String {
    format!("{head}{body}{TAIL}")
}

fn ids(l: &Loaded) -> Vec<&str> {
    l.elements.iter().map(|e| e.identity.id.as_str()).collect()
}

fn problems(l: &Loaded) -> Vec<String> {
    l.problems.iter().map(|p| p.to_string()).collect()
}

/// The wall 1e30 mm long, with the door opening: ifc-lite's opening cutting
/// overflowed on it ("attempt to subtract with overflow").
fn huge_wall() -> String {
    model(&HEAD.replace("#46,4000.,200.", "#46,1.E30,200."), OPENING)
}

/// The plane-angle unit as a conversion-based unit whose factor is a
/// point: ifc-lite's debug assertion ("slot 0 belongs to IFCMEASUREWITHUNIT
/// but was read from #22 IFCCARTESIANPOINT") failed the whole file.
fn angle_factor_is_a_point() -> String {
    model(
        &HEAD.replace(
            "IFCUNITASSIGNMENT((#11,#12))",
            "IFCUNITASSIGNMENT((#11,#13))",
        ),
        "#13=IFCCONVERSIONBASEDUNIT(#14,.PLANEANGLEUNIT.,'degree',#22);\n\
         #14=IFCDIMENSIONALEXPONENTS(0,0,0,0,0,0,0);\n",
    )
}

#[test]
fn huge_size_is_refused_before_meshing_and_names_the_element() {
    let l = parse_ifc("r.ifc", huge_wall().as_bytes()).unwrap();
    assert!(ids(&l).is_empty(), "{:?}", ids(&l));
    let p = problems(&l);
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(
        p[0].starts_with(&format!("r.ifc: element #40 IfcWall {WALL} \"Wall A\": ")),
        "{p:?}"
    );
    assert!(
        p[0].contains("#45 IfcRectangleProfileDef holds the number 1e30"),
        "{p:?}"
    );
    // The same wall of a sane size loads, with its opening cut.
    let l = parse_ifc("r.ifc", model(HEAD, OPENING).as_bytes()).unwrap();
    assert_eq!(ids(&l), [WALL], "{:?}", problems(&l));
}

#[test]
fn wrong_typed_unit_factor_loads_with_the_default_unit_and_a_warning() {
    let l = parse_ifc("u.ifc", angle_factor_is_a_point().as_bytes()).unwrap();
    assert_eq!(ids(&l), [WALL]);
    let p = problems(&l);
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(
        p[0].starts_with("u.ifc: the plane angle unit cannot be read"),
        "{p:?}"
    );
    assert!(
        p[0].contains("#13 IfcConversionBasedUnit: the conversion factor #22 IfcCartesianPoint"),
        "{p:?}"
    );
    assert!(p[0].ends_with("the default, the radian, is used"), "{p:?}");
    // The length unit (millimetre) still applies: the wall is 4 m long.
    let b = l.elements[0].bounds();
    assert!((b.max.x - b.min.x - 4.0).abs() < 1e-6, "{b:?}");

    // Wrong types in a length unit: the metre is used, so the 4000-unit wall
    // is 4000 m long; each warning names the unit's record.
    let length = |units: &str| {
        model(
            &HEAD.replace("IFCUNITASSIGNMENT((#11,#12))", "IFCUNITASSIGNMENT((#13,#12))"),
            &format!("#14=IFCDIMENSIONALEXPONENTS(1,0,0,0,0,0,0);\n#16=IFCSIUNIT(*,.LENGTHUNIT.,$,.METRE.);\n{units}"),
        )
    };
    let cases = [
        (
            "#13=IFCCONVERSIONBASEDUNIT(#14,.LENGTHUNIT.,'foot',#22);\n",
            "#13 IfcConversionBasedUnit: the conversion factor #22 IfcCartesianPoint is not an IfcMeasureWithUnit",
        ),
        (
            "#13=IFCCONVERSIONBASEDUNIT(#14,.LENGTHUNIT.,'foot',#15);\n#15=IFCMEASUREWITHUNIT('abc',#16);\n",
            "#15 IfcMeasureWithUnit (the conversion factor of #13 IfcConversionBasedUnit): the value is not a number",
        ),
        (
            "#13=IFCCONVERSIONBASEDUNIT(#14,.LENGTHUNIT.,'foot',#15);\n#15=IFCMEASUREWITHUNIT(#22,#16);\n",
            "the value is not a number",
        ),
        (
            "#13=IFCCONVERSIONBASEDUNIT(#14,.LENGTHUNIT.,'foot',#15);\n#15=IFCMEASUREWITHUNIT(IFCLENGTHMEASURE(0.3048),#22);\n",
            "the unit #22 IfcCartesianPoint is not a unit",
        ),
        (
            "#13=IFCCONVERSIONBASEDUNIT(#14,.LENGTHUNIT.,'foot','0.3048');\n",
            "#13 IfcConversionBasedUnit: the conversion factor is not a reference",
        ),
        (
            "#13=IFCSIUNIT(*,.LENGTHUNIT.,'MILLI',.METRE.);\n",
            "#13 IfcSIUnit: the prefix is not an enumeration",
        ),
    ];
    for (units, want) in cases {
        let l = parse_ifc("u.ifc", length(units).as_bytes()).unwrap();
        assert_eq!(ids(&l), [WALL], "{units}");
        let p = problems(&l);
        assert_eq!(p.len(), 1, "{units}: {p:?}");
        assert!(
            p[0].starts_with("u.ifc: the length unit cannot be read ("),
            "{p:?}"
        );
        assert!(p[0].contains(want), "{units}: {p:?}");
        assert!(p[0].ends_with("the default, the metre, is used"), "{p:?}");
        let b = l.elements[0].bounds();
        assert!((b.max.x - b.min.x - 4000.0).abs() < 1e-3, "{units}: {b:?}");
    }
}

/// A proxy whose body is `levels` nested differences: a 3 m block minus the
/// same 0.1 m post, again and again (each level's first operand is the
/// previous level).
fn nested_booleans(levels: usize) -> String {
    let mut b = String::from(
        "#60=IFCBUILDINGELEMENTPROXY('1kTvXnbbzCWw8lcMd1dR41',$,'Deep',$,$,#41,#62,$,$);
#62=IFCPRODUCTDEFINITIONSHAPE($,$,(#65));
#66=IFCEXTRUDEDAREASOLID(#67,#21,#24,3000.);
#67=IFCRECTANGLEPROFILEDEF(.AREA.,$,$,3000.,3000.);
#68=IFCEXTRUDEDAREASOLID(#69,#21,#24,5000.);
#69=IFCRECTANGLEPROFILEDEF(.AREA.,$,$,100.,100.);
",
    );
    let mut prev = 66;
    for k in 0..levels {
        let id = 1000 + k;
        b += &format!("#{id}=IFCBOOLEANRESULT(.DIFFERENCE.,#{prev},#68);\n");
        prev = id;
    }
    b += &format!("#65=IFCSHAPEREPRESENTATION(#23,'Body','CSG',(#{prev}));\n");
    model(HEAD, &b)
}

#[test]
fn deeply_nested_booleans_are_left_out_quickly() {
    let text = nested_booleans(3000);
    let t = Instant::now();
    let l = parse_ifc("b.ifc", text.as_bytes()).unwrap();
    let took = t.elapsed();
    eprintln!("3,000 nested booleans: {took:?}");
    // About 10 ms a level before: 28 s (release) for 3,000 levels.
    assert!(took < Duration::from_secs(1), "{took:?}");
    assert_eq!(ids(&l), [WALL]);
    let p = problems(&l);
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(
        p[0].starts_with("b.ifc: element #60 IfcBuildingElementProxy 1kTvXnbbzCWw8lcMd1dR41 \"Deep\": boolean operations nest more than 64 deep"),
        "{p:?}"
    );
    assert!(p[0].contains("--max-boolean-depth"), "{p:?}");
    // 70 levels: past the default, within a raised limit.
    let text = nested_booleans(70);
    let l = parse_ifc("b.ifc", text.as_bytes()).unwrap();
    assert_eq!(ids(&l), [WALL]);
    let raised = LoadOptions {
        max_boolean_depth: 70,
        ..LoadOptions::default()
    };
    let l = parse_ifc_with("b.ifc", text.as_bytes(), &raised).unwrap();
    assert_eq!(
        ids(&l),
        [WALL, "1kTvXnbbzCWw8lcMd1dR41"],
        "{:?}",
        problems(&l)
    );
}

/// Set in the child process of [`no_panic_text_on_standard_error`].
const CHILD: &str = "PENG_IFC_REGRESSIONS_CHILD";

/// Reads the inputs that made ifc-lite panic; run as a child process so its
/// standard error can be read.
#[test]
fn child_reads_the_panicking_inputs() {
    if std::env::var_os(CHILD).is_none() {
        return;
    }
    let l = parse_ifc("r.ifc", huge_wall().as_bytes()).unwrap();
    eprintln!("child: {} problems", l.problems.len());
    let l = parse_ifc("u.ifc", angle_factor_is_a_point().as_bytes()).unwrap();
    eprintln!("child: {} problems", l.problems.len());
}

#[test]
fn no_panic_text_on_standard_error() {
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "child_reads_the_panicking_inputs", "--nocapture"])
        .env(CHILD, "1")
        .env("RUST_BACKTRACE", "1")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert_eq!(err.matches("child: 1 problems").count(), 2, "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(!err.contains("backtrace"), "{err}");
}

/// The ifc fuzz target's timeout as found (3.6 KB, cut short, with
/// garbled records): its wall and door opening are extruded along (5, 2, 1),
/// and the opening's exact cut needs about 59,000 exact evaluations (0.5 s in
/// a release build, 2 s under the fuzzer's instrumentation).
const SLANTED_CUT: &[u8] = include_bytes!("data/fuzz_slanted_cut.ifc");

#[test]
fn slanted_cut_is_bounded_by_the_cut_work_limit() {
    // Within the default limit the cut is exact: no warning about it.
    let t = Instant::now();
    let l = parse_ifc("s.ifc", SLANTED_CUT).unwrap();
    eprintln!("exact slanted cut: {:?}", t.elapsed());
    assert_eq!(ids(&l), [WALL]);
    let cut = |p: &String| p.contains("cutting its openings");
    assert!(!problems(&l).iter().any(cut), "{:?}", problems(&l));
    let exact = l.elements[0].mesh().indices().len();
    // Past a lowered limit the wall is kept, its cut approximated, and the
    // warning names it and the option.
    let low = LoadOptions {
        max_cut_work: 5_000,
        ..LoadOptions::default()
    };
    let t = Instant::now();
    let l = parse_ifc_with("s.ifc", SLANTED_CUT, &low).unwrap();
    eprintln!("bounded slanted cut: {:?}", t.elapsed());
    assert_eq!(ids(&l), [WALL]);
    let p: Vec<String> = problems(&l).into_iter().filter(cut).collect();
    assert_eq!(p.len(), 1, "{:?}", problems(&l));
    assert!(
        p[0].starts_with(
            "s.ifc: element #40 IfcWall 3vB2YO$MX4xv5uCqZZG051 \"Wall A\": cutting its openings"
        ),
        "{p:?}"
    );
    assert!(
        p[0].contains("more than 5000 exact evaluations") && p[0].contains("--max-cut-work"),
        "{p:?}"
    );
    let approx = l.elements[0].mesh().indices().len();
    assert!(
        approx > 0 && approx != exact,
        "{approx} triangles, exact {exact}"
    );
}
