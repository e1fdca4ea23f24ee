//! The IFC reader against IfcOpenShell on three real models.
//!
//! `tests/data/ifc_reference.json` holds what IfcOpenShell's geometry
//! iterator yields for ifcclash (made by `tools/ifc_reference.py`): per
//! element its GlobalId, class, name, storey, parent, world bounding box and
//! mesh volume. The reader must yield the same elements with the same
//! identities, boxes within 1 mm and volumes within 1 % (the volume shows
//! that the openings are cut as IfcOpenShell cuts them).
//!
//! The models are in the shared data folder beside the repository
//! (`../shared/data/ifc`).

use peng_clash::{read_ifc, Element};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

const FILES: [&str; 3] = ["Architectural.ifc", "MEP.ifc", "IfcOpenHouse_IFC4.ifc"];

/// Largest allowed difference of a box coordinate, metres.
const TOLERANCE: f64 = 1e-3;
/// Largest allowed relative difference of a volume (beyond 1e-6 m3).
const VOLUME_TOLERANCE: f64 = 0.01;

/// Elements whose boxes are known to differ by more than the tolerance:
/// (file, GlobalId, why). None at present.
const KNOWN_BOX_DIFFERENCES: &[(&str, &str, &str)] = &[];

/// Elements one reader yields and the other does not: (file, GlobalId, why).
/// None at present.
const KNOWN_MISSING: &[(&str, &str, &str)] = &[];

fn models() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/ifc");
    for f in FILES {
        assert!(
            dir.join(f).is_file(),
            "missing IFC model {}: the reference models live in shared/data/ifc beside the repository",
            dir.join(f).display()
        );
    }
    dir
}

/// One element of the reference.
struct Reference {
    class: String,
    name: String,
    storey: Option<String>,
    parent: Option<String>,
    min: [f64; 3],
    max: [f64; 3],
    volume: f64,
}

fn reference() -> BTreeMap<String, BTreeMap<String, Reference>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/ifc_reference.json");
    let text = std::fs::read_to_string(&path).expect("tests/data/ifc_reference.json");
    let json = json::parse(&text);
    let mut out = BTreeMap::new();
    for (file, data) in json.get("files").object() {
        let mut elements = BTreeMap::new();
        for e in data.get("elements").array() {
            let xyz = |key: &str| {
                let a = e.get(key).array();
                [a[0].number(), a[1].number(), a[2].number()]
            };
            let text = |key: &str| e.get(key).optional_string().map(str::to_string);
            let r = Reference {
                class: e.get("class").string().to_string(),
                name: e.get("name").string().to_string(),
                storey: text("storey"),
                parent: text("parent"),
                min: xyz("bbox_min"),
                max: xyz("bbox_max"),
                volume: e.get("volume").number(),
            };
            elements.insert(e.get("global_id").string().to_string(), r);
        }
        out.insert(file.clone(), elements);
    }
    out
}

/// The mesh's signed volume in world coordinates (as IfcOpenShell's).
fn volume(e: &Element) -> f64 {
    let m = e.mesh();
    let p = |k: u32| e.world_point(m.vertices()[k as usize]);
    m.indices()
        .iter()
        .map(|t| p(t[0]).dot(p(t[1]).cross(p(t[2]))) / 6.0)
        .sum()
}

fn known(list: &[(&str, &str, &str)], file: &str, id: &str) -> bool {
    list.iter().any(|k| k.0 == file && k.1 == id)
}

#[test]
fn ifc_reader_matches_ifcopenshell() {
    let dir = models();
    let reference = reference();
    let mut worst = (0.0f64, String::new());
    let mut worst_volume = 0.0f64;
    let mut failures = Vec::new();
    for file in FILES {
        let want = &reference[file];
        let start = Instant::now();
        let load = read_ifc(&dir.join(file)).unwrap_or_else(|e| panic!("{e}"));
        let took = start.elapsed();
        println!(
            "{file}: {} elements in {:.1} ms ({} in IfcOpenShell), {} problems",
            load.elements.len(),
            took.as_secs_f64() * 1e3,
            want.len(),
            load.problems.len()
        );
        for p in &load.problems {
            failures.push(format!("problem: {p}"));
        }
        let got: BTreeMap<&str, &Element> = load
            .elements
            .iter()
            .map(|e| (e.identity.id.as_str(), e))
            .collect();
        assert_eq!(
            got.len(),
            load.elements.len(),
            "{file}: duplicate GlobalIds"
        );
        for id in want.keys().filter(|id| !got.contains_key(id.as_str())) {
            if !known(KNOWN_MISSING, file, id) {
                failures.push(format!("{file}: {id} ({}) not read", want[id].class));
            }
        }
        for (id, e) in &got {
            let Some(r) = want.get(*id) else {
                if !known(KNOWN_MISSING, file, id) {
                    failures.push(format!(
                        "{file}: {id} ({}) not in IfcOpenShell's",
                        e.identity.class
                    ));
                }
                continue;
            };
            let i = &e.identity;
            if (&i.class, &i.name, &i.storey, &i.parent)
                != (&r.class, &r.name, &r.storey, &r.parent)
            {
                failures.push(format!(
                    "{file}: {id} is {:?}, IfcOpenShell says {:?}",
                    (&i.class, &i.name, &i.storey, &i.parent),
                    (&r.class, &r.name, &r.storey, &r.parent)
                ));
            }
            let v = volume(e);
            let dv = (v - r.volume).abs();
            if dv > 1e-6 && dv > VOLUME_TOLERANCE * r.volume.abs() {
                failures.push(format!(
                    "{file}: {id} ({}) volume {v:.6} m3, IfcOpenShell {:.6}",
                    r.class, r.volume
                ));
            }
            worst_volume = worst_volume.max(dv / r.volume.abs().max(1e-9));
            let b = e.bounds();
            let d = (0..3)
                .map(|i| (b.min[i] - r.min[i]).abs().max((b.max[i] - r.max[i]).abs()))
                .fold(0.0, f64::max);
            if known(KNOWN_BOX_DIFFERENCES, file, id) {
                println!("  known box difference {id}: {:.4} m", d);
                continue;
            }
            if d > worst.0 {
                worst = (d, format!("{file} {id} {}", e.identity.class));
            }
            if d > TOLERANCE {
                failures.push(format!(
                    "{file}: {id} ({}) box {:?}..{:?}, IfcOpenShell {:?}..{:?} ({:.4} m off)",
                    r.class, b.min, b.max, r.min, r.max, d
                ));
            }
        }
    }
    println!(
        "worst box difference: {:.6} mm ({})",
        worst.0 * 1e3,
        worst.1
    );
    println!("worst volume difference: {:.4} %", worst_volume * 100.0);
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Meshing runs in parallel chunks; one thread or two, the result is the same.
#[test]
fn parallel_load_is_deterministic() {
    let path = models().join("Architectural.ifc");
    let load = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| read_ifc(&path).unwrap())
    };
    let (one, two) = (load(1), load(2));
    assert_eq!(one.elements.len(), two.elements.len());
    for (a, b) in one.elements.iter().zip(&two.elements) {
        assert_eq!(a.identity, b.identity);
        assert_eq!(a.origin(), b.origin(), "{}", a.identity.id);
        assert_eq!(
            a.mesh().vertices(),
            b.mesh().vertices(),
            "{}",
            a.identity.id
        );
        assert_eq!(a.mesh().indices(), b.mesh().indices(), "{}", a.identity.id);
    }
}

/// A small JSON reader, enough for the reference file.
mod json {
    /// A JSON value.
    pub enum Value {
        Null,
        Bool(#[allow(dead_code)] bool),
        Number(f64),
        String(String),
        Array(Vec<Value>),
        Object(Vec<(String, Value)>),
    }

    impl Value {
        pub fn get(&self, key: &str) -> &Value {
            match self {
                Value::Object(o) => {
                    &o.iter()
                        .find(|(k, _)| k == key)
                        .unwrap_or_else(|| panic!("no key {key}"))
                        .1
                }
                _ => panic!("not an object"),
            }
        }
        pub fn object(&self) -> &[(String, Value)] {
            match self {
                Value::Object(o) => o,
                _ => panic!("not an object"),
            }
        }
        pub fn array(&self) -> &[Value] {
            match self {
                Value::Array(a) => a,
                _ => panic!("not an array"),
            }
        }
        pub fn string(&self) -> &str {
            match self {
                Value::String(s) => s,
                _ => panic!("not a string"),
            }
        }
        pub fn optional_string(&self) -> Option<&str> {
            match self {
                Value::Null => None,
                v => Some(v.string()),
            }
        }
        pub fn number(&self) -> f64 {
            match self {
                Value::Number(n) => *n,
                _ => panic!("not a number"),
            }
        }
    }

    pub fn parse(text: &str) -> Value {
        let mut p = Parser {
            s: text.as_bytes(),
            at: 0,
        };
        let v = p.value();
        p.ws();
        assert_eq!(p.at, p.s.len(), "trailing text in JSON");
        v
    }

    struct Parser<'a> {
        s: &'a [u8],
        at: usize,
    }

    impl Parser<'_> {
        fn ws(&mut self) {
            while self.at < self.s.len() && self.s[self.at].is_ascii_whitespace() {
                self.at += 1;
            }
        }
        fn eat(&mut self, c: u8) -> bool {
            self.ws();
            let hit = self.s.get(self.at) == Some(&c);
            self.at += hit as usize;
            hit
        }
        fn value(&mut self) -> Value {
            self.ws();
            match self.s[self.at] {
                b'{' => {
                    self.at += 1;
                    let mut o = Vec::new();
                    if !self.eat(b'}') {
                        loop {
                            self.ws();
                            let k = self.string();
                            assert!(self.eat(b':'), "expected : at {}", self.at);
                            o.push((k, self.value()));
                            if self.eat(b'}') {
                                break;
                            }
                            assert!(self.eat(b','), "expected , at {}", self.at);
                        }
                    }
                    Value::Object(o)
                }
                b'[' => {
                    self.at += 1;
                    let mut a = Vec::new();
                    if !self.eat(b']') {
                        loop {
                            a.push(self.value());
                            if self.eat(b']') {
                                break;
                            }
                            assert!(self.eat(b','), "expected , at {}", self.at);
                        }
                    }
                    Value::Array(a)
                }
                b'"' => Value::String(self.string()),
                b't' | b'f' | b'n' => {
                    for (word, v) in [
                        ("true", Value::Bool(true)),
                        ("false", Value::Bool(false)),
                        ("null", Value::Null),
                    ] {
                        if self.s[self.at..].starts_with(word.as_bytes()) {
                            self.at += word.len();
                            return v;
                        }
                    }
                    panic!("bad literal at {}", self.at)
                }
                _ => {
                    let start = self.at;
                    while self.at < self.s.len() && b"+-0123456789.eE".contains(&self.s[self.at]) {
                        self.at += 1;
                    }
                    let t = std::str::from_utf8(&self.s[start..self.at]).unwrap();
                    Value::Number(t.parse().unwrap_or_else(|_| panic!("bad number {t:?}")))
                }
            }
        }
        fn string(&mut self) -> String {
            assert_eq!(self.s[self.at], b'"', "expected a string at {}", self.at);
            self.at += 1;
            let mut out = Vec::new();
            loop {
                let c = self.s[self.at];
                self.at += 1;
                match c {
                    b'"' => break,
                    b'\\' => {
                        let e = self.s[self.at];
                        self.at += 1;
                        match e {
                            b'n' => out.push(b'\n'),
                            b't' => out.push(b'\t'),
                            b'r' => out.push(b'\r'),
                            b'b' => out.push(8),
                            b'f' => out.push(12),
                            b'u' => {
                                let mut code = self.hex4();
                                if (0xD800..0xDC00).contains(&code)
                                    && self.s[self.at..].starts_with(b"\\u")
                                {
                                    self.at += 2;
                                    code =
                                        0x10000 + ((code - 0xD800) << 10) + (self.hex4() - 0xDC00);
                                }
                                let ch = char::from_u32(code).unwrap_or('\u{fffd}');
                                out.extend_from_slice(ch.encode_utf8(&mut [0; 4]).as_bytes());
                            }
                            other => out.push(other),
                        }
                    }
                    other => out.push(other),
                }
            }
            String::from_utf8(out).expect("UTF-8 string")
        }
        fn hex4(&mut self) -> u32 {
            let t = std::str::from_utf8(&self.s[self.at..self.at + 4]).unwrap();
            self.at += 4;
            u32::from_str_radix(t, 16).expect("hex escape")
        }
    }
}
