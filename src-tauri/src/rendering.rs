//! How the window is drawn on Linux when there is no GPU.
//!
//! WebKitGTK composites pages with OpenGL. Without a GPU that OpenGL is Mesa's software rasteriser, and every
//! frame is composited a second time on the CPU: on a two-core machine under Xvfb a frame then takes 20–40 ms to
//! reach the screen, and each keystroke's findings wait for one more. WebKit's own non-composited mode draws the
//! page once, on the CPU, which is what happens anyway. So when no GPU render node is there, the app asks for
//! that mode.
//!
//! The app's own process then draws nothing with OpenGL, yet it would still load it twice over: GTK opens GLX at
//! start to pick window visuals suited to OpenGL, and WebKit opens an EGL display to ask which GPU render node the
//! web process should use and whether frames can travel as GPU (DMA-BUF) buffers. Each loads Mesa's software
//! driver and with it libLLVM: about 50 MB resident, a quarter of the app's memory, for answers known in advance
//! (no GPU: no render node, no GPU buffers, no OpenGL window). So the app also turns GTK's OpenGL off, names no
//! render node and turns the DMA-BUF renderer off. The web process keeps its own OpenGL.
//!
//! The user's choice stands: if any of these switches is already set, the app sets none of them
//! (`WEBKIT_DISABLE_COMPOSITING_MODE=0` keeps compositing). The switches are for the app's own window: a program
//! it starts (the system browser) does not inherit them.

use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};

/// WebKitGTK's and GTK's switches, with the value each takes on a machine without a GPU.
const SWITCHES_WITHOUT_GPU: [(&str, &str); 4] = [
    // Any value but `0` turns accelerated compositing off.
    ("WEBKIT_DISABLE_COMPOSITING_MODE", "1"),
    // Any value but `0`: frames travel in shared memory, and WebKit does not open EGL to check for GPU buffers.
    ("WEBKIT_DISABLE_DMABUF_RENDERER", "1"),
    // The render node the web process is told to use. Given one, WebKit does not open EGL to find it; this path
    // does not exist, so nothing opens it, as with the null node software rendering reports.
    ("WEBKIT_WEB_RENDER_DEVICE_FILE", NO_RENDER_NODE),
    // GTK 3 opens no GLX display (the window gets an ordinary visual; nothing in this process draws with GL).
    ("GDK_GL", "disable"),
];

/// A render node that does not exist: the machine has none.
const NO_RENDER_NODE: &str = "/dev/dri/no-render-node";

/// Where Linux lists GPU render nodes (`renderD128`, …).
const RENDER_NODES: &str = "/dev/dri";

/// Whether this process set [`SWITCHES_WITHOUT_GPU`] itself.
static SET_HERE: AtomicBool = AtomicBool::new(false);

/// Sets [`SWITCHES_WITHOUT_GPU`] for this process when the machine has no GPU render node and the user set none
/// of them. Call before the first window exists and before any other thread starts.
pub fn prefer_cpu_drawing_without_gpu() {
    if cfg!(target_os = "linux") {
        let chosen = |name: &str| std::env::var_os(name).is_some();
        let set = switches(chosen, has_render_node(Path::new(RENDER_NODES)));
        for (name, value) in set {
            std::env::set_var(name, value);
        }
        SET_HERE.store(!set.is_empty(), Ordering::Release);
    }
}

/// Keeps the switches this process set for its own window out of `command`: a program the app starts (the system
/// browser) draws as its user chose.
pub fn leave_out_of(command: &mut Command) {
    leave_out(command, SET_HERE.load(Ordering::Acquire));
}

fn leave_out(command: &mut Command, set_here: bool) {
    if set_here {
        for (name, _) in SWITCHES_WITHOUT_GPU {
            command.env_remove(name);
        }
    }
}

/// The switches to set: all of them without a GPU, none with one, and none when the user already set one.
fn switches(
    chosen: impl Fn(&str) -> bool,
    has_render_node: bool,
) -> &'static [(&'static str, &'static str)] {
    if has_render_node || SWITCHES_WITHOUT_GPU.iter().any(|(name, _)| chosen(name)) {
        &[]
    } else {
        &SWITCHES_WITHOUT_GPU
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
    fn sets_every_switch_only_without_a_gpu_and_without_a_choice() {
        let nothing_chosen = |_: &str| false;
        assert_eq!(switches(nothing_chosen, false), &SWITCHES_WITHOUT_GPU);
        assert!(switches(nothing_chosen, true).is_empty());
        for (chosen_name, _) in SWITCHES_WITHOUT_GPU {
            let chosen = |name: &str| name == chosen_name;
            assert!(
                switches(chosen, false).is_empty(),
                "{chosen_name} set by the user leaves every switch alone"
            );
        }
    }

    #[test]
    fn programs_the_app_starts_do_not_inherit_the_switches_it_set() {
        let removed = |set_here: bool| {
            let mut command = Command::new("xdg-open");
            leave_out(&mut command, set_here);
            command
                .get_envs()
                .filter(|(_, value)| value.is_none())
                .map(|(name, _)| name.to_string_lossy().into_owned())
                .collect::<Vec<_>>()
        };
        let mut names: Vec<String> = SWITCHES_WITHOUT_GPU
            .iter()
            .map(|(name, _)| name.to_string())
            .collect();
        names.sort();
        assert_eq!(removed(true), names);
        assert!(
            removed(false).is_empty(),
            "switches the user set stay for every program"
        );
    }

    #[test]
    fn names_a_render_node_that_is_not_there() {
        let (_, node) = SWITCHES_WITHOUT_GPU
            .iter()
            .find(|(name, _)| *name == "WEBKIT_WEB_RENDER_DEVICE_FILE")
            .expect("the render node switch");
        assert!(!node.is_empty(), "WebKit ignores an empty render node");
        assert!(!Path::new(node).exists());
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
