//! Safe path reads: dot-paths and segment lists into a [`Value`].

use std::fmt;

use crate::js::array_index;
use crate::{Str, Value};

/// Segments no path may name, at any depth: in JavaScript they reach an object's prototype,
/// so a path that names them reads something other than the data.
pub const FORBIDDEN_SEGMENTS: [&str; 3] = ["__proto__", "prototype", "constructor"];

/// A checked path into a [`Value`]: a list of segments, none of them empty or forbidden.
///
/// A segment reads an object's own key, or, when it is a canonical array index (`0`, `17`), an
/// array's element. Anything else — a missing key, a segment into a string or a number — reads
/// as `undefined`. The check happens once, when the path is made, so reading cannot fail.
///
/// # Example
///
/// ```
/// use writ_core::{Path, Value, parse_json};
///
/// let data = parse_json(r#"{"list_files:e2:e0": {"files": [{"name": "a.txt"}]}}"#).unwrap();
/// let path = Path::parse_dotted("list_files:e2:e0.files.0.name").unwrap();
/// assert_eq!(path.read(&data), &Value::from("a.txt"));
///
/// let error = Path::parse_dotted("a.constructor.name").unwrap_err();
/// assert_eq!(error.code(), "forbidden-path-segment");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Path {
    segments: Vec<Str>,
}

/// A path was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathError {
    kind: PathErrorKind,
    /// The 0-based index of the offending segment.
    segment_idx: usize,
    path: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum PathErrorKind {
    Forbidden(&'static str),
    Empty,
}

impl PathError {
    /// The stable code: `forbidden-path-segment` or `empty-path-segment`.
    pub fn code(&self) -> &'static str {
        match self.kind {
            PathErrorKind::Forbidden(_) => "forbidden-path-segment",
            PathErrorKind::Empty => "empty-path-segment",
        }
    }

    /// The 0-based index of the offending segment.
    pub fn segment_idx(&self) -> usize {
        self.segment_idx
    }
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let position = self.segment_idx + 1;
        let path = &self.path;
        match self.kind {
            PathErrorKind::Forbidden(name) => write!(
                f,
                "path '{path}' names '{name}' at segment {position}, which is never readable \
                 (name the data field you mean; prototype names are refused at every segment)"
            ),
            PathErrorKind::Empty => write!(
                f,
                "path '{path}' has an empty segment at segment {position} \
                 (remove the doubled, leading or trailing '.')"
            ),
        }
    }
}

impl std::error::Error for PathError {}

impl Path {
    /// The empty path, which reads the root itself.
    pub fn root() -> Path {
        Path { segments: Vec::new() }
    }

    /// Splits `text` on `.` and checks every segment. The empty string is the root path.
    ///
    /// # Errors
    ///
    /// `forbidden-path-segment` when a segment is `__proto__`, `prototype` or `constructor`;
    /// `empty-path-segment` for an empty segment (`a..b`, `.a`, `a.`).
    pub fn parse_dotted(text: &str) -> Result<Path, PathError> {
        if text.is_empty() {
            return Ok(Path::root());
        }
        Path::check(text.split('.').map(Str::from), || text.to_string())
    }

    /// Splits `text` on `.` and checks every segment, as [`Path::parse_dotted`] does; the
    /// segments may hold any code units, lone surrogates included.
    ///
    /// # Errors
    ///
    /// As [`Path::parse_dotted`].
    pub fn parse_dotted_str(text: &Str) -> Result<Path, PathError> {
        if let Some(ascii) = text.as_ascii_str() {
            return Path::parse_dotted(ascii);
        }
        if text.is_empty() {
            return Ok(Path::root());
        }
        let mut segments = Vec::new();
        let mut start = 0;
        for (idx, unit) in text.code_units().enumerate() {
            if unit == u16::from(b'.') {
                segments.push(text.slice(start, idx));
                start = idx + 1;
            }
        }
        segments.push(text.slice(start, text.len_utf16()));
        Path::check(segments.into_iter(), || text.to_string())
    }

    /// Checks a list of segments, which may contain dots.
    ///
    /// # Errors
    ///
    /// As [`Path::parse_dotted`].
    pub fn from_segments<I, S>(segments: I) -> Result<Path, PathError>
    where
        I: IntoIterator<Item = S>,
        S: Into<Str>,
    {
        let segments: Vec<Str> = segments.into_iter().map(Into::into).collect();
        let describe = || {
            let shown: Vec<String> = segments.iter().map(|segment| format!("{segment:?}")).collect();
            format!("[{}]", shown.join(", "))
        };
        let path = describe();
        Path::check(segments.iter().cloned(), || path.clone())
    }

    fn check(segments: impl Iterator<Item = Str>, describe: impl Fn() -> String) -> Result<Path, PathError> {
        let mut checked = Vec::new();
        for (segment_idx, segment) in segments.enumerate() {
            if segment.is_empty() {
                return Err(PathError {
                    kind: PathErrorKind::Empty,
                    segment_idx,
                    path: describe(),
                });
            }
            if let Some(name) = FORBIDDEN_SEGMENTS.iter().find(|name| segment.eq_str(name)) {
                return Err(PathError {
                    kind: PathErrorKind::Forbidden(name),
                    segment_idx,
                    path: describe(),
                });
            }
            checked.push(segment);
        }
        Ok(Path { segments: checked })
    }

    /// The segments in order.
    pub fn segments(&self) -> &[Str] {
        &self.segments
    }

    /// Reads the path in `root`; `undefined` where it leads nowhere.
    pub fn read<'v>(&self, root: &'v Value) -> &'v Value {
        const UNDEFINED: &Value = &Value::Undefined;
        let mut current = root;
        for segment in &self.segments {
            current = match current {
                Value::Object(object) => object.get(segment).unwrap_or(UNDEFINED),
                Value::Array(elements) => array_index(segment)
                    .and_then(|idx| elements.get(idx as usize))
                    .unwrap_or(UNDEFINED),
                _ => UNDEFINED,
            };
        }
        current
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (idx, segment) in self.segments.iter().enumerate() {
            if idx > 0 {
                f.write_str(".")?;
            }
            fmt::Display::fmt(segment, f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_json;

    #[test]
    fn forbidden_names_are_refused_at_every_segment() {
        for name in FORBIDDEN_SEGMENTS {
            for text in [name.to_string(), format!("a.{name}"), format!("a.b.{name}.c")] {
                let error = Path::parse_dotted(&text).expect_err(&text);
                assert_eq!(error.code(), "forbidden-path-segment", "{text}");
            }
            let error = Path::from_segments(["a", "b", name]).expect_err(name);
            assert_eq!((error.code(), error.segment_idx()), ("forbidden-path-segment", 2));
        }
        // Only exact names are refused.
        assert!(Path::parse_dotted("constructors.__proto__x.prototypes").is_ok());
    }

    #[test]
    fn empty_segments_are_refused() {
        for text in [".a", "a.", "a..b"] {
            assert_eq!(Path::parse_dotted(text).expect_err(text).code(), "empty-path-segment");
        }
        assert_eq!(Path::parse_dotted("").expect("root"), Path::root());
    }

    #[test]
    fn reads_objects_and_arrays_and_nothing_else() {
        let data = parse_json(r#"{"a": {"b": [10, {"c": "deep"}], "s": "text", "n": null}}"#).expect("valid");
        let read = |text: &str| Path::parse_dotted(text).expect("valid path").read(&data).clone();
        assert_eq!(read("a.b.0"), Value::from(10.0));
        assert_eq!(read("a.b.1.c"), Value::from("deep"));
        assert_eq!(read("a.n"), Value::Null);
        for missing in [
            "a.b.2",
            "a.b.01",
            "a.b.-1",
            "a.s.length",
            "a.s.0",
            "a.n.x",
            "x.y",
            "a.b.length",
        ] {
            assert_eq!(read(missing), Value::Undefined, "{missing}");
        }
        let wide = Path::parse_dotted_str(&Str::from("caf\u{e9}.x")).expect("valid path");
        assert_eq!(wide.segments(), [Str::from("caf\u{e9}"), Str::from("x")]);
        let wide_forbidden = Path::parse_dotted_str(&Str::from("caf\u{e9}.__proto__")).expect_err("forbidden");
        assert_eq!(wide_forbidden.segment_idx(), 1);
        let dotted_key = parse_json(r#"{"a.b": 1}"#).expect("valid");
        let path = Path::from_segments(["a.b"]).expect("a dot inside a segment is fine");
        assert_eq!(path.read(&dotted_key), &Value::from(1.0));
    }
}
