//! How the window is drawn on Linux when there is no GPU.
//!
//! WebKitGTK composites pages with OpenGL. Without a GPU that OpenGL is Mesa's software rasteriser, and every
//! frame is composited a second time on the CPU: on a two-core machine under Xvfb a frame then takes 20–40 ms to
//! reach the screen, and each keystroke's findings wait for one more. WebKit's own non-composited mode draws the
//! page once, on the CPU, which is what happens anyway. So when no GPU render node is there, the app asks for
//! that mode, unless the user already chose with `WEBKIT_DISABLE_COMPOSITING_MODE` (set it to `0` to keep
//! compositing).

use std::ffi::OsStr;
use std::path::Path;

/// WebKitGTK's switch: any value but `0` turns accelerated compositing off.
pub const COMPOSITING_SWITCH: &str = "WEBKIT_DISABLE_COMPOSITING_MODE";

/// Where Linux lists GPU render nodes (`renderD128`, …).
const RENDER_NODES: &str = "/dev/dri";

/// Sets [`COMPOSITING_SWITCH`] for this process when the machine has no GPU render node and the user did not set
/// it. Call before the first window exists and before any other thread starts.
pub fn prefer_cpu_drawing_without_gpu() {
    if cfg!(target_os = "linux") {
        let chosen = std::env::var_os(COMPOSITING_SWITCH);
        if let Some(value) =
            switch_value(chosen.as_deref(), has_render_node(Path::new(RENDER_NODES)))
        {
            std::env::set_var(COMPOSITING_SWITCH, value);
        }
    }
}

/// The value to give the switch, or `None` to leave it: the user's choice stands, and a GPU keeps compositing.
fn switch_value(chosen: Option<&OsStr>, has_render_node: bool) -> Option<&'static str> {
    match (chosen, has_render_node) {
        (Some(_), _) | (None, true) => None,
        (None, false) => Some("1"),
    }
}

/// Whether `dir` lists a render node (`renderD*`); a missing or unreadable folder counts as none.
fn has_render_node(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|entry| entry.file_name().as_encoded_bytes().starts_with(b"renderD"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switches_compositing_off_only_without_a_gpu_and_without_a_choice() {
        assert_eq!(switch_value(None, false), Some("1"));
        assert_eq!(switch_value(None, true), None);
        assert_eq!(switch_value(Some(OsStr::new("0")), false), None);
        assert_eq!(switch_value(Some(OsStr::new("1")), true), None);
        assert_eq!(switch_value(Some(OsStr::new("")), false), None);
    }

    #[test]
    fn finds_render_nodes_by_name() {
        let dir = tempfile::tempdir().unwrap();
        assert!(!has_render_node(dir.path()));
        std::fs::write(dir.path().join("card0"), "").unwrap();
        assert!(
            !has_render_node(dir.path()),
            "a card without a render node is not enough"
        );
        std::fs::write(dir.path().join("renderD128"), "").unwrap();
        assert!(has_render_node(dir.path()));
        assert!(!has_render_node(&dir.path().join("missing")));
    }
}
