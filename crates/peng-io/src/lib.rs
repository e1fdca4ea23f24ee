//! File readers for peng. The core crate does no I/O; this crate turns files
//! into peng's types and reports bad files with the file, line and element.
