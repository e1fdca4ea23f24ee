//! The `peng` command-line tool.

fn main() {
    println!("peng: nothing here yet");
}
