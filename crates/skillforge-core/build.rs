// The builtin skills are embedded with include_dir, which cannot tell cargo what it read: rebuild
// whenever anything under skills/ changes, so the binaries never ship stale skills.
fn main() {
    println!("cargo:rerun-if-changed=../../skills");
}
